import Dispatch
import Foundation
import RequestMocker
import Testing

/// Runs each test case on a thread of its own, off Swift concurrency's cooperative pool, for
/// tests that hold a thread for long: seconds of CPU work (parsing and generating from published
/// contracts), or hundreds of requests at once.
///
/// On a 2-core machine the cooperative pool has two threads, and every test's events (a server
/// that printed its port, a continuation a request resumes) need one of them. Two tests that
/// compute for a minute without suspending hold both, and tests elsewhere give up waiting for
/// events that have already happened (the loaded run, `Scripts/test-under-load`, failed so).
/// Requests hold threads too: on Linux every session's tasks share one serial queue, and
/// `resume()` waits on it, so hundreds of concurrent `data(for:)` calls keep the pool's threads
/// waiting behind each other's work. Under this trait a test case's work, its child tasks
/// included, prefers an executor of one thread (a task executor preference, SE-0417), so it
/// competes for the cores like any thread and never for the pool.
///
/// ```swift
/// @Suite(.timeLimit(.minutes(5)), .hangGuard, .ownThread) struct RealContractTests { … }
/// ```
package struct OwnThread: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Task executors came with macOS 15, iOS 18 and tvOS 18; before them the test runs as any.
        guard testCase != nil, #available(macOS 15, iOS 18, tvOS 18, *) else { return try await function() }
        let executor = ThreadExecutor(name: test.displayName ?? test.name)
        defer { executor.stop() }
        try await withTaskExecutorPreference(executor) { try await function() }
    }
}

extension Trait where Self == OwnThread {
    /// Runs each test case on a thread of its own; see ``OwnThread``.
    package static var ownThread: Self { OwnThread() }
}

/// A task executor of one thread (8 MiB of stack, as a process's main thread has), which runs
/// its jobs in the order they come.
@available(macOS 15, iOS 18, tvOS 18, *)
private final class ThreadExecutor: TaskExecutor {
    private struct State {
        var jobs: [UnownedJob] = []
        var stopped = false
    }
    private let state = LockedState(State())
    private let ready = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let stopped = state.withLock { state in
            if !state.stopped { state.jobs.append(job) }
            return state.stopped
        }
        guard stopped else {
            ready.signal()
            return
        }
        // A job that arrives after the test case ended (an unstructured task it left behind)
        // still runs, on a thread of Dispatch's.
        DispatchQueue.global().async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }

    /// Ends the thread once the jobs already queued have run.
    func stop() {
        state.withLock { $0.stopped = true }
        ready.signal()
    }

    private func run() {
        while true {
            ready.wait()
            let next = state.withLock { state -> UnownedJob?? in
                if !state.jobs.isEmpty { return state.jobs.removeFirst() }
                return state.stopped ? .some(nil) : nil
            }
            switch next {
            case .some(.some(let job)): job.runSynchronously(on: asUnownedTaskExecutor())
            case .some(.none): return
            case .none: continue
            }
        }
    }
}

/// Runs a call that blocks (a server's `stop()`, which waits for its connection threads) on a
/// thread of its own, and waits for it without holding a thread of the cooperative pool.
///
/// ```swift
/// await offThePool { server.stop() }
/// ```
package func offThePool<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: body()) }
    }
}
