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
///
/// finished --beginStreaming--> streaming(g) --append / end, then start--> finished
///                                   |
///                                 stop --> stopped (a later start fails: the head went out)
/// ```
///
/// The registry decides a request once: a task that is suspended and resumed gets the work
/// (or the answer) it already had, so it is not journaled twice and a response sequence does
/// not move on. Each run of the work gets a generation `g`; a completion from an older
/// generation (work that was stopped) is dropped. A streamed body is delivered piece by piece
/// after its head: each piece that arrives wakes the task once, and the next start hands over
/// every piece waiting. It is one `LockedState`, so a protocol instance costs one allocation
/// for it.
typealias DeliveryState = LockedState<DeliveryMachine>

/// The deferred part of answering one request: a delay, an `async` block, or pass-through.
typealias DeferredWork = @Sendable () async -> Delivery

struct DeliveryMachine: Sendable {
    enum Phase: Sendable {
        case idle
        case waiting(generation: Int)
        case ready(Delivery)
        /// The head went out; the body's pieces follow as they arrive.
        case streaming(generation: Int)
        case stopped
        case finished
    }

    /// How a streamed body ended.
    enum StreamEnding: Sendable {
        case complete
        case failed(any Error)
    }

    var phase: Phase = .idle
    var generation = 0
    /// The work decided at the first start, run again (not decided again) after a restart.
    var work: DeferredWork?
    /// An answer that was ready when the task was stopped, delivered if it is resumed.
    var keptAnswer: Delivery?
    /// The work and timeout tasks of the current generation, cancelled by `stop()` or completion.
    var tasks: [Task<Void, Never>] = []
    /// A streamed body's pieces that arrived since the last start, and its end once it came.
    var pieces: [Data] = []
    var streamEnding: StreamEnding?
    /// Whether a wake is on its way: the pieces that arrive meanwhile ride along with it.
    var wakePending = false
    /// Whether a streamed head went out, so a restart can't deliver a response again.
    var streamed = false
    /// When the deferred work last showed progress (its start, or a streamed piece): the
    /// request's timeout counts from here, as URL loading's does between received bytes.
    var lastActivity = ContinuousClock.Instant.now
    /// The journal entry of the hop being answered, and its registry, until its answer ends.
    var journal: (registry: MockRegistry, entry: JournalEntry)?
}

extension LockedState where State == DeliveryMachine {
    init() {
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
        /// Hand over these pieces of a streamed body, then end it if it ended.
        case stream([Data], ending: DeliveryMachine.StreamEnding?)
        /// Nothing (a spurious start while waiting, or after the end).
        case none
    }

    func start() -> StartAction {
        withLock { machine in
            switch machine.phase {
            case .idle:
                machine.generation += 1
                machine.phase = .waiting(generation: machine.generation)
                machine.lastActivity = .now
                return .begin(generation: machine.generation)
            case .stopped:
                if let answer = machine.keptAnswer {
                    machine.phase = .finished
                    machine.keptAnswer = nil
                    return .deliver(answer)
                }
                if machine.streamed {
                    machine.phase = .finished
                    return .deliver(.failure(StreamInterrupted.error))
                }
                machine.generation += 1
                machine.phase = .waiting(generation: machine.generation)
                machine.lastActivity = .now
                guard let work = machine.work else { return .begin(generation: machine.generation) }
                return .rerun(generation: machine.generation, work: work)
            case .ready(let delivery):
                machine.phase = .finished
                return .deliver(delivery)
            case .streaming:
                return machine.takePieces()
            case .waiting, .finished:
                return .none
            }
        }
    }

    /// What a wake outside `startLoading` should deliver (Apple platforms, on the client
    /// thread): a ready answer, or the pieces of a streamed body.
    func takeReady() -> StartAction {
        withLock { machine in
            switch machine.phase {
            case .ready(let delivery):
                machine.phase = .finished
                return .deliver(delivery)
            case .streaming:
                return machine.takePieces()
            case .idle, .waiting, .stopped, .finished:
                return .none
            }
        }
    }

