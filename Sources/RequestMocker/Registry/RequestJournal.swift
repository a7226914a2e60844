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

    /// The entries kept, oldest first.
    var entries: [JournalEntry] {
        Array(ring[start...]) + ring[..<start]
    }

    /// The kept entries in a ring: once it holds `capacity`, each new entry takes the oldest
    /// one's place, so an append never moves the others.
    private var ring: [JournalEntry] = []
    /// Where the oldest entry is, once the ring is full.
    private var start = 0
    /// How many entries were ever appended (clearing doesn't lower it), so a waiter can tell
    /// whether it missed one between checking and registering.
    private(set) var appended = 0
    /// How many entries were dropped to stay within `capacity`.
    private(set) var dropped = 0
    var waiters: [Waiter] = []
    var nextWaiterID = 0

    /// The most entries kept; `nil` keeps them all.
    var capacity: Int? = RequestJournal.defaultCapacity {
        didSet { keepNewest(capacity) }
    }

    /// What a registry keeps unless told otherwise.
    static let defaultCapacity = 10_000

    var count: Int { ring.count }

    mutating func append(_ entry: JournalEntry) {
        appended += 1
        guard let capacity, ring.count >= capacity else {
            ring.append(entry)
            return
        }
        dropped += 1
        guard capacity > 0 else { return }
        ring[start] = entry
        start = (start + 1) % capacity
    }

    mutating func removeAll() {
        ring.removeAll()
        start = 0
    }

    /// Drops the oldest entries beyond `limit`, and lays the rest out oldest first.
    private mutating func keepNewest(_ limit: Int?) {
        var ordered = entries
        if let limit, ordered.count > limit {
            dropped += ordered.count - max(limit, 0)
            ordered.removeFirst(ordered.count - max(limit, 0))
        }
        ring = ordered
        start = 0
    }

    mutating func removeWaiter(_ id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
