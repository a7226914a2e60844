extension MockRegistry {
    /// The filters marked ``RequestFilter/expected(fileID:filePath:line:column:)`` that no
    /// request has matched yet, in the order they are tried. Filters that were removed are not
    /// listed.
    ///
    /// ```swift
    /// registry.register(.post("/events").expected(), respond: .status(204))
    /// #expect(registry.unmetExpectations.isEmpty)   // fails until a POST /events arrives
    /// ```
    ///
    /// Matches are counted from the journal, so with a ``journalCapacity`` a filter whose
    /// requests were all dropped from the journal is listed again.
    public var unmetExpectations: [RequestFilter] {
        let (entries, journal) = state.withLock { ($0.index.ordered, $0.journal.entries) }
        let matched = Set(journal.compactMap(\.filterID))
        return entries.compactMap { entry in
            guard let filter = entry.filter, filter.expectedAt != nil, !matched.contains(entry.id) else { return nil }
            return filter
        }
    }

    /// The registry a test framework integration gave the running task: RequestMockerTesting
    /// sets it for each test, and reads it as `MockRegistry.current`.
    @TaskLocal package static var taskRegistry: MockRegistry?

    /// Requests that reached ``shared`` (through `URLSession.shared` with ``MockURLProtocol``
    /// registered globally, or a session made with `MockURLProtocol.self`) from a task that had
    /// a registry of its own: code under test that didn't use the session it was given.
    package var strayRequests: [MockRequest] {
        state.withLock { $0.strays }
    }

    /// Notes a request `MockURLProtocol` (serving ``shared``) is about to take, when the asking
    /// task has a registry of its own. Runs in `canInit`, the only place on Linux where the
    /// caller's task-locals are visible. Apple's URL loading may call `canInit` on threads of its
    /// own, where they aren't: there the note may not be taken (unmeasured; the PlatformNotes
    /// article, "Apple platforms").
    static func noteIfStray(_ request: URLRequest) {
        guard let own = taskRegistry, own !== shared, let url = request.url else { return }
        // Only the method and URL: reading a body stream here would consume it.
        let stray = MockRequest(method: HTTPMethod(rawValue: request.httpMethod ?? "GET"), url: url)
        own.state.withLock { $0.strays.append(stray) }
    }
}
