/// The registry's filters, in first-match order, filed so that a request only looks at the
/// filters that could match it.
///
/// Order is a number per entry: entries added last count up, entries added first count down. A lookup builds, for
/// each literal-position layout in use at the request's segment count, the key the request
/// would have, and merges those buckets and the general ones by order. Filters that name one
/// host (not `*.`) are filed under it as well, so 10,000 filters for one path on 10,000 hosts
/// cost a request one more hash lookup, not 10,000 checks. So the first match is the one a
/// linear scan would find, at the cost of a few hash lookups and the candidates' checks
/// instead of every filter's.
package struct FilterIndex: Sendable {
    /// Where a filter is filed in the index, from its host and path pattern.
    package enum Key: Hashable, Sendable {
        /// Patterns without `**`: found by segment count and the literal segments' positions and
        /// values. `/users/<id>/posts` is `(3, [0, 2], ["users", "posts"])`; an all-literal pattern
        /// lists every position.
        case shape(Shape)
        /// Everything else (`**`, a lone `*`, no path, invalid patterns): tried for every request
        /// (to the host, when there is one).
        case general(host: String?)

        package struct Shape: Hashable, Sendable {
            /// The one host the filter wants (lower case, no brackets or port), if it names one.
            let host: String?
            let count: Int
            let literalPositions: [Int]
            let literals: [String]
        }
    }

    /// A registered filter. A class, so the buckets, lookups and journal entries that hold it
    /// share one reference instead of copying the filter.
    package final class Entry: Sendable {
        let id: Int
        package let order: Int
        package let source: any AnswerSource
        let key: FilterIndex.Key
        /// The source, when it is a filter: the journal, the report and expectations list
        /// filters (worked out once, here).
        package let filter: RequestFilter?

        init(id: Int, order: Int, source: any AnswerSource) {
            self.id = id
            self.order = order
            self.source = source
            key = source.indexKey
            filter = source as? RequestFilter
        }

        /// The scheme the filter names when it is neither http nor https, lower case.
        var customScheme: String? {
            guard let scheme = filter?.scheme?.lowercased(), scheme != "http", scheme != "https" else { return nil }
            return scheme
        }
    }

    private(set) var entries: [Int: Entry] = [:] {
        didSet { few = entries.count <= Self.scannedCount ? ordered : nil }
    }
    /// Every entry in first-match order while there are at most ``scannedCount``: a lookup then
    /// walks them all instead of building and hashing the request's keys.
    private var few: [Entry]? = []
    /// Up to this many entries, trying each costs no more than finding the request's buckets (a
    /// filter that can't match stops at its first check). Measured with `request-mocker-bench
    /// --profile pair`, three filters that miss ahead of the one that matches: the walk and the
    /// index both 1.13× the floor; with one filter, the walk saves the key's hashing.
    static let scannedCount = 4
    private var buckets: [FilterIndex.Key.Shape: [Entry]] = [:]
    /// For each segment count, the literal-position layouts in use and how many filters use
    /// each: of filters for any host, and of filters for one host.
    private var layouts: [Int: [[Int]: Int]] = [:]
    private var hostLayouts: [Int: [[Int]: Int]] = [:]
    private var general: [Entry] = []
    private var generalByHost: [String: [Entry]] = [:]
    private var lastOrder = 0
    /// The schemes other than http and https that registered filters name (lower case), each
    /// with how many filters name it: what `MockURLProtocol` claims besides http and https.
    private(set) var customSchemes: [String: Int] = [:]
    private var firstOrder = 0
    /// Fallback orders start far above anything `back` reaches.
    private static let fallbackBase = Int.max / 2
    private var fallbackOrder = fallbackBase

    /// Where a new entry goes in first-match order.
    package enum Position {
        /// Before every entry.
        case front
        /// After every entry except the fallbacks.
        case back
        /// After every entry, fallbacks included, however many are added later: a source that
        /// answers what nothing else does (a test's cassette). Only for folders and cassettes,
        /// which are filed as general.
        case fallback
    }

    mutating func insert(_ source: any AnswerSource, id: Int, at position: Position) {
        let order: Int
        switch position {
        case .front:
            firstOrder -= 1
            order = firstOrder
        case .back:
            lastOrder += 1
            order = lastOrder
        case .fallback:
            fallbackOrder += 1
            order = fallbackOrder
        }
        let entry = Entry(id: id, order: order, source: source)
        entries[id] = entry
        if let scheme = entry.customScheme { customSchemes[scheme, default: 0] += 1 }
        switch entry.key {
        case .shape(let shape):
            if shape.host == nil {
                layouts[shape.count, default: [:]][shape.literalPositions, default: 0] += 1
            } else {
                hostLayouts[shape.count, default: [:]][shape.literalPositions, default: 0] += 1
            }
            if position == .front {
                buckets[shape, default: []].insert(entry, at: 0)
            } else {
                buckets[shape, default: []].append(entry)
            }
        case .general(nil):
            Self.insert(entry, into: &general, at: position)
        case .general(let host?):
            Self.insert(entry, into: &generalByHost[host, default: []], at: position)
        }
    }

    /// Files `entry` in a general list, which stays sorted by order (the merge in
    /// `firstResult` relies on it).
    private static func insert(_ entry: Entry, into list: inout [Entry], at position: Position) {
        switch position {
        case .front: list.insert(entry, at: 0)
        // Searched from the end, so an append costs nothing when there are no fallbacks.
        case .back: list.insert(entry, at: (list.lastIndex { $0.order <= fallbackBase } ?? -1) + 1)
        case .fallback: list.append(entry)
        }
    }

    /// Moves the entries with ids above `id` in front of all others, keeping their order and
    /// ids (so their handles and journal entries still refer to them).
    mutating func moveToFront(idsAbove id: Int) {
        moveToFront(ordered.filter { $0.id > id })
    }

    /// Moves the entries with these ids in front of all others, as ``moveToFront(idsAbove:)``.
    mutating func moveToFront(ids: Set<Int>) {
        moveToFront(ordered.filter { ids.contains($0.id) })
    }

    /// Moves the entries with these ids in front of all others, in the order given.
    mutating func moveToFront(orderedIDs ids: [Int]) {
        moveToFront(ids.compactMap { entries[$0] })
    }

    private mutating func moveToFront(_ moved: [Entry]) {
        for entry in moved.reversed() {
            remove(id: entry.id)
            insert(entry.source, id: entry.id, at: .front)
        }
    }

    @discardableResult
    mutating func remove(id: Int) -> Entry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        if let scheme = entry.customScheme {
            customSchemes[scheme, default: 1] -= 1
            if customSchemes[scheme] == 0 { customSchemes[scheme] = nil }
        }
        switch entry.key {
        case .shape(let shape):
            buckets[shape]?.removeAll { $0.id == id }
            if buckets[shape]?.isEmpty == true { buckets[shape] = nil }
            if shape.host == nil {
                Self.release(shape, from: &layouts)
            } else {
                Self.release(shape, from: &hostLayouts)
            }
        case .general(nil):
            general.removeAll { $0.id == id }
        case .general(let host?):
            generalByHost[host]?.removeAll { $0.id == id }
            if generalByHost[host]?.isEmpty == true { generalByHost[host] = nil }
        }
        return entry
    }

    /// One filter fewer with this shape's layout; a layout no filter uses is dropped.
    private static func release(_ shape: Key.Shape, from layouts: inout [Int: [[Int]: Int]]) {
        layouts[shape.count]?[shape.literalPositions]? -= 1
        if layouts[shape.count]?[shape.literalPositions] == 0 {
            layouts[shape.count]?[shape.literalPositions] = nil
        }
        if layouts[shape.count]?.isEmpty == true { layouts[shape.count] = nil }
    }

    /// The first `count` entries in first-match order, without sorting them all: entries kept
    /// in a max-heap of `count` as the table is walked once.
    func leading(_ count: Int) -> [Entry] {
        guard entries.count > count else { return ordered }
        var heap: [Entry] = []
        heap.reserveCapacity(count)
        for entry in entries.values {
            if heap.count < count {
                heap.append(entry)
                siftUp(&heap, from: heap.count - 1)
            } else if let top = heap.first, entry.order < top.order {
                heap[0] = entry
                siftDown(&heap, from: 0)
            }
        }
        return heap.sorted { $0.order < $1.order }
    }

    private func siftUp(_ heap: inout [Entry], from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].order > heap[parent].order else { return }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    private func siftDown(_ heap: inout [Entry], from start: Int) {
        var parent = start
        while true {
            var largest = parent
            for child in [2 * parent + 1, 2 * parent + 2] where child < heap.count {
                if heap[child].order > heap[largest].order { largest = child }
            }
            guard largest != parent else { return }
            heap.swapAt(parent, largest)
            parent = largest
        }
    }

    /// Every filter, in first-match order.
    package var ordered: [Entry] {
        entries.values.sorted { $0.order < $1.order }
    }

    /// Calls `body` with each filter that could match `request` (with every filter, while there
    /// are only a few), in first-match order, until `body` returns a result.
    package func firstResult<Result>(for request: MockRequest, _ body: (Entry) -> Result?) -> Result? {
        if let few {
            for entry in few {
                let result = body(entry)
                if result != nil { return result }
            }
            return nil
        }
        let segments = request.pathSegments
        // Nearly every request meets one list (its bucket, or the general list): that case walks
        // it directly, without gathering the lists into an array.
        var only: ArraySlice<Entry>?
        var candidates: [ArraySlice<Entry>] = []
        func add(_ list: ArraySlice<Entry>) {
            if let first = only, candidates.isEmpty {
                candidates = [first, list]
            } else if only == nil {
                only = list
            } else {
                candidates.append(list)
            }
        }
        func addBuckets(host: String?, layouts: [[Int]: Int]) {
            for positions in layouts.keys {
                // An all-literal layout's literals are the request's segments: no new array.
                let literals = positions.count == segments.count ? segments : positions.map { segments[$0] }
                let shape = Key.Shape(
                    host: host, count: segments.count, literalPositions: positions, literals: literals)
                if let bucket = buckets[shape] { add(bucket[...]) }
            }
        }
        if let layouts = layouts[segments.count] { addBuckets(host: nil, layouts: layouts) }
        // The request's host is worked out only when some filter names one.
        if !hostLayouts.isEmpty || !generalByHost.isEmpty, let host = HostPattern.indexName(of: request) {
            if let layouts = hostLayouts[segments.count] { addBuckets(host: host, layouts: layouts) }
            if let list = generalByHost[host] { add(list[...]) }
        }
        if !general.isEmpty { add(general[...]) }
        if candidates.isEmpty {
            for entry in only ?? [] {
                let result = body(entry)
                if result != nil { return result }
            }
            return nil
        }
        while true {
            var nextBucket = -1
            var nextOrder = Int.max
            for index in candidates.indices {
                if let head = candidates[index].first, head.order < nextOrder {
                    nextBucket = index
                    nextOrder = head.order
                }
            }
            guard nextBucket >= 0, let entry = candidates[nextBucket].popFirst() else { return nil }
            let result = body(entry)
            if result != nil { return result }
        }
    }
}
