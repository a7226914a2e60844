import Foundation
import RequestMocker

/// A value handed from a task to a waiting thread, or a cancellation.
final class Rendezvous<Value: Sendable>: Sendable {
    private let value = LockedState<Value?>(nil)
    private let cancelled = LockedState(false)
    private let signal = DispatchSemaphore(value: 0)

    enum Outcome {
        case fulfilled(Value)
        case cancelled
        /// Nothing yet.
        case pending
    }

    func fulfil(_ result: Value) {
        value.withLock { $0 = result }
        signal.signal()
    }

    func cancel() {
        cancelled.withLock { $0 = true }
        signal.signal()
    }

    func wait(for timeout: Duration) -> Outcome {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        _ = signal.wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds)))
        if let result = value.withLock({ $0 }) { return .fulfilled(result) }
        return cancelled.withLock { $0 } ? .cancelled : .pending
    }
}
