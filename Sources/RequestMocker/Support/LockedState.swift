import Foundation

/// The package's one lock: a value guarded by an `NSLock`.
///
/// `Mutex` from `Synchronization` would let the compiler check this, but it needs macOS 15 /
/// iOS 18, and apps that stub their servers usually deploy further back. So the whole package
/// funnels its shared mutable state through this small type instead.
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
