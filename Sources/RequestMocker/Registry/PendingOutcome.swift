/// An outcome known at once, or one that needs to wait for an `async` block or the network.
///
/// The URL protocol answers a ready outcome inside `startLoading`, without a thread hop.
package enum PendingOutcome: Sendable {
    case ready(Outcome)
    case pending(@Sendable () async -> Outcome)
    /// Work that blocks the thread it runs on (a synchronous block, for a transport that must
    /// not run one in place): run it on a thread of its own; what it returns may wait further.
    case blocking(@Sendable () -> PendingOutcome)

    /// The outcome, waiting for it if it is pending.
    package var value: Outcome {
        get async {
            switch self {
            case .ready(let outcome): outcome
            case .pending(let work): await work()
            case .blocking(let work): await OwnThread.run(work).value
            }
        }
    }
}
