import Dispatch

extension DispatchSemaphore {
    /// Waits for a signal for at most `timeout` (not at all when it is zero or less); whether one
    /// came.
    @discardableResult
    package func wait(atMost timeout: Duration) -> Bool {
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = max(0, seconds) * 1_000_000_000 + max(0, attoseconds) / 1_000_000_000
        return wait(timeout: .now() + .nanoseconds(Int(clamping: nanoseconds))) == .success
    }
}
