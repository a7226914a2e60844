import Foundation
import RequestMocker

/// Which of a contract's operations a request is for: the path templates, each under its base
/// path, compiled once into a tree of segments, so that routing costs the same with ten
/// operations or ten thousand.
///
/// The rules, in order:
/// - A request's path is split on `/` and each segment percent-decoded; leading and trailing
///   slashes don't count (as for `PathPattern`). It must start with the operation's base path.
/// - At each segment a literal beats a template segment (`/pets/mine` before `/pets/{id}`);
///   template segments are tried in document order. A template segment may mix text and
///   parameters (`{Sid}.json`); a parameter takes at least one character, and as few as it can
///   before the text that follows it.
/// - The first path that matches decides, as OpenAPI has concrete paths matched before
///   templated ones: its operation for the request's method (a `HEAD` goes to a `GET` where the
///   path declares no `HEAD`), else 405 with its methods.
/// - A path key that carries a query (`/responses?beta=true`) matches only when the request has
///   those query items, and is tried before the same path without one. A fragment in a key
///   (`/files/{id}#add_shared_link`) can never be sent, so it is ignored: such keys share their
///   path, and only the first of them for a method can be reached.
package struct OpenAPIRouter: Sendable {
    /// One operation where the router files it.
    package struct Entry: Sendable {
        /// The operation's position in the contract's `operations`.
        package let operation: Int
        package let method: HTTPMethod
        /// The names of the template's parameters, in the order they appear.
        let parameters: [String]
        /// Query items the request must carry (from a query written in the path key).
        let conditions: [URLQueryItem]
    }

    /// What the router made of a request.
    package enum Decision: Equatable, Sendable {
        /// The operation, with the path parameters' values (percent-decoded).
        case operation(Int, parameters: [String: String])
        /// The path is the contract's, but not with this method: these are its methods.
        case methodNotAllowed(allowed: [HTTPMethod])
        /// No path of the contract matches.
        case notFound
    }

    /// A segment of a template: text alone, or text and parameters (`{Sid}.json`).
    enum Segment: Hashable, Sendable {
        case literal(String)
        /// Literal pieces and parameters in order; parameters are `nil` pieces.
        case template([String?])
    }

    /// A node of the tree: its children, and the operations whose path ends here.
    private final class Node: @unchecked Sendable {
        // @unchecked Sendable: built once by `init`, then only read.
        var literals: [String: Node] = [:]
        var templates: [(segment: [String?], node: Node)] = []
        var entries: [Entry] = []
    }

    private let root = Node()
    /// The base paths operations are filed under (`/v1`), each once, in the order first seen.
    package let basePaths: [String]
    /// Operations no request can reach, with the one that is reached instead.
    package private(set) var unreachable: [(operation: Int, shadowedBy: Int)] = []

    /// Files each operation under its base path (`basePaths[i]` for `operations[i]`, as a
    /// path such as `/v1`; `""` or `/` for none).
    package init(_ operations: [OpenAPIContract.Operation], basePaths: [String]) {
        var prefixes: [String] = []
        for path in basePaths {
            let segments = PathPattern.segments(ofEncodedPath: path)
            if !segments.isEmpty, !prefixes.contains("/" + segments.joined(separator: "/")) {
                prefixes.append("/" + segments.joined(separator: "/"))
            }
        }
        self.basePaths = prefixes
        for (index, operation) in operations.enumerated() {
            var template = operation.path
            if let hash = template.firstIndex(of: "#") { template = String(template[..<hash]) }
            var conditions: [URLQueryItem] = []
            if let question = template.firstIndex(of: "?") {
                conditions =
                    URLComponents(string: "http://x/?" + template[template.index(after: question)...])?
                    .queryItems ?? []
                template = String(template[..<question])
            }
            let segments =
                PathPattern.segments(ofEncodedPath: basePaths[index]).map(Segment.literal)
                + Self.segments(ofTemplate: template)
            var node = root
            // The template's parameter names in order; each template segment takes its share.
            var names = Self.names(in: template)[...]
            var parameters: [String] = []
            for segment in segments {
                switch segment {
                case .literal(let text):
                    if let next = node.literals[text] {
                        node = next
                    } else {
                        let next = Node()
                        node.literals[text] = next
                        node = next
                    }
                case .template(let pieces):
                    let count = pieces.count { $0 == nil }
                    parameters += names.prefix(count)
                    names = names.dropFirst(count)
                    let shape = pieces.map { $0 ?? "" }
                    if let existing = node.templates.first(where: { $0.segment.map { $0 ?? "" } == shape }) {
                        node = existing.node
                    } else {
                        let next = Node()
                        node.templates.append((pieces, next))
                        node = next
                    }
                }
            }
            let entry = Entry(
                operation: index, method: operation.method, parameters: parameters, conditions: conditions)
            if conditions.isEmpty {
                if let earlier = node.entries.first(where: { $0.method == entry.method && $0.conditions.isEmpty }) {
                    unreachable.append((index, earlier.operation))
                }
                node.entries.append(entry)
            } else {
                // Conditional keys are tried before the plain ones of the same path.
                let firstPlain = node.entries.firstIndex { $0.conditions.isEmpty } ?? node.entries.endIndex
                node.entries.insert(entry, at: firstPlain)
            }
        }
    }

    /// The template's segments: literals percent-decoded, parameters as `nil` pieces.
    static func segments(ofTemplate template: String) -> [Segment] {
        template.split(separator: "/").map { text in
            guard text.contains("{") else {
                return .literal(String(text).removingPercentEncoding ?? String(text))
            }
            var pieces: [String?] = []
            var rest = Substring(text)
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                if open > rest.startIndex {
                    let literal = String(rest[..<open])
                    pieces.append(literal.removingPercentEncoding ?? literal)
                }
                pieces.append(nil)
                rest = rest[rest.index(after: close)...]
            }
            if !rest.isEmpty { pieces.append(String(rest).removingPercentEncoding ?? String(rest)) }
            return .template(pieces)
        }
    }

    /// The names of `template`'s parameters, in order.
    private static func names(in template: String) -> [String] {
        var names: [String] = []
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }

    /// The operation for `method` on the percent-decoded path `segments`, with `query`.
    package func route(_ method: HTTPMethod, segments: [String], query: [URLQueryItem]) -> Decision {
        // Depth first, literals before templates: the tree has no cycles, so each node is
        // visited at most once. `values` holds the parameters' values along the current path.
        var stack: [(node: Node, depth: Int, values: [String])] = [(root, 0, [])]
        while let (node, depth, values) = stack.popLast() {
            if depth == segments.count {
                let matching = node.entries.filter { entry in
                    entry.conditions.allSatisfy { condition in query.contains(condition) }
                }
                guard !matching.isEmpty else { continue }
                // The first path that matches decides, whatever its methods (OpenAPI matches
                // concrete paths before templated ones): a method it lacks is a 405.
                let chosen =
                    matching.first { $0.method == method }
                    ?? (method == .head ? matching.first { $0.method == .get } : nil)
                guard let chosen else {
                    var allowed: [HTTPMethod] = []
                    for entry in matching where !allowed.contains(entry.method) { allowed.append(entry.method) }
                    if allowed.contains(.get), !allowed.contains(.head) { allowed.append(.head) }
                    return .methodNotAllowed(allowed: allowed)
                }
                let parameters = Dictionary(zip(chosen.parameters, values), uniquingKeysWith: { first, _ in first })
                return .operation(chosen.operation, parameters: parameters)
            }
            let segment = segments[depth]
            // Pushed in reverse, so the literal comes off the stack first, then the templates in order.
            for (pieces, child) in node.templates.reversed() {
                if let captured = Self.match(segment, pieces) { stack.append((child, depth + 1, values + captured)) }
            }
            if let child = node.literals[segment] { stack.append((child, depth + 1, values)) }
        }
        return .notFound
    }

    /// The parameters' values if `segment` matches a template segment's pieces.
    static func match(_ segment: String, _ pieces: [String?]) -> [String]? {
        var values: [String] = []
        var rest = Substring(segment)
        for (position, piece) in pieces.enumerated() {
            if let literal = piece {
                guard rest.hasPrefix(literal) else { return nil }
                rest = rest.dropFirst(literal.count)
                continue
            }
            // A parameter: everything up to the next literal piece (at least one character).
            let next = pieces[(position + 1)...].first { $0 != nil } ?? nil
            if let next {
                guard rest.count > 1,
                    let end = rest[rest.index(after: rest.startIndex)...].range(of: next)?.lowerBound
                else { return nil }
                values.append(String(rest[..<end]))
                rest = rest[end...]
            } else {
                guard !rest.isEmpty else { return nil }
                values.append(String(rest))
                rest = rest[rest.endIndex...]
            }
        }
        return rest.isEmpty ? values : nil
    }
}