    /// Marks an answer that was delivered at once.
    func finishNow() {
        withLock { $0.phase = .finished }
    }

    /// Remembers the decided work and the tasks that `stop()` must cancel; if the state moved
    /// on meanwhile, cancels them at once.
    func track(generation: Int, work: DeferredWork?, tasks: [Task<Void, Never>]) {
        let stale = withLock { machine -> Bool in
            switch machine.phase {
            case .waiting(generation): break
            case .streaming(generation) where machine.streamEnding == nil: break
            default: return true
            }
            if let work { machine.work = work }
            machine.tasks = tasks
            return false
        }
        if stale { for task in tasks { task.cancel() } }
    }

    /// Tracks one more task of generation `generation` (a task started once its answer was
    /// made), or cancels it at once if the state moved on.
    func add(_ task: Task<Void, Never>, generation: Int) {
        let stale = withLock { machine -> Bool in
            guard case .waiting(generation) = machine.phase else { return true }
            machine.tasks.append(task)
            return false
        }
        if stale { task.cancel() }
    }

    /// Whether generation `generation` still waits for its answer (not stopped, not answered).
    func isWaiting(generation: Int) -> Bool {
        withLock { machine in
            if case .waiting(generation) = machine.phase { true } else { false }
        }
    }

    /// Offers the answer of generation `generation`; returns `true` if it was taken, in which
    /// case the caller must bring the instance back to deliver it.
    func complete(generation: Int, with delivery: Delivery) -> Bool {
        let (taken, tasks) = withLock { machine -> (Bool, [Task<Void, Never>]) in
            guard case .waiting(generation) = machine.phase else { return (false, []) }
            machine.phase = .ready(delivery)
            // A restart now delivers this answer: the work (which may hold a followed
            // redirect's whole answer) isn't needed any more.
            machine.work = nil
            defer { machine.tasks = [] }
            return (true, machine.tasks)
        }
        for task in tasks { task.cancel() }
        return taken
    }

    /// Moves a delivered answer on to streaming its body: a new generation, whose pieces
    /// ``append(_:generation:)`` and ``end(_:generation:)`` bring in. `nil` when the task was
    /// stopped meanwhile.
    func beginStreaming() -> Int? {
        withLock { machine in
            guard case .finished = machine.phase else { return nil }
            machine.generation += 1
            machine.phase = .streaming(generation: machine.generation)
            machine.streamed = true
            machine.lastActivity = .now
            return machine.generation
        }
    }

    /// Moves a delivered answer back to waiting, for work that finishes it (a streamed body
    /// collected whole). `nil` when the task was stopped meanwhile.
    func beginWaiting() -> Int? {
        withLock { machine in
            guard case .finished = machine.phase else { return nil }
            machine.generation += 1
            machine.phase = .waiting(generation: machine.generation)
            machine.lastActivity = .now
            return machine.generation
        }
    }

    /// Adds a piece of a streamed body; returns `true` when the caller must wake the task.
    func append(_ piece: Data, generation: Int) -> Bool {
        withLock { machine in
            guard case .streaming(generation) = machine.phase, machine.streamEnding == nil else { return false }
            machine.pieces.append(piece)
            machine.lastActivity = .now
            return machine.needsWake()
        }
    }

    /// Ends a streamed body; returns `true` when the caller must wake the task.
    func end(_ ending: DeliveryMachine.StreamEnding, generation: Int) -> Bool {
        let (wake, tasks) = withLock { machine -> (Bool, [Task<Void, Never>]) in
            guard case .streaming(generation) = machine.phase, machine.streamEnding == nil else { return (false, []) }
            machine.streamEnding = ending
            defer { machine.tasks = [] }
            return (machine.needsWake(), machine.tasks)
        }
        for task in tasks { task.cancel() }
        return wake
    }

