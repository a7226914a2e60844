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
        /// Whether only entries whose answer ended count.
        let completedOnly: Bool
        let continuation: CheckedContinuation<[JournalEntry], any Error>
        var timer: Task<Void, Never>?
    }

    /// The entries kept, oldest first.
    var entries: [JournalEntry] { ring.elements }

    private var ring = RingBuffer<JournalEntry>(capacity: RequestJournal.defaultCapacity)
    /// How many entries were ever appended (clearing doesn't lower it), so a waiter can tell
    /// whether it missed one between checking and registering.
    private(set) var appended = 0
    var waiters: [Waiter] = []
    var nextWaiterID = 0

    /// The most entries kept; `nil` keeps them all.
    var capacity: Int? {
        get { ring.capacity }
        set { ring.capacity = newValue }
    }

    /// How many entries were dropped to stay within `capacity`.
    var dropped: Int { ring.dropped }

    /// What a registry keeps unless told otherwise.
    static let defaultCapacity = 10_000

    var count: Int { ring.count }

    /// Appends `entry`; returns the oldest entry when it was dropped to make room.
    mutating func append(_ entry: JournalEntry) -> JournalEntry? {
        appended += 1
        return ring.append(entry)
    }

    mutating func removeAll() {
        ring.removeAll()
    }

    mutating func removeWaiter(_ id: Int) -> Waiter? {
        guard let index = waiters.firstIndex(where: { $0.id == id }) else { return nil }
        return waiters.remove(at: index)
    }
}
