/// The path variables a filter captured from one request.
///
/// Each request gets its own value, so concurrent requests through one filter never see each
/// other's captures; a block response receives it beside the request.
///
/// ```swift
/// registry.register(.get("/users/<id>/posts/<post>")) { _, captures in
///     .json(["user": .string(captures["id"] ?? ""), "post": .int(captures.int("post") ?? 0)])
/// }
/// ```
public struct Captures: Sendable, Hashable, CustomStringConvertible {
    /// The captured pairs, in pattern order.
    public private(set) var pairs: [(name: String, value: String)] = []

    /// No captures.
    public init() {}

    /// Creates captures from pairs (handy in tests of your own blocks).
    public init(_ pairs: KeyValuePairs<String, String>) {
        self.pairs = pairs.map { (name: $0.key, value: $0.value) }
    }

    mutating func append(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    mutating func removeLast(_ count: Int) {
        pairs.removeLast(count)
    }

    /// The decoded value captured under `name`.
    public subscript(name: String) -> String? {
        pairs.first { $0.name == name }?.value
    }

    /// The value captured under `name`, as an integer.
    public func int(_ name: String) -> Int? {
        self[name].flatMap { Int($0) }
    }

    /// The captures as a dictionary.
    public var dictionary: [String: String] {
        Dictionary(pairs.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Whether nothing was captured.
    public var isEmpty: Bool { pairs.isEmpty }

    public var description: String {
        "[" + pairs.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + "]"
    }

    public static func == (lhs: Captures, rhs: Captures) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.name)
            hasher.combine(pair.value)
        }
    }
}
