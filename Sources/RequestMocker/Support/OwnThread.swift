import Foundation

/// Runs blocking work on a thread of its own and awaits it, so that neither the caller's thread
/// nor Swift's small pool of cooperative threads is held while it runs. Work that never returns
/// keeps only its own thread (with ``start(_:)``, one of the bounded threads).
package enum OwnThread {
    /// Generous, since the work is user code: the thread's stack is reserved, not committed.
    package static let stackSize = 8 * 1024 * 1024

    /// Runs `work` on a thread of its own, among at most 64 at once (``BoundedThreads/shared``).
    package static func start(_ work: @escaping @Sendable () -> Void) {
        BoundedThreads.shared.start(work)
    }

    static func run<Value: Sendable>(_ work: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            let thread = Thread { continuation.resume(returning: work()) }
            thread.name = "RequestMocker block"
            thread.stackSize = stackSize
            thread.start()
        }
    }
}
