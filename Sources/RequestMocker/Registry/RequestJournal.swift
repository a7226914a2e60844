/// The journal's entries and the tasks waiting for more.
///
/// Waiters hold filters whose predicates are user code, so nothing here matches requests: the
/// registry copies entries and waiters out of its lock, matches, and comes back to remove the
/// waiters it satisfied.
struct RequestJournal: Sendable {
    struct Waiter: Sendable {
        let id: Int
        let count: Int
        let filter: RequestFilter?
        let continuation: CheckedContinuation<[MockRequest], any Error>
        var timer: Task<Void, Never>?
    }

    var entries: [JournalEntry] = []
    /// How many entries were ever appended (clearing doesn't lower it), so a waiter can tell
    /// whether it missed one between checking and registering.
    var appended = 0
    var waiters: [Waiter] = []
    var nextWaiterID = 0

    /// The most entries kept; `nil` keeps all.
    var capacity: Int?

    mutating func append(_ entry: JournalEntry) {
        entries.append(entry)
        appended += 1
        if let capacity, entries.count > capacity {
            entries.removeFirst(entries.count - max(capacity, 0))
        }
    }

    /// Removes and returns the waiter `id`, if it is still waiting.
    mutating func removeWaiter(_ id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
