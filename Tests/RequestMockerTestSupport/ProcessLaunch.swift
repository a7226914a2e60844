import Foundation

/// Starts processes one at a time, on a serial queue of its own. Swift Testing runs the suites in
/// parallel, and swift-corelibs-foundation's `Process.run()` (6.3.1) crashed once in a few dozen
/// full runs while two started at once (a bad read in its `memcpy`, from `Process.run()` itself).
/// The queue, not a lock, keeps them in turn, so no Swift concurrency thread waits its turn
/// (with two cores there are only two, and every test's tasks need them).
package enum ProcessLaunch {
    private static let queue = DispatchQueue(label: "RequestMockerTestSupport.ProcessLaunch")

    /// Starts `process` in turn and returns; `failed` gets the error when it couldn't start.
    package static func start(_ process: Process, failed: @escaping @Sendable (any Error) -> Void) {
        let box = ProcessBox(process)
        queue.async {
            do {
                try box.process.run()
            } catch {
                failed(error)
            }
        }
    }

    /// Starts `process` in turn, and returns once it started.
    package static func start(_ process: Process) async throws {
        let box = ProcessBox(process)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async {
                do {
                    try box.process.run()
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }

    /// Starts `process` in turn, for callers that can't wait asynchronously.
    package static func run(_ process: Process) throws {
        try queue.sync { try process.run() }
    }
}

/// A process handed to the launch queue.
private final class ProcessBox: @unchecked Sendable {
    // @unchecked Sendable: the queue is the only one to touch `process` until it has started,
    // and `Process` guards its own state after that.
    let process: Process
    init(_ process: Process) { self.process = process }
}
