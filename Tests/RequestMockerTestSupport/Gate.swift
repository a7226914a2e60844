import RequestMocker

/// A one-way gate: ``wait()`` returns once ``open()`` has been called, at once if it already
/// has. Lets a test, not a clock, decide when a mocked block goes on (a block that must ignore a
/// cancel, say). The wait ignores cancellation on purpose, so a test opens its gates in a
/// `defer`, and a gate never left shut keeps a block parked, never a test.
package final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }
    private let state = LockedState(State())

    package init() {}

    /// Returns once the gate is open.
    package func wait() async {
        await withCheckedContinuation { continuation in
            let isOpen = state.withLock { state in
                if !state.isOpen { state.waiting.append(continuation) }
                return state.isOpen
            }
            if isOpen { continuation.resume() }
        }
    }

    /// Opens the gate for every waiter, now and later.
    package func open() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }
}
