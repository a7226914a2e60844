import RequestMocker

/// A value as GraphQL's responses and coerced inputs carry it: JSON whose objects keep their
/// members' order (a response's keys are in the order its selection set asks for them).
package indirect enum GraphQLJSON: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)
    case list([GraphQLJSON])
    case object([(key: String, value: GraphQLJSON)])

    package static func == (lhs: GraphQLJSON, rhs: GraphQLJSON) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.float(let a), .float(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.list(let a), .list(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }

    /// The member `key` of an object.
    package subscript(key: String) -> GraphQLJSON? {
        if case .object(let members) = self { members.first { $0.key == key }?.value } else { nil }
    }

    /// A JSON document's value, its objects' order kept (a number past `Int` and `Double`'s
    /// exactness is read as a `Double`).
    package init(_ node: DocumentNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let flag): self = .bool(flag)
        case .int(let number): self = .int(number)
        case .double(let number): self = .float(number)
        case .exactNumber: self = .float(node.number ?? .nan)
        case .string(let text): self = .string(text)
        case .array(let elements): self = .list(elements.map(GraphQLJSON.init))
        case .object(let object): self = .object(object.members.map { ($0.key, GraphQLJSON($0.value)) })
        }
    }

    /// How a message shows the value: JSON, on one line.
    package var description: String {
        switch self {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .float(let number): String(number)
        case .string(let text): GraphQLPrinter.string(text)
        case .list(let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.map { "\(GraphQLPrinter.string($0.key)): \($0.value)" }.joined(separator: ", ") + "}"
        }
    }
}
