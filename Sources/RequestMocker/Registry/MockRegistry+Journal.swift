/// The requests of `entries` that `filter` matches (all of them without a filter). Runs user
/// predicates, so never under the registry's lock.
private func matchingRequests(in entries: [JournalEntry], _ filter: RequestFilter?) -> [MockRequest] {
    guard let filter else { return entries.map(\.request) }
    return entries.compactMap { filter.match($0.request) != nil ? $0.request : nil }
}

extension MockRegistry {
    /// Adds `entry` to the journal and wakes the waiters it satisfies.
    func appendToJournal(_ entry: JournalEntry) {
        let (entries, waiters) = state.withLock { state -> ([JournalEntry], [RequestJournal.Waiter]) in
            state.journal.append(entry)
            return state.journal.waiters.isEmpty ? ([], []) : (state.journal.entries, state.journal.waiters)
        }
        for waiter in waiters {
            let matched = matchingRequests(in: entries, waiter.filter)
            guard matched.count >= waiter.count,
                let removed = state.withLock({ $0.journal.removeWaiter(waiter.id) })
            else { continue }
            removed.timer?.cancel()
            removed.continuation.resume(returning: matched)
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
        matchingRequests(in: journal, filter)
    }

    /// The requests no filter matched, oldest first.
    public var unmatchedRequests: [MockRequest] {
        journal.filter(\.isUnmatched).map(\.request)
    }

    /// The most journal entries kept: when more arrive, the oldest are dropped, at constant
    /// cost per request. The default, 10,000, is far more than a test makes and keeps a
    /// long-running registry's memory flat (the `request-mocker` command keeps 1,000); `nil` keeps
    /// every entry. With a limit, ``waitForRequests(count:matching:timeout:)`` sees only the
    /// entries kept, so it can't wait for more than the limit; ``droppedJournalEntries`` counts
    /// the rest.
    ///
    /// ```swift
    /// registry.journalCapacity = 1_000
    /// ```
    public var journalCapacity: Int? {
        get { state.withLock { $0.journal.capacity } }
        set { state.withLock { $0.journal.capacity = newValue } }
    }

    /// How many journal entries were dropped to stay within ``journalCapacity``.
    ///
    /// ```swift
    /// print("\(registry.journal.count) requests kept, \(registry.droppedJournalEntries) dropped")
    /// ```
    public var droppedJournalEntries: Int {
        state.withLock { $0.journal.dropped }
    }

    /// Forgets every journal entry (filters stay).
    public func clearJournal() {
        state.withLock { $0.journal.removeAll() }
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
    public func waitForRequests(
        count: Int, matching filter: RequestFilter? = nil, timeout: Duration = .seconds(5)
    ) async throws -> [MockRequest] {
        let id = state.withLock { state -> Int in
            state.journal.nextWaiterID += 1
            return state.journal.nextWaiterID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                while true {
                    // Match outside the lock; register only if nothing arrived meanwhile.
                    let (entries, seen) = state.withLock { ($0.journal.entries, $0.journal.appended) }
                    let matched = matchingRequests(in: entries, filter)
                    if matched.count >= count { return continuation.resume(returning: matched) }
                    let registered = state.withLock { state -> Bool? in
                        // Checked under the lock that `onCancel` takes too: no cancellation is missed.
                        if Task.isCancelled { return nil }
                        guard state.journal.appended == seen else { return false }
                        state.journal.waiters.append(
                            .init(id: id, count: count, filter: filter, continuation: continuation))
                        return true
                    }
                    guard let registered else { return continuation.resume(throwing: CancellationError()) }
                    if registered { break }
                }
                let timer = Task { [weak self] in
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    self?.endWait(id, throwing: nil, filter: filter, count: count)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard let index = state.journal.waiters.firstIndex(where: { $0.id == id }) else { return false }
                    state.journal.waiters[index].timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            endWait(id, throwing: CancellationError(), filter: filter, count: count)
        }
    }

    private func endWait(_ id: Int, throwing error: (any Error)?, filter: RequestFilter?, count: Int) {
        guard let waiter = state.withLock({ $0.journal.removeWaiter(id) }) else { return }
        waiter.timer?.cancel()
        waiter.continuation.resume(
            throwing: error
                ?? RequestMockerError.waitTimedOut(
                    expected: count,
                    received: matchingRequests(in: journal, filter).count,
                    filter: filter?.description
                ))
    }
}
