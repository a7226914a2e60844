import Dispatch
import Foundation
import RequestMocker

/// A bounded wait ran out before what it waited for happened.
package struct TimedOut: Error, CustomStringConvertible {
    package let seconds: Double
    /// What was awaited, in words: "the server's port", "curl to end".
    package let waitingFor: String
    package var description: String { "gave up waiting for \(waitingFor) after \(seconds) s" }
}

/// Runs `body`, and throws ``TimedOut`` naming `waitingFor` if it hasn't finished after `seconds`.
///
/// The bound holds even for a body that ignores cancellation (a continuation nobody resumes): the
/// wait ends at the deadline, the body is cancelled and left behind. A task group would wait for
/// its child however long it takes, which is how a time limit turns into a hang. The timer runs
/// on Dispatch, not on Swift concurrency's pool, so it fires even while that pool is busy; on a
/// busy machine it may fire late, never early. Cancelling the caller ends the wait at once with
/// `CancellationError`.
package func withDeadline<T: Sendable>(
    _ seconds: Double, waitingFor: String = "the operation",
    _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let race = Race<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let work = Task {
                do { race.finish(.success(try await body())) } catch { race.finish(.failure(error)) }
            }
            race.onFinish { work.cancel() }
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                race.finish(.failure(TimedOut(seconds: seconds, waitingFor: waitingFor)))
            }
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// Runs `body` on a thread of its own, started at once, with a stack of `stackSize` bytes, and
/// throws ``TimedOut`` naming `waitingFor` if it hasn't returned after `seconds`.
///
/// The thread itself reports its result, so what the deadline measures is the work alone: a
/// result reached in time wins even when Swift concurrency's pool is too busy to resume the
/// caller before the timer fires (with ``withDeadline(_:waitingFor:_:)``, the task that starts
/// the thread needs that pool first).
package func withDeadline<T: Sendable>(
    _ seconds: Double, waitingFor: String, onThreadOfSize stackSize: Int, _ body: @escaping @Sendable () -> T
) async throws -> T {
    let race = Race<T>()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { continuation in
            race.start(continuation)
            let thread = Thread { race.finish(.success(body())) }
            thread.stackSize = stackSize
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                race.finish(.failure(TimedOut(seconds: seconds, waitingFor: waitingFor)))
            }
        }
    } onCancel: {
        race.finish(.failure(CancellationError()))
    }
}

/// The first of several outcomes to arrive resumes the continuation; the rest are dropped.
private final class Race<T: Sendable>: Sendable {
    private struct State {
        var continuation: CheckedContinuation<T, any Error>?
        /// An outcome that arrived before the continuation (a cancel before the wait began).
        var early: Result<T, any Error>?
        var finished = false
        var cleanup: [@Sendable () -> Void] = []
    }
    private let state = LockedState(State())

    func start(_ continuation: CheckedContinuation<T, any Error>) {
        let early = state.withLock { state -> Result<T, any Error>? in
            if let early = state.early { return early }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(with: early) }
    }

    func onFinish(_ cleanup: @escaping @Sendable () -> Void) {
        let finished = state.withLock { state in
            if !state.finished { state.cleanup.append(cleanup) }
            return state.finished
        }
        if finished { cleanup() }
    }

    func finish(_ outcome: Result<T, any Error>) {
        let (continuation, cleanup) = state.withLock { state in
            guard !state.finished else { return (CheckedContinuation<T, any Error>?.none, [@Sendable () -> Void]()) }
            state.finished = true
            let taken = (state.continuation, state.cleanup)
            if state.continuation == nil { state.early = outcome }
            state.continuation = nil
            state.cleanup = []
            return taken
        }
        continuation?.resume(with: outcome)
        for action in cleanup { action() }
    }
}

/// Waits until `condition` holds, checking every 20 ms, and throws ``TimedOut`` naming
/// `waitingFor` once `seconds` have passed without it: for state no callback announces (a
/// server's connection count, a file a process writes).
package func waitUntil(
    _ seconds: Double = 60, waitingFor: String, _ condition: @escaping @Sendable () async throws -> Bool
) async throws {
    try await withDeadline(seconds, waitingFor: waitingFor) {
        while try await !condition() {
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
