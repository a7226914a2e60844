import Foundation
import RequestMocker

/// The smallest stack the library runs its own code on: `MockServer`'s connection threads.
package let smallestLibraryStack = 512 * 1024

/// Runs `body` on a new thread with a stack of `stackSize` bytes and returns its result, so a
/// test can prove that work fits on the library's smallest thread stack (a stack overflow
/// crashes the test process, which fails the run).
///
/// The caller's task waits without holding a thread of Swift concurrency's pool, and for at most
/// `seconds`: work that never ends throws ``TimedOut`` and is left running on its thread.
package func onThread<T: Sendable>(
    stackSize: Int = smallestLibraryStack, within seconds: Double = 120, _ body: @escaping @Sendable () -> T
) async throws -> T {
    try await withDeadline(
        seconds, waitingFor: "the work on a thread of \(stackSize / 1024) KiB", onThreadOfSize: stackSize, body)
}
