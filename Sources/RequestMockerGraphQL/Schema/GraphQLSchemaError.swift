import Foundation

/// A schema that can't be used: every problem found, each with where it is (`file:line:column`),
/// what is wrong, and what to do. `request-mocker` exits 65 with it.
///
/// ```swift
/// do {
///     _ = try GraphQLSchema(sdl: "type Query { b: Strin }")
/// } catch {
///     print(error)  // 1:17: Unknown type "Strin" (the type of Query.b): … Did you mean "String"?
/// }
/// ```
public struct GraphQLSchemaError: Error, Sendable, CustomStringConvertible {
    /// One thing wrong with a schema (or a mocks file), and where.
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        /// The schema file, when it was read from one.
        public var file: String?
        /// Where the problem is, when it is at a place in the file (a built-in's is nowhere).
        public var location: GraphQLLocation?
        /// What is wrong, then what to do.
        public var message: String

        /// `file:line:column: message`, with what is known of the place.
        public var description: String {
            let place = [file, location.map(\.description)].compactMap { $0 }.joined(separator: ":")
            return place.isEmpty ? message : "\(place): \(message)"
        }
    }

    /// Every problem found, in the order of the file.
    public var problems: [Problem]
    /// Whether the schema's file isn't there (a command exits 66 then, not 65).
    public var isFileMissing = false

    /// The bytes of the file at `url`, or the problem that it can't be read (`kind` names the
    /// file in the message: "schema", "mocks").
    static func read(_ url: URL, kind: String) -> Result<[UInt8], GraphQLSchemaError> {
        do {
            return .success([UInt8](try Data(contentsOf: url)))
        } catch {
            let missing = !FileManager.default.fileExists(atPath: url.path)
            var failure = GraphQLSchemaError(problems: [
                Problem(
                    file: url.path, location: nil,
                    message: missing ? "There is no \(kind) file here." : "The \(kind) file can't be read: \(error)")
            ])
            failure.isFileMissing = missing
            return .failure(failure)
        }
    }

    /// Each problem on a line of its own.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}

/// graphql-js's "Did you mean" list: the options within a few edits of `input`, nearest first,
/// at most five.
func suggestions(for input: String, among options: some Sequence<String>) -> [String] {
    let threshold = input.count * 4 / 10 + 1
    let lowered = Array(input.lowercased().unicodeScalars)
    var found: [(distance: Int, option: String)] = []
    for option in options {
        let other = Array(option.lowercased().unicodeScalars)
        // A difference of case alone is the nearest there is.
        let distance = lowered == other ? (input == option ? 0 : 1) : editDistance(lowered, other, bound: threshold)
        if distance <= threshold { found.append((distance, option)) }
    }
    return found.sorted { ($0.distance, $0.option) < ($1.distance, $1.option) }.prefix(5).map(\.option)
}

/// ` Did you mean "A" or "B"?`, ` Did you mean "A", "B", or "C"?` (at most five, as graphql-js
/// lists them), with `subject` before the list when given (`the enum value`), or nothing.
func didYouMean(_ options: [String], prefix: String = "", subject: String? = nil) -> String {
    guard !options.isEmpty else { return "" }
    let quoted = options.prefix(5).map { "\"\(prefix)\($0)\"" }
    let list =
        switch quoted.count {
        case 1: quoted[0]
        case 2: quoted[0] + " or " + quoted[1]
        default: quoted.dropLast().joined(separator: ", ") + ", or " + quoted[quoted.count - 1]
        }
    return " Did you mean " + (subject.map { $0 + " " } ?? "") + list + "?"
}

/// The edit distance of two strings, transpositions counting one, or `bound + 1` when it is past
/// `bound` (the lengths alone may say so).
private func editDistance(_ first: [Unicode.Scalar], _ second: [Unicode.Scalar], bound: Int) -> Int {
    if abs(first.count - second.count) > bound { return bound + 1 }
    var before = [Int](0...second.count)
    var previous = before
    for (index, a) in first.enumerated() {
        var current = [index + 1] + [Int](repeating: 0, count: second.count)
        for (otherIndex, b) in second.enumerated() {
            let cost = a == b ? 0 : 1
            current[otherIndex + 1] = min(
                previous[otherIndex + 1] + 1, current[otherIndex] + 1, previous[otherIndex] + cost)
            if index > 0, otherIndex > 0, a == second[otherIndex - 1], first[index - 1] == b {
                current[otherIndex + 1] = min(current[otherIndex + 1], before[otherIndex - 1] + 1)
            }
        }
        before = previous
        previous = current
    }
    return previous[second.count]
}
