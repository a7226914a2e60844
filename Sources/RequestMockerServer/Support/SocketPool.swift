import Foundation
import RequestMocker

/// The listeners, the connections and the threads behind one server, and the `stop()` that
/// ends them all.
///
/// One thread per listener blocks in `poll` + `accept`; one thread per connection runs that
/// connection's loop with blocking I/O. `stop()` wakes the listeners through a pipe, shuts
/// every connection's socket down (so blocked reads, writes and pauses return at once), cancels
/// work a connection is waiting for, and waits until every thread has finished. A connection's
/// descriptor is closed only after it left the table, under the same lock `stop()` holds, so
/// `stop()` never shuts down a descriptor number the system already reused.
final class SocketPool: Sendable {
    private struct State: Sendable {
        var stopped = false
        var nextID = 0
        var connections: [Int: Socket] = [:]
        var cancellations: [Int: @Sendable () -> Void] = [:]
        var listeners: [Socket] = []
        /// What the connections that may give way to a new one are doing, and since when;
        /// connections not listed are busy (answering, or not HTTP) and never give way.
        var phases: [Int: PooledConnection.Phase] = [:]
        /// Connections shut down to make room, still finishing: they no longer count.
        var evicted: Set<Int> = []
        /// Threads running synchronous blocks (see `PooledConnection.wait(blocking:until:)`).
        var blockThreads = 0
    }

    /// The most synchronous blocks that run at once: each has a thread of its own, and one that
    /// never returns keeps it, so without a cap a client could pile them up.
    static let maximumBlockThreads = 64

    private let state = LockedState(State())
    private let threads = DispatchGroup()
    private let wake: WakePipe
    private let name: String

    init(name: String) throws(Socket.Failure) {
        self.name = name
        wake = try WakePipe()
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    var connectionCount: Int { state.withLock { $0.connections.count } }

    /// How many connections may give way to a new one (not already shut down to make room):
    /// waiting for a request, or receiving a head.
    var givingWay: (idle: Int, readingHead: Int) {
        state.withLock { state in
            state.phases.filter { !state.evicted.contains($0.key) }.values.reduce(into: (0, 0)) { counts, phase in
                if case .idle = phase { counts.0 += 1 } else { counts.1 += 1 }
            }
        }
    }

    /// Listens on `host`:`port` and starts accepting; each accepted connection runs `handler` on
    /// a thread of its own. Beyond `maximumConnections`, `overflow` answers and the socket closes.
    ///
    /// - Returns: the address and port really bound.
    func listen(
        host: String,
        port: UInt16,
        backlog: Int32 = 511,
        maximumConnections: Int = .max,
        overflow: @escaping @Sendable (Socket) -> Void = { _ in },
        handler: @escaping @Sendable (PooledConnection) -> Void
    ) throws(Socket.Failure) -> (host: String, port: UInt16) {
        let listener = try Socket.listen(host: host, port: port, backlog: backlog)
        let address: (host: String, port: UInt16)
        do {
            address = try listener.localAddress()
        } catch {
            listener.close()
            throw error
        }
        let accepted = state.withLock { state -> Bool in
            guard !state.stopped else { return false }
            state.listeners.append(listener)
            return true
        }
        guard accepted else {
            listener.close()
            throw Socket.Failure("listen", code: ECANCELED)
        }
        spawn("\(name) listener \(address.port)") { [self] in
            acceptLoop(listener, maximumConnections: maximumConnections, overflow: overflow, handler: handler)
        }
        return address
    }

    private func acceptLoop(
        _ listener: Socket,
        maximumConnections: Int,
        overflow: @escaping @Sendable (Socket) -> Void,
        handler: @escaping @Sendable (PooledConnection) -> Void
    ) {
        var entries = [
            pollfd(fd: listener.descriptor, events: SocketPlatform.readable, revents: 0),
            pollfd(fd: wake.readEnd, events: SocketPlatform.readable, revents: 0),
        ]
        while !isStopped {
            for index in entries.indices { entries[index].revents = 0 }
            let readiness = Socket.poll(&entries, count: 2, timeout: nil)
            if readiness[1] != .timedOut || isStopped { return }
            guard readiness[0] == .readable else {
                // `poll` failed or the listener reports an error: don't spin on it.
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            let socket: Socket?
            do {
                socket = try listener.accept()
            } catch {
                // Out of descriptors, most likely: let connections finish before trying again.
                Thread.sleep(forTimeInterval: 0.01)
                continue
            }
            guard let socket else { continue }
            let id = state.withLock { state -> Int? in
                guard !state.stopped else { return nil }
                if state.connections.count - state.evicted.count >= maximumConnections {
                    guard let victim = Self.victim(in: state) else { return nil }
                    // Shut down under the lock, like `stop()`: its thread sees the hang-up, ends,
                    // and frees the slot; meanwhile the victim no longer counts.
                    state.phases[victim] = nil
                    state.evicted.insert(victim)
                    state.connections[victim]?.shutdown()
                }
                state.nextID += 1
                state.connections[state.nextID] = socket
                return state.nextID
            }
            guard let id else {
                if !isStopped { overflow(socket) }
                socket.close()
                continue
            }
            let connection = PooledConnection(id: id, socket: socket, pool: self)
            spawn("\(name) connection \(id)") {
                handler(connection)
                connection.finish(.close)
            }
        }
    }

    /// The connection to close for a new one: the longest idle, or else the one that has spent
    /// longest sending its request head.
    private static func victim(in state: State) -> Int? {
        var idle: (id: Int, since: ContinuousClock.Instant)?
        var reading: (id: Int, since: ContinuousClock.Instant)?
        for (id, phase) in state.phases where !state.evicted.contains(id) {
            switch phase {
            case .idle(let since): if idle.map({ since < $0.since }) ?? true { idle = (id, since) }
            case .readingHead(let since): if reading.map({ since < $0.since }) ?? true { reading = (id, since) }
            }
        }
        return idle?.id ?? reading?.id
    }

    private func spawn(_ name: String, _ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [threads] in
            body()
            threads.leave()
        }
        thread.name = name
        thread.stackSize = 512 * 1024
        thread.start()
    }

    /// Closes the listeners and every connection, and returns when all their threads ended.
    /// Calling it again does nothing more.
    func stop() {
        let cancellations = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.stopped else { return [] }
            state.stopped = true
            // Shut down while holding the lock: no connection can close its descriptor meanwhile.
            for socket in state.connections.values { socket.shutdown() }
            return Array(state.cancellations.values)
        }
        wake.wake()
        for cancel in cancellations { cancel() }
        threads.wait()
        let listeners = state.withLock { state -> [Socket] in
            defer { state.listeners = [] }
            return state.listeners
        }
        for listener in listeners { listener.close() }
    }

