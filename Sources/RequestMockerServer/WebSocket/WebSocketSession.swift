import Foundation
import RequestMocker

/// One WebSocket connection after its handshake, on the connection's own thread: plays the
/// script, answers pings, reassembles fragmented messages, holds the client to RFC 6455 (masked
/// frames, UTF-8 text, the message size), follows the closing handshake, and records every frame
/// in the transcript.
struct WebSocketSession {
    let connection: PooledConnection
    let upgrade: WebSocketUpgrade
    /// How long the client may send nothing before the server closes (1001).
    let idleTimeout: Duration
    /// Input received and not yet consumed, from `start` on: what came after the handshake.
    private var buffer: [UInt8]
    private var start = 0
    /// A message whose first frames arrived, and its bytes so far.
    private var message: (opcode: WebSocketFrame.Opcode, bytes: [UInt8])?
    private var received = 0
    private var sent = 0
    private let clock = ContinuousClock()

    init(connection: PooledConnection, upgrade: WebSocketUpgrade, idleTimeout: Duration, leftover: ArraySlice<UInt8>) {
        self.connection = connection
        self.upgrade = upgrade
        self.idleTimeout = idleTimeout
        buffer = Array(leftover)
    }

    /// How a session ended: the close code of the closing handshake (`nil` when the
    /// connection ended without one), and the messages each way.
    struct Ending: Equatable {
        let closeCode: Int?
        let received: Int
        let sent: Int
    }

    private var script: WebSocketScript { upgrade.script }
    private var socket: Socket { connection.socket }

    /// Runs the connection to its end.
    mutating func run() -> Ending {
        let conversation = script.conversation?()
        if case .ended(let code) = perform(script.onConnect, answering: nil, groups: []) { return ending(code) }
        while true {
            let frame: WebSocketFrame
            let idleAt = clock.now + idleTimeout
            let due = conversation?.nextDue
            switch nextFrame(until: due.map { min($0, idleAt) } ?? idleAt) {
            case .frame(let next): frame = next
            case .violation(let violation): return ending(close(code: violation.code, reason: violation.reason))
            case .idle:
                // Woken for what the conversation has due (a poll may wake a little early).
                if let conversation, let due, due < idleAt {
                    guard clock.now >= due else { continue }
                    let actions = conversation.due(at: clock.now)
                    if case .ended(let code) = perform(actions, answering: nil, groups: [], literally: true) {
                        return ending(code)
                    }
                    continue
                }
                return ending(close(code: 1001, reason: "nothing arrived for \(idleTimeout)"))
            case .ended:
                connection.finish(.close)
                return ending(nil)
            }
            record(frame, .received)
            switch frame.opcode {
            case .ping:
                guard write(WebSocketFrame(isFinal: true, opcode: .pong, payload: frame.payload)) else {
                    return ending(nil)
                }
            case .pong:
                continue
            case .close:
                return ending(answerClose(frame))
            case .text, .binary, .continuation:
                switch assemble(frame) {
                case .incomplete:
                    continue
                case .violation(let violation):
                    return ending(close(code: violation.code, reason: violation.reason))
                case .complete(let complete):
                    received += 1
                    if let conversation {
                        let actions = conversation.receive(complete)
                        if case .ended(let code) = perform(actions, answering: complete, groups: [], literally: true) {
                            return ending(code)
                        }
                        continue
                    }
                    guard let (actions, groups) = script.answer(to: complete) else {
                        return ending(close(code: 1008, reason: "no rule of the script matches the message"))
                    }
                    if case .ended(let code) = perform(actions, answering: complete, groups: groups) {
                        return ending(code)
                    }
                }
            }
        }
    }

    private func ending(_ code: Int?) -> Ending {
        Ending(closeCode: code, received: received, sent: sent)
    }

    // MARK: Reading

    private enum Read {
        case frame(WebSocketFrame)
        case violation(WebSocketFrame.Violation)
        /// Nothing for `idleTimeout`.
        case idle
        /// The client left, or the server is stopping.
        case ended
    }

