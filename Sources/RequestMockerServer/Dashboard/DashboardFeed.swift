import Foundation
import RequestMocker

/// What the dashboard shows of a server's traffic: the last ``kept`` exchanges, each with an id,
/// and the pages following them over `GET /__admin/events`.
///
/// A connection's thread records its exchange in constant time: a reference into a ring, and one
/// into each page's queue. A page's own connection turns them into events, so however many
/// pages there are, and however slow, the server answers as fast; a page that falls
/// ``queued`` behind loses the oldest it hasn't taken, and is told how many.
package final class DashboardFeed: Sendable {
    /// How many exchanges a page that opens sees at once.
    package static let kept = 1_000
    /// How many exchanges wait for a page before the oldest is dropped.
    package static let queued = 1_000
    /// The most pages followed at once; one more ends the oldest's stream.
    package static let maximumPages = 16

    private struct State: Sendable {
        var ring: [DashboardExchange] = []
        /// Where the next exchange goes in `ring` once it is full.
        var next = 0
        var lastID = 0
        var pages: [DashboardPageStream] = []
    }

    private let state = LockedState(State())

    package init() {}

    /// Keeps `exchange` (giving it the next id) and queues it for every page.
    func record(_ make: (Int) -> DashboardExchange) {
        state.withLock { state in
            state.lastID += 1
            let exchange = make(state.lastID)
            if state.ring.count < Self.kept {
                state.ring.append(exchange)
            } else {
                state.ring[state.next] = exchange
                state.next = (state.next + 1) % Self.kept
            }
            for page in state.pages { page.enqueue(exchange) }
        }
    }

    /// The kept exchanges, oldest first.
    package var exchanges: [DashboardExchange] {
        state.withLock { Array($0.ring[$0.next...] + $0.ring[..<$0.next]) }
    }

    /// The kept exchange `id`, if it is still kept.
    package func exchange(_ id: Int) -> DashboardExchange? {
        state.withLock { state in
            // Ids are consecutive, oldest at `next` (0 until the ring is full).
            guard state.next < state.ring.count else { return nil }
            // Compared before subtracting: an id from a URL may be as low as Int.min.
            let oldest = state.ring[state.next].id
            guard id >= oldest, id <= state.lastID else { return nil }
            return state.ring[(state.next + (id - oldest)) % state.ring.count]
        }
    }

    /// Forgets the kept exchanges (`POST /__admin/reset`); ids go on from where they were.
    package func clear() {
        state.withLock { state in
            state.ring = []
            state.next = 0
        }
    }

    /// A page's stream: the kept exchanges after `lastID` (all of them when `nil`), then each new
    /// one as it is recorded.
    package func follow(after lastID: Int?) -> DashboardPageStream {
        let page = DashboardPageStream(feed: self)
        let evicted = state.withLock { state -> DashboardPageStream? in
            let kept = Array(state.ring[state.next...] + state.ring[..<state.next])
            for exchange in kept where exchange.id > (lastID ?? 0) { page.enqueue(exchange) }
            state.pages.append(page)
            return state.pages.count > Self.maximumPages ? state.pages.removeFirst() : nil
        }
        evicted?.end()
        return page
    }

    fileprivate func stopFollowing(_ page: DashboardPageStream) {
        state.withLock { state in state.pages.removeAll { $0 === page } }
    }

    /// How many pages follow the feed.
    package var pageCount: Int { state.withLock { $0.pages.count } }
}

/// One page's queue of exchanges to send, taken by the page's connection.
package final class DashboardPageStream: Sendable {
    private struct State: Sendable {
        var queue: [DashboardExchange] = []
        var first = 0
        var dropped = 0
        var cancelled = false
        /// Whether the page's connection waits for the signal: only then is it signalled, so no
        /// signal is left over to wake it for nothing.
        var waiting = false
    }

    private let state = LockedState(State())
    private let signal = DispatchSemaphore(value: 0)
    private let feed: DashboardFeed

    fileprivate init(feed: DashboardFeed) {
        self.feed = feed
    }

    /// Queues `exchange`, dropping the oldest waiting one when ``DashboardFeed/queued`` wait.
    fileprivate func enqueue(_ exchange: DashboardExchange) {
        let wakes = state.withLock { state -> Bool in
            if state.queue.count - state.first >= DashboardFeed.queued {
                state.first += 1
                state.dropped += 1
                // A page that takes nothing keeps at most twice the bound.
                if state.first >= DashboardFeed.queued {
                    state.queue.removeFirst(state.first)
                    state.first = 0
                }
            }
            state.queue.append(exchange)
            defer { state.waiting = false }
            return state.waiting
        }
        if wakes { signal.signal() }
    }

    /// What waits (its newest `limit` when more wait: the others count as dropped), and how many
    /// were dropped since the last take, waiting at most `wait` for one; `nil` once cancelled.
    package func take(
        waitingAtMost wait: Duration, atMost limit: Int = .max
    ) -> (exchanges: [DashboardExchange], dropped: Int)? {
        func taken(waiting: Bool) -> (exchanges: [DashboardExchange], dropped: Int)?? {
            state.withLock { state in
                state.waiting = false
                if state.cancelled { return .some(nil) }
                guard state.first < state.queue.count || state.dropped > 0 else {
                    state.waiting = waiting
                    return nil
                }
                defer {
                    state.queue = []
                    state.first = 0
                    state.dropped = 0
                }
                let waiting = state.queue.count - state.first
                let skipped = max(0, waiting - limit)
                return (Array(state.queue[(state.first + skipped)...]), state.dropped + skipped)
            }
        }
        if let ready = taken(waiting: wait > .zero) { return ready }
        guard wait > .zero else { return ([], 0) }
        signal.wait(atMost: wait)
        return taken(waiting: false) ?? ([], 0)
    }

    /// Stops the stream: the page's connection ends it, and the feed no longer queues for it.
    package func cancel() {
        feed.stopFollowing(self)
        end()
    }

    /// Marks the stream ended, waking its connection.
    fileprivate func end() {
        state.withLock {
            $0.cancelled = true
            $0.waiting = false
        }
        signal.signal()
    }
}