    deinit {
        wake.close()
    }

    // MARK: For PooledConnection

    /// Whether `stop()`, or making room for a new connection, shut this connection down.
    fileprivate func isShutDown(_ id: Int) -> Bool {
        state.withLock { $0.stopped || $0.evicted.contains(id) }
    }

    fileprivate func remove(_ id: Int) -> Bool {
        state.withLock { state in
            state.cancellations[id] = nil
            state.phases[id] = nil
            state.evicted.remove(id)
            return state.connections.removeValue(forKey: id) != nil
        }
    }

    /// Takes a place for a block thread; `false` when all are taken.
    fileprivate func reserveBlockThread() -> Bool {
        state.withLock { state in
            guard state.blockThreads < Self.maximumBlockThreads else { return false }
            state.blockThreads += 1
            return true
        }
    }

    fileprivate func releaseBlockThread() {
        state.withLock { $0.blockThreads -= 1 }
    }

    fileprivate func setPhase(_ id: Int, _ phase: PooledConnection.Phase?) {
        state.withLock { state in
            guard !state.evicted.contains(id), state.connections[id] != nil else { return }
            state.phases[id] = phase
        }
    }

    /// Registers what `stop()` must call to end a wait; `false` when stopping already.
    fileprivate func setCancellation(_ id: Int, _ cancel: (@Sendable () -> Void)?) -> Bool {
        state.withLock { state in
            guard !state.stopped else { return false }
            state.cancellations[id] = cancel
            return true
        }
    }
}

// Beside `SocketPool`, not in a file of its own: the two share `fileprivate` members that keep
// the rule above (only the pool makes connections; only a connection leaves the table).
/// One accepted connection: its socket, and the way out that keeps `stop()` safe.
final class PooledConnection: Sendable {
    let id: Int
    let socket: Socket
    private let pool: SocketPool
    private let finished = LockedState(false)

    fileprivate init(id: Int, socket: Socket, pool: SocketPool) {
        self.id = id
        self.socket = socket
        self.pool = pool
    }

    var isStopping: Bool { pool.isStopped }