    private mutating func nextFrame(until deadline: ContinuousClock.Instant? = nil) -> Read {
        let deadline = deadline ?? clock.now + idleTimeout
        // Told to the pool only when reading has to wait: a connection waiting for its client
        // gives way to a new one when the server is full, as an idle HTTP connection does.
        var toldIdle = false
        defer { if toldIdle { connection.setPhase(nil) } }
        while true {
            do {
                // What a data frame may still add to the message under way.
                let room = script.maximumMessageSize - (message?.bytes.count ?? 0)
                if let (frame, end) = try WebSocketFrame.parse(buffer, from: start, maximumPayload: room) {
                    start = end
                    if start == buffer.count {
                        buffer.removeAll(keepingCapacity: buffer.capacity <= 1024 * 1024)
                        start = 0
                    }
                    return .frame(frame)
                }
            } catch  where error == WebSocketFrame.tooBig {
                return .violation(
                    WebSocketFrame.Violation(code: 1009, reason: "a message is over \(script.maximumMessageSize) bytes")
                )
            } catch {
                return .violation(error)
            }
            if connection.isStopping { return .ended }
            if !toldIdle {
                connection.setPhase(.idle(since: clock.now))
                toldIdle = true
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return .idle }
            switch socket.waitReadable(timeout: remaining) {
            case .timedOut: return .idle
            case .hungUp: return .ended
            case .readable: break
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            guard let count = try? socket.read(appendingTo: &buffer), count > 0 else { return .ended }
        }
    }

    private enum Assembled {
        case incomplete
        case complete(WebSocketMessage)
        case violation(WebSocketFrame.Violation)
    }

    /// Adds a data frame to the message under way.
    private mutating func assemble(_ frame: WebSocketFrame) -> Assembled {
        switch (frame.opcode, message) {
        case (.continuation, nil):
            return .violation(.protocolError("a continuation frame arrived with no message to continue"))
        case (.text, _?), (.binary, _?):
            return .violation(.protocolError("a new message began before the last one ended"))
        case (.continuation, _?):
            // `parse` held the frame to the room the message had left.
            message?.bytes.append(contentsOf: frame.payload)
        default:
            message = (frame.opcode, frame.payload)
        }
        guard frame.isFinal, let (opcode, bytes) = message else { return .incomplete }
        message = nil
        guard opcode == .text else { return .complete(.binary(Data(bytes))) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .violation(WebSocketFrame.Violation(code: 1007, reason: "a text message must be UTF-8"))
        }
        return .complete(.text(text))
    }

    // MARK: Writing

    /// Whether the connection goes on after some actions.
    private enum Flow {
        case goOn
        /// It ended: with the close code of its closing handshake, or `nil` without one.
        case ended(Int?)
    }

    /// Runs actions, each message substituted with `groups`.
    /// Sends `actions`; `literally` for a conversation's text, which has no `$` groups.
    private mutating func perform(
        _ actions: [WebSocketScript.Action], answering message: WebSocketMessage?, groups: [String],
        literally: Bool = false
    ) -> Flow {
        for action in actions {
            let frame: WebSocketFrame
            switch action {
            case .text(let template):
                let text = literally ? template : DollarSubstitution.apply(to: template, groups: groups)
                frame = WebSocketFrame(isFinal: true, opcode: .text, payload: Array(text.utf8))
            case .binary(let data):
                frame = WebSocketFrame(isFinal: true, opcode: .binary, payload: Array(data))
            case .echo:
                switch message {
                case .text(let text)?: frame = WebSocketFrame(isFinal: true, opcode: .text, payload: Array(text.utf8))
                case .binary(let data)?: frame = WebSocketFrame(isFinal: true, opcode: .binary, payload: Array(data))
                case nil: continue
                }
            case .pause(let duration):
                guard connection.pause(duration) else {
                    connection.finish(.close)
                    return .ended(nil)
                }
                continue
            case .close(let code, let reason):
                return .ended(close(code: code, reason: reason))
            }
            guard write(frame) else { return .ended(nil) }
            sent += 1
        }
        return .goOn
    }

    private mutating func write(_ frame: WebSocketFrame) -> Bool {
        guard (try? socket.write(frame.encoded())) != nil else {
            connection.finish(.close)
            return false
        }
        record(frame, .sent)
        return true
    }

    private func record(_ frame: WebSocketFrame, _ direction: WebSocketTranscript.Frame.Direction) {
        upgrade.transcript.record(direction, frame.transcriptKind, isFinal: frame.isFinal, payload: frame.payload)
    }

    // MARK: Closing

    /// The server starts the closing handshake: sends its close frame, reads (and drops) what
    /// the client still sends until its close frame comes, for at most two seconds, and closes
    /// the connection. Returns `code`.
    private mutating func close(code: Int, reason: String) -> Int {
        guard write(.close(code: code, reason: reason)) else { return code }
        let deadline = clock.now + .seconds(2)
        waiting: while true {
            switch nextFrame(until: deadline) {
            case .frame(let frame):
                record(frame, .received)
                if frame.opcode == .close { break waiting }
            case .violation, .idle, .ended:
                break waiting
            }
        }
        connection.finish(.close)
        return code
    }

    /// The client started the closing handshake: the server answers with the same code (or an
    /// empty close frame when it gave none) and closes the connection. A close frame that breaks
    /// the rules is answered with the code that says so. Returns the code the server sent.
    private mutating func answerClose(_ frame: WebSocketFrame) -> Int? {
        let answer: WebSocketFrame
        var code: Int?
        do {
            let status = try frame.closeStatus()
            code = status.code
            answer =
                status.code.map { WebSocketFrame.close(code: $0, reason: "") }
                ?? WebSocketFrame(isFinal: true, opcode: .close, payload: [])
        } catch {
            code = error.code
            answer = .close(code: error.code, reason: error.reason)
        }
        _ = write(answer)
        connection.finish(.close)
        return code
    }
}
