import Foundation

/// The package's one lock: a value guarded by an `NSLock`.
///
/// `Mutex` from `Synchronization` would let the compiler check this, but it needs macOS 15 /
/// iOS 18, and apps that stub their servers usually deploy further back. So the whole package
/// funnels its shared mutable state through this small type instead.
///
/// Not `Mutex` on Linux either, where it has no availability limit: it locks with
/// priority-inheritance futexes, which go to the kernel whenever two threads meet. With 16
/// connections on the loopback server (`request-mocker-bench --server-only`) it served 14.5k
/// requests a second against 71k with this lock; alone, through `MockURLProtocol`, it was about
/// 1 µs a request faster.
package final class LockedState<State: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: `state` is only touched inside `withLock`, under `lock`.
    private let lock = NSLock()
    private var state: State

    package init(_ initial: State) {
        state = initial
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }
}