    /// What a connection is doing that lets it give way to a new one when the server is full.
    enum Phase: Sendable {
        /// Waiting for its next request, with nothing of it received.
        case idle(since: ContinuousClock.Instant)
        /// Receiving a request head, since its first byte.
        case readingHead(since: ContinuousClock.Instant)
    }

    /// Says what the connection is doing; `nil` means busy (it won't be closed for another).
    func setPhase(_ phase: Phase?) {
        pool.setPhase(id, phase)
    }

    enum Closing {
        /// A FIN after everything sent.
        case close
        /// A TCP reset.
        case reset
    }

    /// Closes the connection (the first call wins; the thread's end calls it anyway).
    func finish(_ closing: Closing) {
        let first = finished.withLock { finished -> Bool in
            defer { finished = true }
            return !finished
        }
        guard first else { return }
        _ = pool.remove(id)
        switch closing {
        case .close:
            socket.shutdownWrite()
            socket.drain(for: .seconds(1))
            socket.close()
        case .reset:
            socket.reset()
        }
    }

    /// Whether `stop()`, or making room for a new connection, shut this connection down.
    var isShutDown: Bool { pool.isShutDown(id) }

    /// How a wait for work ended.
    enum Waited<Value: Sendable>: Sendable {
        case value(Value)
        /// The server is stopping.
        case stopped
        /// The client closed its side or hung up.
        case clientLeft
        /// The deadline passed first.
        case timedOut
        /// Too many blocks are running already; the work wasn't started.
        case overloaded
    }

    /// Runs `work` on Swift concurrency and blocks this connection's thread until it returns,
    /// the deadline passes, the client leaves, or the server stops (in those cases the task is
    /// cancelled; work that ignores cancellation runs on, but no longer holds the connection).
    func wait<Value: Sendable>(
        for work: @escaping @Sendable () async -> Value, until deadline: ContinuousClock.Instant
    )
        -> Waited<Value>
    {
        let rendezvous = Rendezvous<Value>()
        let task = Task { rendezvous.fulfil(await work()) }
        return wait(for: rendezvous, until: deadline) { task.cancel() }
    }

    /// Runs `work`, which blocks whatever thread runs it, on a thread of its own (not one of
    /// Swift concurrency's few), and waits as ``wait(for:until:)`` does. Work that never returns
    /// keeps only its own thread.
    func wait<Value: Sendable>(
        blocking work: @escaping @Sendable () -> Value, until deadline: ContinuousClock.Instant
    )
        -> Waited<Value>
    {
        guard pool.reserveBlockThread() else { return .overloaded }
        let rendezvous = Rendezvous<Value>()
        let thread = Thread { [pool] in
            rendezvous.fulfil(work())
            pool.releaseBlockThread()
        }
        thread.name = "RequestMocker block"
        thread.stackSize = OwnThread.stackSize
        thread.start()
        return wait(for: rendezvous, until: deadline) {}
    }

    /// The next piece of a relayed body, waiting until it comes, the client leaves, or the server
    /// stops; in those two cases the stream is cancelled, which stops its sender.
    func next(of stream: BodyStream) -> Waited<BodyStream.Next> {
        guard pool.setCancellation(id, { stream.cancel() }) else {
            stream.cancel()
            return .stopped
        }
        defer { _ = pool.setCancellation(id, nil) }
        while true {
            // Wakes at once when a piece comes; otherwise looks at the client every 100 ms.
            let next = stream.next(waitingAtMost: .milliseconds(100))
            if isStopping {
                stream.cancel()
                return .stopped
            }
            guard case .pending = next else { return .value(next) }
            if socket.peerHasLeft() {
                stream.cancel()
                return .clientLeft
            }
        }
    }

    private func wait<Value: Sendable>(
        for rendezvous: Rendezvous<Value>, until deadline: ContinuousClock.Instant,
        cancel: @escaping @Sendable () -> Void
    ) -> Waited<Value> {
        guard pool.setCancellation(id, { rendezvous.cancel() }) else {
            cancel()
            return .stopped
        }
        defer { _ = pool.setCancellation(id, nil) }
        let clock = ContinuousClock()
        while true {
            // Wakes at once when the work is done; otherwise looks at the client every 100 ms.
            let slice = min(clock.now.duration(to: deadline), .milliseconds(100))
            switch rendezvous.wait(for: slice) {
            case .fulfilled(let value):
                return .value(value)
            case .cancelled:
                cancel()
                return .stopped
            case .pending:
                if clock.now >= deadline {
                    cancel()
                    return .timedOut
                }
                if socket.peerHasLeft() {
                    cancel()
                    return .clientLeft
                }
            }
        }
    }
}
