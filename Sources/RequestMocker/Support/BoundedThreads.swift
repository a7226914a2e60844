import Foundation

/// Threads for blocking work, at most `limit` at once: more work waits its turn, in order, for
/// the next thread that finishes. The URL protocol makes its slow answers on the shared one, so
/// they are bounded, and a burst of them reuses threads rather than making one each. Work that
/// blocks until other work runs deadlocks only past `limit` at once (on URL loading's queue, as
/// before issue 44, past one).
///
/// ```swift
/// BoundedThreads.shared.start { answer = block(request) }
/// ```
package final class BoundedThreads: Sendable {
    /// The URL protocol's.
    package static let shared = BoundedThreads(limit: 64)

    package let limit: Int
    private let state = LockedState(State())

    /// The threads running, and the work waiting for one.
    private struct State {
        var running = 0
        /// In order; `next` is the first not taken (the taken ones are `nil`, dropped in batches).
        var waiting: [(@Sendable () -> Void)?] = []
        var next = 0

        /// The next work waiting, taken; `nil` when none waits, and the thread that asks ends.
        mutating func take() -> (@Sendable () -> Void)? {
            guard next < waiting.count else {
                running -= 1
                waiting = []
                next = 0
                return nil
            }
            let work = waiting[next]
            waiting[next] = nil
            next += 1
            if next >= 1_024 {
                waiting.removeFirst(next)
                next = 0
            }
            return work
        }
    }

    package init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Runs `work` on a thread of its own: a new one when fewer than `limit` run, else the first
    /// that finishes the work waiting before it.
    package func start(_ work: @escaping @Sendable () -> Void) {
        let limit = limit
        let startsThread = state.withLock { state in
            guard state.running < limit else {
                state.waiting.append(work)
                return false
            }
            state.running += 1
            return true
        }
        guard startsThread else { return }
        let state = state
        let thread = Thread {
            var job: (@Sendable () -> Void)? = work
            while let current = job {
                current()
                job = state.withLock { $0.take() }
            }
        }
        thread.name = "RequestMocker block"
        thread.stackSize = OwnThread.stackSize
        thread.start()
    }
}
