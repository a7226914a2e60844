import Dispatch
import Foundation
import Testing

/// Ends the test run when a test is still running a minute after its time limit.
///
/// Swift Testing's `.timeLimit` records the failure and cancels the test, then waits for it to
/// return: a test awaiting something that ignores cancellation (a continuation nobody resumes)
/// would hold the run forever. The package's own waits all end on cancel; this guard is for
/// the one that doesn't. It says which test hung, where, and why the run stops, on standard
/// error, then exits with status 1 (the exit handler stops every child process), so
/// `swift test` ends with a failure instead of hanging until CI kills it.
///
/// ```swift
/// @Suite(.timeLimit(.minutes(3)), .hangGuard) struct ServerTests { … }
/// ```
package struct HangGuard: SuiteTrait, TestTrait, TestScoping {
    /// How long after its time limit a test may take to return once cancelled.
    package static let grace: Duration = .seconds(60)

    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Each test case gets its own guard; a suite's scope spans its tests, which have theirs.
        guard testCase != nil, let limit = test.timeLimit else { return try await function() }
        let name = test.displayName ?? test.name
        let location = "\(test.sourceLocation.fileID):\(test.sourceLocation.line)"
        let watchdog = DispatchWorkItem {
            let message =
                "error: \(location): test \(name) is still running \(Self.grace) after its time limit of "
                + "\(limit): it awaits something that ignores cancellation, so the run ends here.\n"
            FileHandle.standardError.write(Data(message.utf8))
            exit(1)
        }
        let seconds = Double((limit + Self.grace).components.seconds)
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
        defer { watchdog.cancel() }
        try await function()
    }
}

extension Trait where Self == HangGuard {
    /// Ends the run when a test outlives its time limit by ``HangGuard/grace``.
    package static var hangGuard: Self { HangGuard() }
}
