/// The life of one `MockURLProtocol` instance, as one state machine, so that none of
/// FoundationNetworking's traps can be reached: nothing is delivered after `stopLoading`,
/// nothing twice, and never a finish without a response (delivery always sends the response
/// first).
///
/// ```text
/// idle --start--> waiting(g) --complete(g)--> ready --start / takeReady--> finished
///   |                |  ^                       |                              ^
///   |              stop | start (resume)       stop                            |
///   |                v  |                       v                              |
///   |              stopped(work)          stopped(answer) --start (resume)-----+
///   +--start, answered at once-------------------------------------------------+
/// ```
///
/// The registry decides a request once: a task that is suspended and resumed gets the work
/// (or the answer) it already had, so it is not journaled twice and a response sequence does
/// not move on. Each run of the work gets a generation `g`; a completion from an older
/// generation (work that was stopped) is dropped. It is one `LockedState`, so a protocol
/// instance costs one allocation for it.
typealias DeliveryState = LockedState<DeliveryMachine>

/// The deferred part of answering one request: a delay, an `async` block, or pass-through.
typealias DeferredWork = @Sendable () async -> Delivery

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
    /// The work decided at the first start, run again (not decided again) after a restart.
    var work: DeferredWork?
    /// An answer that was ready when the task was stopped, delivered if it is resumed.
    var keptAnswer: Delivery?
    /// The work and timeout tasks of the current generation, cancelled by `stop()` or completion.
    var tasks: [Task<Void, Never>] = []
}

extension LockedState where State == DeliveryMachine {
    convenience init() {
        self.init(DeliveryMachine())
    }

    /// What `startLoading` should do.
    enum StartAction {
        /// Decide the request and answer it (the first start).
        case begin(generation: Int)
        /// Run the already-decided work again, for this generation (a restart).
        case rerun(generation: Int, work: DeferredWork)
        /// Deliver this now, on this thread.
        case deliver(Delivery)
        /// Nothing (a spurious start while waiting, or after the end).
        case none
    }

    func start() -> StartAction {
        withLock { machine in
            switch machine.phase {
            case .idle:
                machine.generation += 1
                machine.phase = .waiting(generation: machine.generation)
                return .begin(generation: machine.generation)
            case .stopped:
                if let answer = machine.keptAnswer {
                    machine.phase = .finished
                    machine.keptAnswer = nil
                    return .deliver(answer)
                }
                machine.generation += 1
                machine.phase = .waiting(generation: machine.generation)
                guard let work = machine.work else { return .begin(generation: machine.generation) }
                return .rerun(generation: machine.generation, work: work)
            case .ready(let delivery):
                machine.phase = .finished
                return .deliver(delivery)
            case .waiting, .finished:
                return .none
            }
        }
    }

    /// The answer, if one is ready (and not stopped): for delivering outside `startLoading`.
    func takeReady() -> Delivery? {
        withLock { machine in
            guard case .ready(let delivery) = machine.phase else { return nil }
            machine.phase = .finished
            return delivery
        }
    }

    /// Marks an answer that was delivered at once.
    func finishNow() {
        withLock { $0.phase = .finished }
    }

    /// Remembers the decided work and the tasks that `stop()` must cancel; if the state moved
    /// on meanwhile, cancels them at once.
    func track(generation: Int, work: @escaping DeferredWork, tasks: [Task<Void, Never>]) {
        let stale = withLock { machine -> Bool in
            machine.work = work
            guard case .waiting(generation) = machine.phase else { return true }
            machine.tasks = tasks
            return false
        }
        if stale { for task in tasks { task.cancel() } }
    }

    /// Offers the answer of generation `generation`; returns `true` if it was taken, in which
    /// case the caller must bring the instance back to deliver it.
    func complete(generation: Int, with delivery: Delivery) -> Bool {
        let (taken, tasks) = withLock { machine -> (Bool, [Task<Void, Never>]) in
            guard case .waiting(generation) = machine.phase else { return (false, []) }
            machine.phase = .ready(delivery)
            defer { machine.tasks = [] }
            return (true, machine.tasks)
        }
        for task in tasks { task.cancel() }
        return taken
    }

    /// `stopLoading`: nothing may be delivered from now on, until a restart.
    func stop() {
        let tasks = withLock { machine -> [Task<Void, Never>] in
            switch machine.phase {
            case .finished:
                break
            case .ready(let answer):
                machine.keptAnswer = answer
                machine.phase = .stopped
            case .idle, .waiting, .stopped:
                machine.phase = .stopped
            }
            defer { machine.tasks = [] }
            return machine.tasks
        }
        for task in tasks { task.cancel() }
    }
}
