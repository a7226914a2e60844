/// The life of one `MockURLProtocol` instance, as one state machine, so that none of
/// FoundationNetworking's traps can be reached: nothing is delivered after `stopLoading`,
/// nothing twice, and never a finish without a response (delivery always sends the response
/// first).
///
/// ```text
/// idle ──start──▶ waiting(g) ──complete(g)──▶ ready ──start──▶ finished
///   │                │  ▲                                        ▲
///   │                │  └───────start (restart after suspend)─┐  │
///   │                └──stop──▶ stopped ──────────────────────┘  │
///   └──start, answered at once───────────────────────────────────┘
/// ```
///
/// Each start of the work gets a new generation `g`; a completion from an older generation
/// (work that was stopped) is dropped. It is one `LockedState`, so a protocol instance costs
/// one allocation for it.
typealias DeliveryState = LockedState<DeliveryMachine>

struct DeliveryMachine: Sendable {
    enum Phase: Sendable {
        case idle
        case waiting(generation: Int)
        case ready(Delivery)
        case stopped
        case finished
    }

    var phase: Phase = .idle
    var generation = 0
    /// The request captured at the first start, kept so a restart doesn't read a consumed body
    /// stream again.
    var request: MockRequest?
    /// The work and the timeout of the current generation, cancelled by `stop()` or completion.
    var tasks: [Task<Void, Never>] = []
}

extension LockedState where State == DeliveryMachine {
    convenience init() {
        self.init(DeliveryMachine())
    }

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
        withLock { machine in
            switch machine.phase {
            case .idle, .stopped:
                machine.generation += 1
                machine.phase = .waiting(generation: machine.generation)
                return .begin(generation: machine.generation, request: machine.request)
            case .ready(let delivery):
                machine.phase = .finished
                return .deliver(delivery)
            case .waiting, .finished:
                return .none
            }
        }
    }

    /// Marks an answer that was delivered at once.
    func finishNow() {
        withLock { $0.phase = .finished }
    }

    /// Remembers the request and the tasks that `stop()` must cancel; if the state moved on
    /// meanwhile, cancels them at once.
    func track(generation: Int, request: MockRequest, tasks: [Task<Void, Never>]) {
        let stale = withLock { machine -> Bool in
            machine.request = request
            guard case .waiting(generation) = machine.phase else { return true }
            machine.tasks = tasks
            return false
        }
        if stale { tasks.forEach { $0.cancel() } }
    }

    /// Offers the answer of generation `generation`; returns `true` if it was taken, in which
    /// case the caller must bring the instance back to `start()` to deliver it.
    func complete(generation: Int, with delivery: Delivery) -> Bool {
        let (taken, tasks) = withLock { machine -> (Bool, [Task<Void, Never>]) in
            guard case .waiting(generation) = machine.phase else { return (false, []) }
            machine.phase = .ready(delivery)
            defer { machine.tasks = [] }
            return (true, machine.tasks)
        }
        tasks.forEach { $0.cancel() }
        return taken
    }

    /// `stopLoading`: nothing may be delivered from now on (until a restart).
    func stop() {
        let tasks = withLock { machine -> [Task<Void, Never>] in
            if case .finished = machine.phase {} else { machine.phase = .stopped }
            defer { machine.tasks = [] }
            return machine.tasks
        }
        tasks.forEach { $0.cancel() }
    }
}
