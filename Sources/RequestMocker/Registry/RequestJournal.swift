/// One request a registry saw, and what became of it.
public struct JournalEntry: Sendable, CustomStringConvertible {
    /// What became of a request.
    public enum Disposition: Sendable {
        /// A filter answered (see ``JournalEntry/filter``).
        case answered
        /// No filter matched, and it was sent to the network.
        case passedThrough
        /// No filter matched, and the request failed with this report.
        case unmatched(UnmatchedRequestReport)
        /// No filter matched, and the unmatched policy's fixed response answered.
        case answeredByPolicy
        /// The request failed before any response: the reason.
        case failed(String)
    }

    /// The request as captured.
    public let request: MockRequest
    /// What became of it.
    public let disposition: Disposition
    /// When it arrived.
    public let date = Date()
    let entry: FilterIndex.Entry?

    init(request: MockRequest, entry: FilterIndex.Entry?, disposition: Disposition) {
        self.request = request
        self.entry = entry
        self.disposition = disposition
    }

    /// The filter that matched it, if any.
    public var filter: RequestFilter? { entry?.filter }

    var filterID: Int? { entry?.id }

    /// Whether no filter matched the request.
    public var isUnmatched: Bool {
        switch disposition {
        case .passedThrough, .unmatched, .answeredByPolicy: true
        case .answered, .failed: false
        }
    }

    public var description: String {
        switch disposition {
        case .answered: "\(request) -> \(filter.map(\.description) ?? "?")"
        case .passedThrough: "\(request) -> passed through to the network"
        case .unmatched: "\(request) -> unmatched"
        case .answeredByPolicy: "\(request) -> unmatched-request policy"
        case .failed(let reason): "\(request) -> failed: \(reason)"
        }
    }
}

/// The journal's entries and the tasks waiting for more.
struct RequestJournal: Sendable {
    struct Waiter: Sendable {
        let id: Int
        let count: Int
        let filter: RequestFilter?
        let continuation: CheckedContinuation<[MockRequest], any Error>
    }

    var entries: [JournalEntry] = []
    var waiters: [Waiter] = []
    var nextWaiterID = 0

    func requests(matching filter: RequestFilter?) -> [MockRequest] {
        guard let filter else { return entries.map(\.request) }
        return entries.compactMap { filter.match($0.request) != nil ? $0.request : nil }
    }

    /// Appends an entry and hands back the waiters it satisfied, with their requests; the caller
    /// resumes them after unlocking.
    mutating func append(_ entry: JournalEntry) -> [(Waiter, [MockRequest])] {
        entries.append(entry)
        var satisfied: [(Waiter, [MockRequest])] = []
        var remaining: [Waiter] = []
        for waiter in waiters {
            let requests = requests(matching: waiter.filter)
            if requests.count >= waiter.count {
                satisfied.append((waiter, requests))
            } else {
                remaining.append(waiter)
            }
        }
        waiters = remaining
        return satisfied
    }
}

extension MockRegistry {
    func record(_ entry: JournalEntry) {
        let satisfied = state.withLock { $0.journal.append(entry) }
        for (waiter, requests) in satisfied {
            waiter.continuation.resume(returning: requests)
        }
    }

    /// Every request this registry saw, oldest first, matched or not.
    public var journal: [JournalEntry] {
        state.withLock { $0.journal.entries }
    }

    /// The requests a filter would match, oldest first (the filter's response is ignored).
    ///
    /// ```swift
    /// #expect(registry.requests(matching: .post("/events")).count == 3)
    /// ```
    public func requests(matching filter: RequestFilter) -> [MockRequest] {
        state.withLock { $0.journal.requests(matching: filter) }
    }

    /// The requests no filter matched, oldest first.
    public var unmatchedRequests: [MockRequest] {
        state.withLock { $0.journal.entries.filter(\.isUnmatched).map(\.request) }
    }

    /// Forgets every journal entry (filters stay).
    public func clearJournal() {
        state.withLock { $0.journal.entries.removeAll() }
    }

    /// Waits until the journal holds `count` requests (matching `filter`, when given), for code
    /// that fires requests and doesn't wait for them.
    ///
    /// ```swift
    /// analytics.trackLaunch()   // sends a request in the background
    /// let sent = try await registry.waitForRequests(count: 1, matching: .post("/events"), timeout: .seconds(2))
    /// ```
    ///
    /// - Returns: the matching requests, oldest first.
    /// - Throws: ``RequestMockerError/waitTimedOut(expected:received:filter:)`` when `timeout`
    ///   passes first, or `CancellationError` when the waiting task is cancelled.
    public func waitForRequests(count: Int, matching filter: RequestFilter? = nil, timeout: Duration = .seconds(5)) async throws -> [MockRequest] {
        let id = state.withLock { state -> Int in
            state.journal.nextWaiterID += 1
            return state.journal.nextWaiterID
        }
        let timer = Task { [weak self] in
            try await Task.sleep(for: timeout)
            self?.endWait(id, throwing: nil, filter: filter, count: count)
        }
        defer { timer.cancel() }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let ready = state.withLock { state -> [MockRequest]? in
                    let requests = state.journal.requests(matching: filter)
                    if requests.count >= count { return requests }
                    state.journal.waiters.append(.init(id: id, count: count, filter: filter, continuation: continuation))
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            endWait(id, throwing: CancellationError(), filter: filter, count: count)
        }
    }

    private func endWait(_ id: Int, throwing error: (any Error)?, filter: RequestFilter?, count: Int) {
        let ended = state.withLock { state -> (RequestJournal.Waiter, Int)? in
            guard let index = state.journal.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            let waiter = state.journal.waiters.remove(at: index)
            return (waiter, state.journal.requests(matching: filter).count)
        }
        guard let (waiter, received) = ended else { return }
        waiter.continuation.resume(throwing: error ?? RequestMockerError.waitTimedOut(
            expected: count,
            received: received,
            filter: filter?.description
        ))
    }
}
