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
        signal.wait(atMost: timeout)
        if let result = value.withLock({ $0 }) { return .fulfilled(result) }
        return cancelled.withLock { $0 } ? .cancelled : .pending
    }
}
