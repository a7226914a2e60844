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
/// filters before general ones (or ``prepend(_:)`` them). Registration, removal and matching
/// may happen from any thread. ``shared`` is the process-wide registry that
/// ``MockURLProtocol`` itself serves, for code that registers globally.
public final class MockRegistry: Sendable {
    struct State: Sendable {
        var index = FilterIndex()
        var nextID = 0
        var unmatchedPolicy: UnmatchedRequestPolicy
        var followsRedirects = true
        var journal = RequestJournal()
        var protocolClass: MockURLProtocol.Type?
        var routeSlot: Int?
        var session: URLSession?
        var strays: [MockRequest] = []
    }

    let state: LockedState<State>

    /// The process-wide registry behind ``MockURLProtocol`` and
    /// ``MockURLProtocol/register(_:)``. Its unmatched policy is ``UnmatchedRequestPolicy/passThrough``.
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
        if isShared { initial.protocolClass = MockURLProtocol.self }
        state = LockedState(initial)
    }

    deinit {
        let (slot, session) = state.withLock { ($0.routeSlot, $0.session) }
        session?.finishTasksAndInvalidate()
        if let slot { RouteTable.release(slot) }
    }

    // MARK: Settings

    /// What happens to requests no filter matches.
    public var unmatchedPolicy: UnmatchedRequestPolicy {
        get { state.withLock { $0.unmatchedPolicy } }
        set { state.withLock { $0.unmatchedPolicy = newValue } }
    }

    /// Whether redirect responses (301, 302, 303, 307, 308 with a `Location`) are followed by
    /// the library, up to ``maximumRedirects`` hops; `true` by default. When `false`, the caller
    /// receives the 3xx response itself. FoundationNetworking crashes if a URL protocol reports
    /// a redirect, so following happens here and the caller sees the final response and URL.
    public var followsRedirects: Bool {
        get { state.withLock { $0.followsRedirects } }
        set { state.withLock { $0.followsRedirects = newValue } }
    }

    /// The most redirects followed in a row before the request fails.
    public static let maximumRedirects = 16

    // MARK: Registering

    /// Adds a filter after every filter registered so far.
    ///
    /// - Returns: a handle that removes this one filter and tells how often it answered.
    @discardableResult
    public func register(_ filter: RequestFilter) -> FilterHandle {
        insert(filter, at: .back)
    }

    /// Adds a filter that answers with `response`.
    ///
    /// ```swift
    /// registry.register(.get("/users/<id>"), respond: .json(["id": 1]))
    /// ```
    @discardableResult
    public func register(_ filter: RequestFilter, respond response: MockResponse) -> FilterHandle {
        insert(filter.respond(with: response), at: .back)
    }

    /// Adds a filter whose response a block computes from the request and its path variables.
    ///
    /// ```swift
    /// registry.register(.get("/users/<id>")) { request, captures in
    ///     .json(["id": .string(captures["id"] ?? "")])
    /// }
    /// ```
    @discardableResult
    public func register(
        _ filter: RequestFilter,
        respond block: @escaping @Sendable (MockRequest, Captures) throws -> MockResponse
    ) -> FilterHandle {
        insert(filter.respond(with: .block(block)), at: .back)
    }

    /// Adds a filter whose response an `async` block computes.
    @discardableResult
    public func register(
        _ filter: RequestFilter,
        respond block: @escaping @Sendable (MockRequest, Captures) async throws -> MockResponse
    ) -> FilterHandle {
        insert(filter.respond(with: .block(block)), at: .back)
    }

    /// Adds a filter before every filter registered so far, so it is tried first.
    @discardableResult
    public func prepend(_ filter: RequestFilter) -> FilterHandle {
        insert(filter, at: .front)
    }

    /// Adds a filter that answers with `response`, before every filter registered so far.
    @discardableResult
    public func prepend(_ filter: RequestFilter, respond response: MockResponse) -> FilterHandle {
        insert(filter.respond(with: response), at: .front)
    }

    /// Adds a folder of response files after everything registered so far; requests that no
    /// earlier filter or folder answers look for their files there.
    ///
    /// ```swift
    /// try registry.register(MockDataDirectory(URL(fileURLWithPath: "Tests/MockData")))
    /// ```
    ///
    /// - Returns: a handle that removes the folder again.
    @discardableResult
    public func register(_ directory: MockDataDirectory) -> FilterHandle {
        insert(directory, at: .back)
    }

    /// Adds a folder of response files before everything registered so far: an override folder.
    @discardableResult
    public func prepend(_ directory: MockDataDirectory) -> FilterHandle {
        insert(directory, at: .front)
    }

    /// Adds a cassette after everything registered so far: requests that no earlier source
    /// answers are played back from it, or recorded into it (see ``Cassette``).
    ///
    /// ```swift
    /// registry.register(try Cassette(contentsOf: url, record: .once))
    /// ```
    ///
    /// - Returns: a handle that removes the cassette again (recordings stay in the cassette
    ///   until it is saved).
    @discardableResult
    public func register(_ cassette: Cassette) -> FilterHandle {
        insert(cassette, at: .back)
    }

    /// Adds a cassette before everything registered so far.
    @discardableResult
    public func prepend(_ cassette: Cassette) -> FilterHandle {
        insert(cassette, at: .front)
    }

    /// Registers `cassette`, runs `body` with a session that routes to this registry, then
    /// removes the cassette and saves what was recorded — also when `body` throws, because
    /// what was recorded is real traffic either way.
    ///
    /// ```swift
    /// let cassette = try Cassette(contentsOf: fixtures.appendingPathComponent("users.har"))
    /// let users = try await registry.withCassette(cassette) { session in
    ///     try await UsersClient(session: session).list()
    /// }
    /// ```
    ///
    /// - Throws: what `body` throws (the cassette is still saved, as far as it can be), else
    ///   ``RequestMockerError/recordingNotWritable(path:reason:)``.
    public func withCassette<Result>(
        _ cassette: Cassette,
        body: (URLSession) async throws -> Result
    ) async throws -> Result {
        let handle = register(cassette)
        let session = makeSession()
        let result: Swift.Result<Result, any Error>
        do {
            result = .success(try await body(session))
        } catch {
            result = .failure(error)
        }
        session.finishTasksAndInvalidate()
        remove(handle)
        // The body's own failure matters more than a failure to save after it.
        guard case .success(let value) = result else {
            _ = try? cassette.save()
            return try result.get()
        }
        try cassette.save()
        return value
    }

    /// Adds a cassette after everything registered so far and everything registered later, so
    /// it answers only what no filter, folder or other cassette does. A cassette named after a
    /// test (RequestMockerTesting) goes here, so the filters a test registers win over it.
    @discardableResult
    package func registerFallback(_ cassette: Cassette) -> FilterHandle {
        insert(cassette, at: .fallback)
    }

    /// A mark for ``moveToFront(registeredAfter:)``: everything registered so far is at or below it.
    package var registrationMark: Int {
        state.withLock { $0.nextID }
    }

    /// Moves what was registered after `mark` in front of everything registered before it,
    /// keeping its order: a test's own filters go before its suite's (RequestMockerTesting).
    package func moveToFront(registeredAfter mark: Int) {
        state.withLock { $0.index.moveToFront(idsAbove: mark) }
    }

    private func insert(_ source: any AnswerSource, at position: FilterIndex.Position) -> FilterHandle {
        let id = state.withLock { state in
            state.nextID += 1
            state.index.insert(source, id: state.nextID, at: position)
            return state.nextID
        }
        return FilterHandle(id: id, registry: self)
    }

    /// Removes the filter behind `handle`; removing it twice does nothing.
    public func remove(_ handle: FilterHandle) {
        guard handle.registry === self else { return }
        state.withLock { _ = $0.index.remove(id: handle.id) }
    }

    /// Removes every filter whose path pattern is `path`, whatever its method and host;
    /// leading and trailing slashes don't matter.
    ///
    /// - Returns: how many filters were removed.
    @discardableResult
    public func removeFilters(forPath path: PathPattern) -> Int {
        state.withLock { state in
            let ids = state.index.ordered.filter { $0.filter?.path.map { $0.isSame(as: path) } ?? false }.map(\.id)
            for id in ids { state.index.remove(id: id) }
            return ids.count
        }
    }

    /// Removes every filter, mock-data folder and cassette. The journal is kept; see ``clearJournal()``.
    public func removeAll() {
        state.withLock { $0.index = FilterIndex() }
    }

    /// The filters, in the order they are tried (folders and cassettes not included).
    public var filters: [RequestFilter] {
        state.withLock { $0.index.ordered.compactMap(\.filter) }
    }
}
