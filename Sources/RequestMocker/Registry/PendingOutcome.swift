/// An outcome known at once, or one that needs to wait for an `async` block or the network.
///
/// The URL protocol answers a ready outcome inside `startLoading`, without a thread hop.
package enum PendingOutcome: Sendable {
    case ready(Outcome)
    case pending(@Sendable () async -> Outcome)
    /// Work that blocks the thread it runs on (a synchronous block, for a transport that must
    /// not run one in place): run it on a thread of its own; what it returns may wait further.
    case blocking(@Sendable () -> PendingOutcome)
    /// Work for the transport's own thread, which it blocks for a bounded time: the server's
    /// relay to a plain-HTTP upstream waits on the upstream's socket as it would on its client's.
    case inPlace(@Sendable () -> PendingOutcome)

    /// The outcome, waiting for it if it is pending.
    package var value: Outcome {
        get async {
            switch self {
            case .ready(let outcome): outcome
            case .pending(let work): await work()
            case .blocking(let work), .inPlace(let work): await OwnThread.run(work).value
            }
        }
    }

    /// The same work, its outcome delayed by `delay` more.
    func delayed(by delay: Duration) -> PendingOutcome {
        guard delay > .zero else { return self }
        switch self {
        case .ready(var outcome):
            outcome.delay += delay
            return .ready(outcome)
        case .pending(let work):
            return .pending {
                var outcome = await work()
                outcome.delay += delay
                return outcome
            }
        case .blocking(let work):
            return .blocking { work().delayed(by: delay) }
        case .inPlace(let work):
            return .inPlace { work().delayed(by: delay) }
        }
    }
}

extension PendingOutcome {
    /// The same work, its outcome handed to `next`, which decides what follows: the upstream's
    /// answer checked, or a mock's instead (`serve --upstream-first`). `next` runs where the
    /// outcome became ready, on the same kind of thread.
    package func then(_ next: @escaping @Sendable (Outcome) -> PendingOutcome) -> PendingOutcome {
        switch self {
        case .ready(let outcome): next(outcome)
        case .pending(let work): .pending { await next(await work()).value }
        case .blocking(let work): .blocking { work().then(next) }
        case .inPlace(let work): .inPlace { work().then(next) }
        }
    }
}
