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

        /// Runs `body` (a `posix_spawnp`) on the spawning thread and waits for it.
        static func onSpawningThread<T>(_ body: @escaping () throws -> T) throws -> T {
            guard !prefix.isEmpty else { return try body() }
            let job = Job(body)
            spawningThread.withLock { $0.append(job) }
            wake.signal()
            job.done.wait()
            return try job.result()
        }

        /// One call to run, and its result once it has run.
        private final class Job<T>: Runnable, @unchecked Sendable {
            // @unchecked Sendable: `outcome` is written on the spawning thread before `done` is
            // signalled, and read by the caller only after it has waited for `done`.
            let body: () throws -> T
            var outcome: Result<T, any Error>?
            let done = DispatchSemaphore(value: 0)
            init(_ body: @escaping () throws -> T) { self.body = body }
            func run() {
                outcome = Result { try body() }
                done.signal()
            }
            func result() throws -> T {
                guard let outcome else { preconditionFailure("a spawn job was read before it ran") }
                return try outcome.get()
            }
        }

        private protocol Runnable: AnyObject, Sendable { func run() }

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
        static func onSpawningThread<T>(_ body: @escaping () throws -> T) throws -> T { try body() }
    #endif
}
