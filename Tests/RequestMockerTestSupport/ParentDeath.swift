import Foundation
import RequestMocker

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a child process dies with the test process when the test process is killed (a CI time
/// limit, `kill -9`), where no exit handler runs.
///
/// On Linux, `setpriv --pdeathsig KILL` (util-linux, in every Debian) sets the parent-death signal
/// and then executes the program, so the kernel kills the child when its parent goes. The kernel
/// counts the *thread* that started the child as its parent (prctl(2)), and Swift concurrency's
/// threads come and go, so every child is started from one thread that lives as long as the
/// process. Elsewhere there is no such signal: children are stopped at exit, and the Python
/// fixtures also watch their parent.
enum ParentDeath {
    #if os(Linux)
        /// The words put before a command.
        static let prefix: [String] =
            FileManager.default.isExecutableFile(atPath: setpriv) ? [setpriv, "--pdeathsig", "KILL", "--"] : []
        private static let setpriv = "/usr/bin/setpriv"

        /// Runs `body` (a `posix_spawnp`) on the spawning thread and returns its result. The
        /// caller's task waits without holding a thread: on a loaded machine a queue of spawns
        /// took seconds each, and callers blocked on them held the cooperative pool's threads.
        static func onSpawningThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            guard !prefix.isEmpty else { return try body() }
            return try await withCheckedThrowingContinuation { continuation in
                spawningThread.withLock { $0.append(Job(body, continuation)) }
                wake.signal()
            }
        }

        /// One call to run, and the continuation its result goes to.
        private struct Job<T: Sendable>: Runnable {
            let body: @Sendable () throws -> T
            let continuation: CheckedContinuation<T, any Error>
            init(_ body: @escaping @Sendable () throws -> T, _ continuation: CheckedContinuation<T, any Error>) {
                self.body = body
                self.continuation = continuation
            }
            func run() { continuation.resume(with: Result { try body() }) }
        }

        private protocol Runnable: Sendable { func run() }

        /// The jobs waiting for the spawning thread, which is started the first time this is used.
        private static let spawningThread: LockedState<[any Runnable]> = {
            let queue = LockedState<[any Runnable]>([])
            Thread.detachNewThread {
                while true {
                    wake.wait()
                    while let job = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) { job.run() }
                }
            }
            return queue
        }()
        private static let wake = DispatchSemaphore(value: 0)
    #else
        static let prefix: [String] = []
        static func onSpawningThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
            try body()
        }
    #endif
}
