/// The life of one `MockURLProtocol` instance, as one state machine, so that none of
/// FoundationNetworking's traps can be reached: nothing is delivered after `stopLoading`,
/// nothing twice, and never a finish without a response (delivery always sends the response
/// first).
///
/// ```text
/// idle ──start──▶ waiting(g) ──complete(g)──▶ ready(g) ──start──▶ finished
///   │                │  ▲                                          ▲
///   │                │  └──────start (restart after suspend)──┐    │
///   │                └──stop──▶ stopped ──────────────────────┘    │
///   └──start, answered at once─────────────────────────────────────┘
/// ```
///
/// Each start of the work gets a new generation `g`; a completion from an older generation
/// (work that was stopped) is dropped.
final class DeliveryState: Sendable {
    enum Phase: Sendable {
        case idle
        case waiting(generation: Int)
        case ready(Delivery)
        case stopped
        case finished
    }

    private struct State: Sendable {
        var phase: Phase = .idle
        var generation = 0
        var request: MockRequest?
        var work: Task<Void, Never>?
        var timer: Task<Void, Never>?
    }

    private let state = LockedState(State())

    /// What `startLoading` should do.
    enum StartAction {
        /// Run the exchange for this generation (`request` is the one captured before, if any).
        case begin(generation: Int, request: MockRequest?)
        /// Deliver this now, on this thread.
        case deliver(Delivery)
        /// Nothing (a spurious start while waiting, or after the end).
        case none
    }

    func start() -> StartAction {
        state.withLock { state in
            switch state.phase {
            case .idle, .stopped:
                state.generation += 1
                state.phase = .waiting(generation: state.generation)
                return .begin(generation: state.generation, request: state.request)
            case .ready(let delivery):
                state.phase = .finished
                return .deliver(delivery)
            case .waiting, .finished:
                return .none
            }
        }
    }

    /// Remembers the captured request, so a restart doesn't read a consumed body stream again.
    func remember(_ request: MockRequest) {
        state.withLock { $0.request = request }
    }

    /// Marks an answer that was delivered at once.
    func finishNow() {
        state.withLock { $0.phase = .finished }
    }

    /// Keeps the handles that `stop()` must cancel; if the state moved on meanwhile, cancels them.
    func track(generation: Int, work: Task<Void, Never>?, timer: Task<Void, Never>?) {
        let stale = state.withLock { state -> Bool in
            guard case .waiting(generation) = state.phase else { return true }
            state.work = work
            state.timer = timer
            return false
        }
        if stale {
            work?.cancel()
            timer?.cancel()
        }
    }

    /// Offers the answer of generation `generation`; returns `true` if it was taken, in which
    /// case the caller must bring the instance back to `start()` to deliver it.
    func complete(generation: Int, with delivery: Delivery) -> Bool {
        let (taken, work, timer) = state.withLock { state -> (Bool, Task<Void, Never>?, Task<Void, Never>?) in
            guard case .waiting(generation) = state.phase else { return (false, nil, nil) }
            state.phase = .ready(delivery)
            defer { state.work = nil; state.timer = nil }
            return (true, state.work, state.timer)
        }
        work?.cancel()
        timer?.cancel()
        return taken
    }

    /// `stopLoading`: nothing may be delivered from now on (until a restart).
    func stop() {
        let (work, timer) = state.withLock { state -> (Task<Void, Never>?, Task<Void, Never>?) in
            if case .finished = state.phase {} else { state.phase = .stopped }
            defer { state.work = nil; state.timer = nil }
            return (state.work, state.timer)
        }
        work?.cancel()
        timer?.cancel()
    }
}
