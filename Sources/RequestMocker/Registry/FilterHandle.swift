/// A registered filter: remove it, or ask how often it answered.
///
/// ```swift
/// let login = registry.register(.post("/login"), respond: .json(["token": "t"]))
/// try await client.signIn()
/// #expect(login.requestCount == 1)
/// login.remove()
/// ```
public struct FilterHandle: Sendable, Hashable {
    package let id: Int
    let registry: MockRegistry

    /// Removes the filter from its registry; doing it twice does nothing.
    public func remove() {
        registry.remove(self)
    }

    /// The requests this filter answered, oldest first.
    public var requests: [MockRequest] {
        registry.journal.compactMap { $0.filterID == id ? $0.request : nil }
    }

    /// How many requests this filter answered.
    public var requestCount: Int {
        registry.journal.reduce(0) { $0 + ($1.filterID == id ? 1 : 0) }
    }

    public static func == (lhs: FilterHandle, rhs: FilterHandle) -> Bool {
        lhs.id == rhs.id && lhs.registry === rhs.registry
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(ObjectIdentifier(registry))
    }
}
