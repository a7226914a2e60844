import Foundation
import RequestMocker

extension OpenAPIContract {
    /// A contract that could not be read: the file, the line and column, the JSON pointer of the
    /// value, what was wrong, and what to do.
    ///
    /// ```swift
    /// do {
    ///     _ = try OpenAPIContract(contentsOf: url)
    /// } catch {
    ///     print(error) // openapi.json:12:9: #/paths/~1pets/get: the operation is a string; …
    /// }
    /// ```
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The file the problem is in.
        public let file: URL
        /// The 1-based line, when the problem is at a place in the file.
        public let line: Int?
        /// The 1-based column (in characters), when the problem is at a place in the file.
        public let column: Int?
        /// The JSON pointer of the value the problem is about, as a fragment (`#/paths/~1pets`);
        /// `#` for the whole document.
        public let pointer: String
        /// What was wrong and what to do.
        public let reason: String
        /// Whether the file itself is missing (rather than present and wrong).
        public let isFileMissing: Bool

        public var description: String {
            let place = [line, column].compactMap { $0.map(String.init) }.joined(separator: ":")
            return file.path + (place.isEmpty ? "" : ":" + place) + ": " + pointer + ": " + reason
        }

        init(
            file: URL, line: Int? = nil, column: Int? = nil, pointer: String = "#", reason: String,
            isFileMissing: Bool = false
        ) {
            self.file = file
            self.line = line
            self.column = column
            self.pointer = pointer
            self.reason = reason
            self.isFileMissing = isFileMissing
        }

        /// A problem with a value of `source`, at `offset`.
        init(_ source: DocumentSource, at offset: Int, pointer: String, reason: String) {
            let (line, column) = source.location(of: offset)
            self.init(file: source.url, line: line, column: column, pointer: pointer, reason: reason)
        }
    }
}

/// A contract's own value that breaks its schema (an example, a default), where it is written:
/// what `request-mocker check` reports about the contract itself.
package struct ContractProblem: Sendable, Hashable {
    package let file: URL
    /// The 1-based line, counted once the contract is read (for all problems at once).
    package internal(set) var line: Int?
    /// Where the value starts in its file, in bytes.
    let offset: Int
    /// Where the value is: `#/paths/~1pets/get/responses/200/content/application~1json/example`.
    package let pointer: String
    package let message: String
    /// An example is an error; a default, which generated values leave out, a warning.
    package let isError: Bool
}
