import Foundation

#if canImport(FoundationNetworking)
    import Synchronization

    /// The package's one lock: a value guarded by a `Mutex`.
    ///
    /// On Linux `Mutex` (from `Synchronization`) is always available, stores the lock inline and
    /// costs no allocation of its own; a URL protocol instance makes one of these per request.
    /// Apple platforms use the `NSLock` version below, because `Mutex` needs macOS 15 / iOS 18 and
    /// apps that stub their servers usually deploy further back.
    package final class LockedState<State: Sendable>: Sendable {
        private let mutex: Mutex<State>

        package init(_ initial: State) {
            mutex = Mutex(initial)
        }

        package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
            try mutex.withLock { state in
                try body(&state)
            }
        }
    }
#else
    /// The package's one lock: a value guarded by an `NSLock` (see the Linux version above for why
    /// not `Mutex` here).
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
#endif
