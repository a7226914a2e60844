import Foundation
import RequestMocker

/// An outside client (curl, a Python script) left running while the test waits for what it does.
///
/// Waits for the client's effects are bounded by the client's own life, not by a clock started
/// with the test: on a loaded machine a client's process started a minute after the test asked
/// for it, and a 60 s wait counted from the test's side gave up before the client had begun. Here
/// a wait first awaits the spawn, then ends at whichever comes first: what it waits for, or the
/// client's end (its own time limit stops it), which fails the wait with what the client printed.
///
/// ```swift
/// let curl = BackgroundClient { try await ExternalProcess.curl(["-N", url.absoluteString]) }
/// defer { curl.cancel() }
/// try await curl.waitUntil(waitingFor: "the first piece") { server.journal.count == 1 }
/// let result = try await curl.result
/// ```
package final class BackgroundClient: Sendable {
    private struct State {
        var started = false
        var ended = false
    }
    private let state = LockedState(State())
    private let task: Task<ProcessResult, any Error>

    /// Starts `run` (one call of ``ExternalProcess``) in a task of its own.
    package init(_ run: @escaping @Sendable () async throws -> ProcessResult) {
        let state = state
        task = Task {
            defer { state.withLock { $0.ended = true } }
            return try await ExternalProcess.$onStart.withValue({ state.withLock { $0.started = true } }) {
                try await run()
            }
        }
    }

    /// Waits until `condition` holds. Throws ``ClientEnded`` when the client ends first, and
    /// ``TimedOut`` when its process has not started after `startSeconds`, or has neither ended
    /// nor made `condition` true `seconds` after it started (longer than any client's own limit:
    /// this bound only catches a client whose end was never seen).
    package func waitUntil(
        startSeconds: Double = 120, _ seconds: Double = 240, waitingFor: String,
        _ condition: @escaping @Sendable () async throws -> Bool
    ) async throws {
        let state = state
        try await RequestMockerTestSupport.waitUntil(startSeconds, waitingFor: "the client's process to start") {
            state.withLock { $0.started || $0.ended }
        }
        try await RequestMockerTestSupport.waitUntil(seconds, waitingFor: "\(waitingFor), or the client to end") {
            try await condition() || state.withLock { $0.ended }
        }
        if try await condition() { return }
        let printed: String
        do {
            let result = try await task.value
            printed = "status \(result.status): \(result.output)\(result.error)"
        } catch {
            printed = "\(error)"
        }
        throw ClientEnded(waitingFor: waitingFor, printed: printed)
    }

    /// What the client printed, once it has ended; cancelling the waiting test kills it.
    package var result: ProcessResult {
        get async throws {
            try await withTaskCancellationHandler {
                try await task.value
            } onCancel: { [task] in
                task.cancel()
            }
        }
    }

    /// Kills the client, if it still runs.
    package func cancel() { task.cancel() }
}

/// A client ended before the event a test waited for.
package struct ClientEnded: Error, CustomStringConvertible {
    package let waitingFor: String
    /// The client's exit status and output, or the error that ended its run.
    package let printed: String
    package var description: String { "the client ended before \(waitingFor) (\(printed))" }
}
