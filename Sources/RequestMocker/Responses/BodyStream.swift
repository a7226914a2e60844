import Dispatch
import Foundation

/// A response body that arrives over time: a forwarded response's, relayed as the real server
/// sends it, or a mocked stream's, each piece when its pause has passed. One producer appends
/// pieces and then finishes; one consumer takes them in order.
///
/// What waits for a slow consumer is bounded by ``maximumBuffered``: FoundationNetworking can't
/// pause a transfer (suspending a task mid-body restarts it), so there is no back-pressure on a
/// forwarded response's sender, and past the bound the stream fails instead of growing. A mocked
/// stream is fed only while less than ``feedAhead`` waits.
package final class BodyStream: Sendable {
    /// What the consumer gets next.
    package enum Next: Sendable {
        case bytes(Data)
        /// The body is complete.
        case end
        /// The body broke off: the sender failed, or more than ``maximumBuffered`` bytes waited.
        case failed(any Error)
        /// Nothing arrived within the wait.
        case pending
    }

    /// The most bytes that wait for the consumer before the stream fails.
    package static let maximumBuffered = 32 * 1024 * 1024

    /// The body's length, when the sender announced it and the bytes are relayed as announced.
    package let expectedLength: Int?

    private struct State: Sendable {
        var pieces: [Data] = []
        var first = 0
        var buffered = 0
        /// Set once, by ``finish(_:)`` or by overflowing: what follows the last piece.
        var ending: Ending?
        var cancelled = false
        /// A mocked stream's feeding task, once the consumer asked for the first piece.
        var feeder: Task<Void, Never>?
        var fed = false
        /// The feeder, waiting for the consumer to take what is buffered.
        var roomWaiter: CheckedContinuation<Void, Never>?
        /// A fixed list's next chunk, and when the one before it fell due (the first ask's time
        /// before the first).
        var fixedNext = 0
        var fixedAnchor: ContinuousClock.Instant?
    }

    /// How much of a mocked stream waits for the consumer before its feeder waits in turn.
    static let feedAhead = 1024 * 1024

    private enum Ending: Sendable {
        case complete
        case failed(any Error)
    }

    private let state = LockedState(State())
    /// Signalled on every change; the consumer re-reads the state, so extra signals are harmless.
    private let signal = DispatchSemaphore(value: 0)
    private let onCancel: @Sendable () -> Void
    /// For a pulled body: reads the next piece, waiting at most the given time.
    private let pull: (@Sendable (Duration) -> Next)?
    /// For a mocked stream: its pieces as they fall due. `MockURLProtocol` iterates them
    /// itself; the server's consumer takes a fixed list's on its own thread, and has a computed
    /// stream's fed in by a task when it first asks.
    let pieces: TimedPieces?

    /// Whether a body the server doesn't send (to a `HEAD`) is still read to its end, so its
    /// sender's exchange finishes (a recording is written, an upstream connection goes back).
    /// A mocked stream has no sender waiting, so it is dropped at once.
    package var needsDraining: Bool { pieces == nil }

    /// A body that a producer pushes with ``append(_:)`` and ``finish(_:)``.
    ///
    /// - Parameters:
    ///   - expectedLength: the body's announced length, if it is relayed byte for byte.
    ///   - onCancel: stops the producer when the consumer gives up (the client left).
    init(expectedLength: Int?, onCancel: @escaping @Sendable () -> Void) {
        self.expectedLength = expectedLength
        self.onCancel = onCancel
        pull = nil
        pieces = nil
    }

    /// A mocked stream's body: `pieces` start only when the consumer first asks for one.
    init(pieces: TimedPieces) {
        expectedLength = nil
        onCancel = {}
        pull = nil
        self.pieces = pieces
    }

    /// A body the consumer pulls from its source (an upstream's socket), so the source is read
    /// only as fast as the consumer sends: nothing waits in memory.
    ///
    /// - Parameters:
    ///   - pull: reads the next piece, waiting at most the given time; called by the consumer.
    ///   - onCancel: wakes a `pull` that is waiting, from another thread (the server stopping).
    package init(
        expectedLength: Int?, pull: @escaping @Sendable (Duration) -> Next, onCancel: @escaping @Sendable () -> Void
    ) {
        self.expectedLength = expectedLength
        self.onCancel = onCancel
        self.pull = pull
        pieces = nil
    }

    // MARK: Producing

    /// Adds a piece. Past ``maximumBuffered`` waiting bytes the stream fails and the producer
    /// is stopped.
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        let overflowed = state.withLock { state -> Bool in
            guard state.ending == nil, !state.cancelled else { return false }
            guard state.buffered + data.count <= Self.maximumBuffered else {
                state.ending = .failed(Overflow())
                return true
            }
            state.pieces.append(data)
            state.buffered += data.count
            return false
        }
        if overflowed { stopProducer() }
        signal.signal()
    }

    /// Ends the body: complete when `error` is `nil`. Only the first ending counts.
    func finish(_ error: (any Error)?) {
        state.withLock { state in
            guard state.ending == nil else { return }
            state.ending = error.map { .failed($0) } ?? .complete
        }
        signal.signal()
    }

    // MARK: Consuming

    /// The next piece, the end, or `pending` when nothing came within `wait`.
    package func next(waitingAtMost wait: Duration) -> Next {
        if let pull { return pulled(pull, wait) }
        if let pieces, case .chunks(let chunks) = pieces.source { return scheduled(chunks, wait) }
        if let pieces { startFeeding(pieces) }
        if let next = take() { return next }
        signal.wait(atMost: wait)
        return take() ?? .pending
    }

    /// The next piece of a pulled body; after its end or a failure, that again.
    private func pulled(_ pull: @Sendable (Duration) -> Next, _ wait: Duration) -> Next {
        let (ending, cancelled) = state.withLock { ($0.ending, $0.cancelled) }
        switch ending {
        case .complete: return .end
        case .failed(let error): return .failed(error)
        case nil: if cancelled { return .failed(CancellationError()) }
        }
        let next = pull(wait)
        switch next {
        case .end: finish(nil)
        case .failed(let error): finish(error)
        case .bytes, .pending: break
        }
        return next
    }

    /// A fixed list's next piece, taken on the consumer's own thread when it falls due: each
    /// chunk's pause after the one before fell due, the first's after the first ask, as a feeding
    /// task would append them. No task feeds it, so a cooperative pool kept busy elsewhere (all its
    /// threads waiting on FoundationNetworking's one queue, on a loaded machine) can't delay it.
    private func scheduled(_ chunks: [StreamChunk], _ wait: Duration) -> Next {
        enum Step {
            case give(Next)
            case sleep(until: ContinuousClock.Instant)
        }
        let clock = ContinuousClock()
        let deadline = clock.now + wait
        while true {
            let now = clock.now
            let step = state.withLock { state -> Step in
                if state.cancelled { return .give(.failed(CancellationError())) }
                var anchor = state.fixedAnchor ?? now
                defer { state.fixedAnchor = anchor }
                while state.fixedNext < chunks.count {
                    let chunk = chunks[state.fixedNext]
                    // No less than nothing, a century at most: an absurd pause waits for ever
                    // without overflowing.
                    let due = anchor + min(max(chunk.pause, .zero), Self.longestPause)
                    guard due <= now else { return .sleep(until: due) }
                    anchor = due
                    state.fixedNext += 1
                    if !chunk.data.isEmpty { return .give(.bytes(chunk.data)) }
                }
                return .give(.end)
            }
            let until: ContinuousClock.Instant
            switch step {
            case .give(let next): return next
            case .sleep(let due): until = min(due, deadline)
            }
            guard until > now else { return .pending }
            // Woken early by a piece of news (a cancel), the loop looks again.
            signal.wait(atMost: now.duration(to: until))
        }
    }

    private static let longestPause = Duration.seconds(100 * 366 * 86_400)

    private func take() -> Next? {
        let (next, feeder) = state.withLock { state -> (Next?, CheckedContinuation<Void, Never>?) in
            if state.first < state.pieces.count {
                let piece = state.pieces[state.first]
                state.first += 1
                state.buffered -= piece.count
                if state.first == state.pieces.count {
                    state.pieces.removeAll(keepingCapacity: true)
                    state.first = 0
                }
                return (.bytes(piece), releaseFeeder(&state))
            }
            switch state.ending {
            case .complete: return (.end, nil)
            case .failed(let error): return (.failed(error), nil)
            case nil: return (state.cancelled ? .failed(CancellationError()) : nil, nil)
            }
        }
        feeder?.resume()
        return next
    }

    /// Gives up on the body: the producer is stopped and a waiting ``next(waitingAtMost:)`` returns.
    package func cancel() {
        let first = state.withLock { state -> Bool in
            defer { state.cancelled = true }
            return !state.cancelled && state.ending == nil
        }
        if first { stopProducer() }
        signal.signal()
    }

    private func stopProducer() {
        onCancel()
        let (feeder, waiter) = state.withLock { state in
            defer { state.roomWaiter = nil }
            return (state.feeder, state.roomWaiter)
        }
        feeder?.cancel()
        waiter?.resume()
    }

    /// Returns once less than ``feedAhead`` bytes wait for the consumer (or the stream ended):
    /// a mocked stream is produced only as fast as its client reads it.
    private func roomToFeed() async {
        await withCheckedContinuation { continuation in
            let waits = state.withLock { state -> Bool in
                guard state.buffered >= Self.feedAhead, !state.cancelled, state.ending == nil else { return false }
                state.roomWaiter = continuation
                return true
            }
            if !waits { continuation.resume() }
        }
    }

    /// Lets a waiting feeder go on, when there is room or the stream ended.
    private func releaseFeeder(_ state: inout State) -> CheckedContinuation<Void, Never>? {
        guard let waiter = state.roomWaiter,
            state.buffered < Self.feedAhead || state.cancelled || state.ending != nil
        else { return nil }
        state.roomWaiter = nil
        return waiter
    }

    /// Starts appending a mocked stream's pieces, once.
    private func startFeeding(_ pieces: TimedPieces) {
        let starts = state.withLock { state -> Bool in
            guard !state.fed, !state.cancelled, state.ending == nil else { return false }
            state.fed = true
            return true
        }
        guard starts else { return }
        let feeder = Task {
            do {
                for try await piece in pieces {
                    append(piece)
                    await roomToFeed()
                }
                finish(nil)
            } catch {
                finish(error)
            }
        }
        let stopped = state.withLock { state -> Bool in
            state.feeder = feeder
            return state.cancelled || state.ending != nil
        }
        if stopped { feeder.cancel() }
    }

    /// Waits for the whole body (at most ``maximumBuffered`` bytes), blocking the calling thread.
    ///
    /// - Throws: what the stream failed with.
    package func collected() throws -> Data {
        var whole = Data()
        while true {
            switch next(waitingAtMost: .seconds(1)) {
            case .bytes(let piece):
                guard whole.count + piece.count <= Self.maximumBuffered else {
                    cancel()
                    throw Overflow(whole: true)
                }
                whole.append(piece)
            case .end: return whole
            case .failed(let error): throw error
            case .pending: continue
            }
        }
    }

    /// More bytes waited for the consumer than the stream holds, or than a task that takes a
    /// body whole holds (`whole`).
    struct Overflow: Error, CustomStringConvertible {
        let limit = BodyStream.maximumBuffered
        var whole = false

        var description: String {
            whole
                ? "more than \(limit / (1024 * 1024)) MiB arrived before the stream's end, more than a task that takes "
                    + "the body whole holds; read it with a session delegate, which takes it piece by piece"
                : "more than \(limit / (1024 * 1024)) MiB of the body waited for a client that read slower than "
                    + "the server sent"
        }
    }
}
