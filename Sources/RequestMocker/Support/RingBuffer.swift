/// The newest `capacity` elements of a stream, in order: once full, each new element takes the
/// oldest one's place, so an append never moves the others and memory stays flat. Used for the
/// registry's journal and `ScriptedServer`'s transcript.
package struct RingBuffer<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    /// Where the oldest element is, once the buffer is full.
    private var start = 0
    /// How many elements were dropped to stay within `capacity`.
    package private(set) var dropped = 0

    /// The most elements kept; `nil` keeps them all.
    package var capacity: Int? {
        didSet { keepNewest() }
    }

    package init(capacity: Int?) {
        self.capacity = capacity
    }

    package var count: Int { storage.count }

    /// The elements kept, oldest first.
    package var elements: [Element] {
        Array(storage[start...]) + storage[..<start]
    }

    /// Appends `element`; returns the oldest one when it made room by dropping it, so that the
    /// caller can let it go outside its lock (freeing a journal entry is a request's worth of
    /// memory).
    @discardableResult
    package mutating func append(_ element: Element) -> Element? {
        guard let capacity, storage.count >= capacity else {
            storage.append(element)
            return nil
        }
        dropped += 1
        guard capacity > 0 else { return element }
        let oldest = storage[start]
        storage[start] = element
        start = (start + 1) % capacity
        return oldest
    }

    package mutating func removeAll() {
        storage.removeAll()
        start = 0
    }

    /// Drops the oldest elements beyond `capacity`, and lays the rest out oldest first.
    private mutating func keepNewest() {
        var ordered = elements
        if let capacity, ordered.count > capacity {
            let excess = ordered.count - max(capacity, 0)
            dropped += excess
            ordered.removeFirst(excess)
        }
        storage = ordered
        start = 0
    }
}
