#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The package's one lock: a value guarded by a `pthread_mutex_t`, both in one allocation.
///
/// A value type holding one reference, so copies share the value and its lock.
///
/// `Mutex` from `Synchronization` would let the compiler check this, but it needs macOS 15 /
/// iOS 18, and apps that stub their servers usually deploy further back. So the whole package
/// funnels its shared mutable state through this small type instead.
///
/// Not `Mutex` on Linux either, where it has no availability limit: it locks with
/// priority-inheritance futexes, which go to the kernel whenever two threads meet. With 16
/// connections on the loopback server (`request-mocker-bench --server-only`) it served 14.5k
/// requests a second against 71k with `NSLock`, a plain mutex. Not `NSLock` itself either: it is
/// an object of its own with its mutex allocated apart, three allocations where this is one,
/// and every `MockURLProtocol` instance and journal entry has a lock.
///
/// The mutex lives in a `ManagedBuffer`'s tail, whose address never changes, as POSIX
/// requires of an initialized mutex; the default (normal) type, on Linux and Apple platforms
/// alike.
package struct LockedState<State: Sendable>: @unchecked Sendable {
    // @unchecked Sendable: the storage's header (the state) is only touched with its mutex held.
    private final class Storage: ManagedBuffer<State, pthread_mutex_t> {
        deinit {
            _ = withUnsafeMutablePointerToElements { pthread_mutex_destroy($0) }
        }
    }

    private let storage: Storage

    package init(_ initial: State) {
        let buffer = Storage.create(minimumCapacity: 1) { _ in initial }
        storage = unsafeDowncast(buffer, to: Storage.self)
        _ = storage.withUnsafeMutablePointerToElements { pthread_mutex_init($0, nil) }
    }

    package func withLock<Result>(_ body: (inout State) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&state.pointee)
        }
    }
}