    /// Notes progress of the work under way (its start, a piece collected): the timeout counts
    /// again from now.
    func noteActivity() {
        withLock { machine in
            switch machine.phase {
            case .waiting, .streaming: machine.lastActivity = .now
            case .idle, .ready, .stopped, .finished: break
            }
        }
    }

    /// What the timeout of a generation found.
    enum Expiry {
        /// Not yet: look again after this long.
        case wait(Duration)
        /// It expired: the failure is in place, and the task must be woken when `wake` says so.
        case expired(wake: Bool)
        /// The generation is over (answered, ended, stopped): nothing to time.
        case over
    }

    /// Fails generation `generation` with `error` if it went `timeout` without progress, checked
    /// and done in one step, so a piece that arrives meanwhile is never lost to a stale look.
    func expire(generation: Int, timeout: Duration, error: @autoclosure () -> URLError) -> Expiry {
        let (expiry, tasks) = withLock { machine -> (Expiry, [Task<Void, Never>]) in
            let left = timeout - machine.lastActivity.duration(to: .now)
            switch machine.phase {
            case .waiting(generation):
                guard left <= .zero else { return (.wait(left), []) }
                machine.phase = .ready(.failure(error()))
                machine.work = nil
            case .streaming(generation) where machine.streamEnding == nil:
                guard left <= .zero else { return (.wait(left), []) }
                machine.streamEnding = .failed(error())
                defer { machine.tasks = [] }
                return (.expired(wake: machine.needsWake()), machine.tasks)
            default:
                return (.over, [])
            }
            defer { machine.tasks = [] }
            return (.expired(wake: true), machine.tasks)
        }
        for task in tasks { task.cancel() }
        return expiry
    }

    /// Whether the task is still waiting for something from this instance (a wake is worth
    /// sending).
    var expectsDelivery: Bool {
        withLock { machine in
            switch machine.phase {
            case .waiting, .ready, .streaming: true
            case .idle, .stopped, .finished: false
            }
        }
    }

    /// Notes the journal entry of the hop now answered; the hop before it (a redirect the
    /// library followed) was delivered.
    func noteEntry(_ entry: JournalEntry, in registry: MockRegistry) {
        let earlier = withLock { machine in
            defer { machine.journal = (registry, entry) }
            return machine.journal
        }
        if let earlier { earlier.registry.complete(earlier.entry, .delivered) }
    }

    /// Records how the answer to the current journal entry ended.
    func completeEntry(_ completion: JournalEntry.Completion) {
        let current = withLock { machine in
            defer { machine.journal = nil }
            return machine.journal
        }
        if let current { current.registry.complete(current.entry, completion) }
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
            case .idle, .waiting, .streaming, .stopped:
                machine.phase = .stopped
                machine.pieces = []
            }
            defer { machine.tasks = [] }
            return machine.tasks
        }
        for task in tasks { task.cancel() }
    }
}

extension DeliveryMachine {
    /// Hands over the pieces waiting and, once the body ended, the end.
    fileprivate mutating func takePieces() -> LockedState<DeliveryMachine>.StartAction {
        wakePending = false
        let taken = pieces
        pieces = []
        guard let ending = streamEnding else { return taken.isEmpty ? .none : .stream(taken, ending: nil) }
        phase = .finished
        return .stream(taken, ending: ending)
    }

    /// Whether a wake must be sent for what just arrived (none is on its way yet).
    fileprivate mutating func needsWake() -> Bool {
        defer { wakePending = true }
        return !wakePending
    }
}

/// A streamed response can't be taken up again once its head went out: a task suspended in the
/// middle of one fails when it is resumed.
enum StreamInterrupted {
    static var error: URLError {
        URLError(
            .networkConnectionLost,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "the task was suspended in the middle of a streamed response, which RequestMocker can't resume"
            ])
    }
}
