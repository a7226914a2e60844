/// An ordered, thread-safe set of filters that answers requests, with a journal of every
/// request it saw.
///
/// Give each test its own registry and a session that routes to it; two registries never see
/// each other's requests, even in tests that run in parallel:
///
/// ```swift
/// let registry = MockRegistry()
/// registry.register(.get("/users/<id>"), respond: .json(["id": 7]))
/// let session = registry.makeSession()
/// let (data, _) = try await session.data(from: URL(string: "https://api.test/users/7")!)
/// #expect(registry.journal.count == 1)
/// ```
///
/// Filters are tried in registration order and the first match wins, so register specific
/// filters before general ones (or register them `at: .first`). Registration, removal and matching
/// may happen from any thread. ``shared`` is the process-wide registry that
/// ``MockURLProtocol`` itself serves, for code that registers globally.
public final class MockRegistry: Sendable {
    package struct State: Sendable {
        package var index = FilterIndex()
        var nextID = 0
        var unmatchedPolicy: UnmatchedRequestPolicy
        var followsRedirects = true
        var journal = RequestJournal()
        /// This registry's protocol class, made on first use (see `RouteTable`).
        var route: RouteTable.Route?
        /// The protocol classes made for session configurations, by their request timeout (see
        /// `RouteTable`).
        var sessionRoutes: [SessionRouteKey: [RouteTable.Route]] = [:]
        var session: URLSession?
        var strays: [MockRequest] = []
    }

    package let state: LockedState<State>
    /// The states of the scenarios its filters name.
    package let scenarios = ScenarioStates()

    /// The process-wide registry behind ``MockURLProtocol`` and
    /// `MockURLProtocol.register(_:)`. Its unmatched policy is ``UnmatchedRequestPolicy/passThrough``.
    ///
    /// Tests that use it share it: Swift Testing runs tests in parallel, so prefer a registry per
    /// test, or serialize the suites that use this one (`@Suite(.serialized)`).
    public static let shared = MockRegistry(unmatchedPolicy: .passThrough, isShared: true)

    /// Creates an empty registry.
    ///
    /// - Parameter unmatchedPolicy: what to do with requests no filter matches;
    ///   ``UnmatchedRequestPolicy/fail`` by default.
    public convenience init(unmatchedPolicy: UnmatchedRequestPolicy = .fail) {
        self.init(unmatchedPolicy: unmatchedPolicy, isShared: false)
    }

    private init(unmatchedPolicy: UnmatchedRequestPolicy, isShared: Bool) {
        var initial = State(unmatchedPolicy: unmatchedPolicy)
        if isShared { initial.route = .shared }
        state = LockedState(initial)
    }

    deinit {
        let (route, session, sessionRoutes) = state.withLock { ($0.route, $0.session, $0.sessionRoutes) }
        session?.finishTasksAndInvalidate()
        for route in (route.map { [$0] } ?? []) + sessionRoutes.values.joined() { RouteTable.release(route) }
    }

    // MARK: Settings

    /// What happens to requests no filter matches.
    public var unmatchedPolicy: UnmatchedRequestPolicy {
        get { state.withLock { $0.unmatchedPolicy } }
        set { state.withLock { $0.unmatchedPolicy = newValue } }
    }

    /// Whether redirect responses (301, 302, 303, 307, 308 with a `Location`) are followed by
    /// the library, up to 16 hops; `true` by default. When `false`, the caller
    /// receives the 3xx response itself. FoundationNetworking crashes if a URL protocol reports
    /// a redirect, so following happens here and the caller sees the final response and URL.
    public var followsRedirects: Bool {
        get { state.withLock { $0.followsRedirects } }
        set { state.withLock { $0.followsRedirects = newValue } }
    }

    /// The most redirects followed in a row before the request fails.
    static let maximumRedirects = 16
}
