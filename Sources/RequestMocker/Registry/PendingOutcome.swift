/// An outcome known at once, or one that needs to wait for an `async` block or the network.
///
/// The URL protocol answers a ready outcome inside `startLoading`, without a thread hop.
package enum PendingOutcome: Sendable {
    case ready(Outcome)
    case pending(@Sendable () async -> Outcome)

    /// The outcome, waiting for it if it is pending.
    package var value: Outcome {
        get async {
            switch self {
            case .ready(let outcome): outcome
            case .pending(let work): await work()
            }
        }
    }
}
