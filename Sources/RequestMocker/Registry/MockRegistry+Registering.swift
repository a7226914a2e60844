extension MockRegistry {
    /// Where a registration goes in the order a registry tries its sources.
    public enum Placement: Sendable, Hashable {
        /// After everything registered so far: register specific filters before general ones.
        case last
        /// Before everything registered so far: an override, tried first.
        case first

        package var position: FilterIndex.Position {
            switch self {
            case .last: .back
            case .first: .front
            }
        }
    }

    /// Adds a filter, answering with `response` (or with the filter's own response when
    /// `response` is `nil`).
    ///
    /// ```swift
    /// registry.register(.get("/users/<id>"), respond: .json(["id": 1]))
    /// registry.register(.any("**"), respond: .status(503), at: .first)   // tried before the rest
    /// ```
    ///
    /// - Parameters:
    ///   - filter: which requests to answer.
    ///   - response: what to answer with; `nil` keeps ``RequestFilter/response``.
    ///   - scenario: a state the filter requires and moves to (see ``Scenario``); `nil` for none.
    ///   - placement: ``Placement/last`` (the default) or ``Placement/first``.
    /// - Returns: a handle that removes this one filter and tells how often it answered.
    @discardableResult
    public func register(
        _ filter: RequestFilter, respond response: MockResponse? = nil, scenario: Scenario? = nil,
        at placement: Placement = .last
    ) -> FilterHandle {
        var filter = response.map(filter.respond(with:)) ?? filter
        if let scenario { filter.scenario = scenario }
        return insert(filter, at: placement.position)
    }

    /// Adds a filter whose response a block computes from the request and its path variables;
    /// it is delivered as soon as the block returns.
    ///
    /// ```swift
    /// registry.register(.get("/users/<id>")) { request, captures in
    ///     .json(["id": .string(captures["id"] ?? "")])
    /// }
    /// ```
    @discardableResult
    public func register(
        _ filter: RequestFilter,
        at placement: Placement = .last,
        respond block: @escaping @Sendable (MockRequest, Captures) throws -> MockResponse
    ) -> FilterHandle {
        insert(filter.respond(with: .block(block)), at: placement.position)
    }

    /// Adds a filter whose response an `async` block computes; the request waits for it.
    ///
    /// ```swift
    /// registry.register(.get("/profile")) { _, _ in
    ///     try await Task.sleep(for: .milliseconds(20))
    ///     return .json(["name": "Ada"])
    /// }
    /// ```
    @discardableResult
    public func register(
        _ filter: RequestFilter,
        at placement: Placement = .last,
        respond block: @escaping @Sendable (MockRequest, Captures) async throws -> MockResponse
    ) -> FilterHandle {
        insert(filter.respond(with: .block(block)), at: placement.position)
    }

    /// Adds a folder of response files: requests that no source before it answers look for
    /// their files there.
    ///
    /// ```swift
    /// try registry.register(MockDataFolder(URL(fileURLWithPath: "Tests/MockData")))
    /// try registry.register(MockDataFolder(overrides), at: .first)   // searched first
    /// ```
    ///
    /// - Returns: a handle that removes the folder again.
    @discardableResult
    public func register(_ folder: MockDataFolder, at placement: Placement = .last) -> FilterHandle {
        insert(folder, at: placement.position)
    }

    /// Adds a cassette: requests that no source before it answers are played back from it, or
    /// recorded into it (see ``Cassette``).
    ///
    /// ```swift
    /// registry.register(try Cassette(contentsOf: url, record: .once))
    /// ```
    ///
    /// - Returns: a handle that removes the cassette again (recordings stay in the cassette
    ///   until it is saved).
    @discardableResult
    public func register(_ cassette: Cassette, at placement: Placement = .last) -> FilterHandle {
        insert(cassette, at: placement.position)
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

    /// Replaces the filters behind `old` with `filters` in one step, so no request sees neither:
    /// the new filters go in front of everything, keeping their order, and then the ones behind
    /// `keptInFront` move in front of them again. A stubs file reloads this way, behind the
    /// stubs the admin API added.
    ///
    /// - Returns: the new filters' handles, in order.
    package func replace(
        _ old: [FilterHandle], with filters: [RequestFilter], keepingInFront kept: [FilterHandle]
    ) -> [FilterHandle] {
        let ids = state.withLock { state -> [Int] in
            for handle in old where handle.registry === self { state.index.remove(id: handle.id) }
            var ids: [Int] = []
            for filter in filters.reversed() {
                state.nextID += 1
                state.index.insert(withScenarioStates(filter), id: state.nextID, at: .front)
                ids.append(state.nextID)
            }
            state.index.moveToFront(ids: Set(kept.filter { $0.registry === self }.map(\.id)))
            return ids.reversed()
        }
        return ids.map { FilterHandle(id: $0, registry: self) }
    }

    /// Puts these filters in front of all others, in the order given, in one step: each under
    /// its handle, put back where it was removed (a stub turned off, then on again), so the
    /// handle, and what the journal says it answered, stay the filter's.
    package func restoreInFront(_ filters: [(handle: FilterHandle, filter: RequestFilter)]) {
        let mine = filters.filter { $0.handle.registry === self }
        state.withLock { state in
            for (handle, filter) in mine where state.index.entries[handle.id] == nil {
                state.index.insert(withScenarioStates(filter), id: handle.id, at: .front)
            }
            state.index.moveToFront(orderedIDs: mine.map(\.handle.id))
        }
    }

    package func insert(_ source: any AnswerSource, at position: FilterIndex.Position) -> FilterHandle {
        let source = withScenarioStates(source)
        let id = state.withLock { state in
            state.nextID += 1
            state.index.insert(source, id: state.nextID, at: position)
            return state.nextID
        }
        return FilterHandle(id: id, registry: self)
    }

    // MARK: Removing

    /// Removes the filter, folder or cassette behind `handle`; removing it twice does nothing.
    public func remove(_ handle: FilterHandle) {
        guard handle.registry === self else { return }
        state.withLock { _ = $0.index.remove(id: handle.id) }
    }

    /// Removes every filter whose path pattern is `path`; leading and trailing slashes don't
    /// matter.
    ///
    /// ```swift
    /// registry.removeFilters(forPath: "/users/<id>")
    /// ```
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

    /// Whether a registered filter names `scheme` (lower case), one other than http and https:
    /// `MockURLProtocol` then claims requests with it.
    func namesScheme(_ scheme: String) -> Bool {
        state.withLock { $0.index.customSchemes[scheme] != nil }
    }
}

extension MockRegistry {
    /// `source`, reading and moving this registry's scenario states when it is a filter with a
    /// scenario: every way a filter enters the index goes through here.
    func withScenarioStates(_ source: any AnswerSource) -> any AnswerSource {
        guard var filter = source as? RequestFilter, filter.scenario != nil else { return source }
        filter.scenarioStates = scenarios
        return filter
    }
}
