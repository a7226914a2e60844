import Foundation
import RequestMocker

/// The smallest stack the library runs its own code on: `MockServer`'s connection threads.
package let smallestLibraryStack = 512 * 1024

/// Runs `body` on a new thread with a stack of `stackSize` bytes and returns its result, so a
/// test can prove that work fits on the library's smallest thread stack (a stack overflow
/// crashes the test process, which fails the run).
package func onThread<T: Sendable>(stackSize: Int = smallestLibraryStack, _ body: @escaping @Sendable () -> T) -> T {
    let result = LockedState<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    let thread = Thread {
        result.withLock { $0 = body() }
        done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    done.wait()
    return result.withLock { $0 }!
}
