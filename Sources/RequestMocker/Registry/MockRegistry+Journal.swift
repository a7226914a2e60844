/// The entries of `entries` that `filter` matches (all of them without a filter), and only
/// those whose answer ended when `completedOnly`. Runs user predicates, so never under the
/// registry's lock.
private func matchingEntries(
    in entries: [JournalEntry], _ filter: RequestFilter?, completedOnly: Bool = false
) -> [JournalEntry] {
    entries.filter { entry in
        (!completedOnly || entry.completion != nil) && (filter.map { $0.match(entry.request) != nil } ?? true)
    }
}

extension MockRegistry {
    /// Adds `entry` to the journal and wakes the waiters it satisfies.
    func appendToJournal(_ entry: JournalEntry) {
        // The entry dropped to make room is let go after the lock, not while others wait for it.
        let (entries, waiters, dropped) = state.withLock {
            state -> ([JournalEntry], [RequestJournal.Waiter], JournalEntry?) in
            let dropped = state.journal.append(entry)
            return state.journal.waiters.isEmpty
                ? ([], [], dropped) : (state.journal.entries, state.journal.waiters, dropped)
        }
        withExtendedLifetime(dropped) {}
        wake(waiters, entries)
    }

    /// Records how the answer to `entry` ended (the first call wins), wakes the waiters that
    /// satisfies, and runs the callback of the filter that answered. Transports call it when
    /// they finish with a request.
    package func complete(_ entry: JournalEntry, _ completion: JournalEntry.Completion) {
        guard entry.complete(completion) else { return }
        // The filter's callback first: a test that waited for the completion may look at what
        // the callback did.
        entry.filter?.completionCallback?(entry)
        let (entries, waiters) = state.withLock { state -> ([JournalEntry], [RequestJournal.Waiter]) in
            let waiting = state.journal.waiters.filter(\.completedOnly)
            return waiting.isEmpty ? ([], []) : (state.journal.entries, waiting)
        }
        wake(waiters, entries)
    }

    private func wake(_ waiters: [RequestJournal.Waiter], _ entries: [JournalEntry]) {
        for waiter in waiters {
            let matched = matchingEntries(in: entries, waiter.filter, completedOnly: waiter.completedOnly)
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
        matchingEntries(in: journal, filter).map(\.request)
    }

    /// The requests no filter matched, oldest first.
    public var unmatchedRequests: [MockRequest] {
        journal.filter(\.isUnmatched).map(\.request)
    }

    /// The requests a registered contract was sent that break it, oldest first: each entry's
    /// ``JournalEntry/contractAnswer`` lists the violations. RequestMockerTesting reports them
    /// when a test ends, which is how an app's tests learn that its client no longer matches
    /// the API.
    ///
    /// ```swift
    /// #expect(registry.contractViolations.isEmpty)
    /// for entry in registry.contractViolations {
    ///     print(entry.request, entry.contractAnswer?.violations ?? [])
    /// }
    /// ```
    public var contractViolations: [JournalEntry] {
        journal.filter { !($0.contractAnswer?.violations.isEmpty ?? true) }
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
        try await wait(count: count, matching: filter, completedOnly: false, timeout: timeout).map(\.request)
    }

    /// Waits until `count` requests (matching `filter`, when given) have had their answer
    /// end: delivered, failed or cancelled (``JournalEntry/completion``). For code under test
    /// that fires a request and doesn't wait for its answer, where arrival is too early to say
    /// how it went.
    ///
    /// ```swift
    /// analytics.flush()   // fire and forget: nothing in the app waits for the answer
    /// let done = try await registry.waitForCompletedRequests(matching: .post("/events"))
    /// #expect(done.first?.completion == .delivered)
    /// ```
    ///
    /// "Delivered" means handed to URL loading (through `MockServer`: written); the task's
    /// completion handler, or the `await` of `data(for:)`, resumes after that on the session's
    /// own queue. A test that looks at what that handler did (a view model's state) waits for
    /// that itself.
    ///
    /// - Returns: the matching journal entries whose answer ended, oldest first.
    /// - Throws: ``RequestMockerError/completionWaitTimedOut(expected:ended:arrived:filter:)``
    ///   when `timeout` passes first, or `CancellationError` when the waiting task is cancelled.
    public func waitForCompletedRequests(
        count: Int = 1, matching filter: RequestFilter? = nil, timeout: Duration = .seconds(5)
    ) async throws -> [JournalEntry] {
        try await wait(count: count, matching: filter, completedOnly: true, timeout: timeout)
    }

    private func wait(
        count: Int, matching filter: RequestFilter?, completedOnly: Bool, timeout: Duration
    ) async throws -> [JournalEntry] {
        let id = state.withLock { state -> Int in
            state.journal.nextWaiterID += 1
            return state.journal.nextWaiterID
        }
        let ends: @Sendable ((any Error)?) -> Void = { [weak self] error in
            self?.endWait(id, throwing: error, filter: filter, count: count, completedOnly: completedOnly)
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                while true {
                    // Match outside the lock; register only if nothing changed meanwhile.
                    let (entries, seen) = state.withLock { ($0.journal.entries, $0.journal.appended) }
                    let matched = matchingEntries(in: entries, filter, completedOnly: completedOnly)
                    if matched.count >= count { return continuation.resume(returning: matched) }
                    let registered = state.withLock { state -> Bool? in
                        // Checked under the lock that `onCancel` takes too: no cancellation is missed.
                        if Task.isCancelled { return nil }
                        guard state.journal.appended == seen else { return false }
                        state.journal.waiters.append(
                            .init(
                                id: id, count: count, filter: filter, completedOnly: completedOnly,
                                continuation: continuation))
                        return true
                    }
                    guard let registered else { return continuation.resume(throwing: CancellationError()) }
                    if registered { break }
                }
                // An answer that ended between the match and the registration woke nobody: look
                // again, now that the waiter is registered.
                if completedOnly {
                    let entries = state.withLock { $0.journal.entries }
                    wake(state.withLock { $0.journal.waiters.filter { $0.id == id } }, entries)
                }
                let timer = Task {
                    guard (try? await Task.sleep(for: timeout)) != nil else { return }
                    ends(nil)
                }
                let stillWaiting = state.withLock { state -> Bool in
                    guard let index = state.journal.waiters.firstIndex(where: { $0.id == id }) else { return false }
                    state.journal.waiters[index].timer = timer
                    return true
                }
                if !stillWaiting { timer.cancel() }
            }
        } onCancel: {
            ends(CancellationError())
        }
    }

    private func endWait(
        _ id: Int, throwing error: (any Error)?, filter: RequestFilter?, count: Int, completedOnly: Bool
    ) {
        guard let waiter = state.withLock({ $0.journal.removeWaiter(id) }) else { return }
        waiter.timer?.cancel()
        let entries = journal
        let arrived = matchingEntries(in: entries, filter).count
        waiter.continuation.resume(
            throwing: error
                ?? (completedOnly
                    ? RequestMockerError.completionWaitTimedOut(
                        expected: count, ended: matchingEntries(in: entries, filter, completedOnly: true).count,
                        arrived: arrived, filter: filter?.description)
                    : RequestMockerError.waitTimedOut(expected: count, received: arrived, filter: filter?.description)))
    }
}
