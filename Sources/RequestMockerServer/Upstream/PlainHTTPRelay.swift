import Foundation
import RequestMocker

/// Sends what a ``MockServer`` forwards to a plain-HTTP upstream itself: on the connection's own
/// thread, over connections it keeps open between requests, and with the body read from the
/// upstream only as fast as the client takes it. (`URLSession` on Linux took ten times as long
/// per request, and can't pause a transfer.) HTTPS upstreams, other hosts and recordings, whose
/// bodies are kept decoded, go through the pass-through session instead.
///
/// The response is relayed as the upstream sent it: status, fields (but the hop-by-hop ones)
/// and body bytes, `Content-Encoding` included.
final class PlainHTTPRelay: UpstreamRelay {
    private let host: String
    /// `host` as `URL.host` gives it, lowercased, to compare requests with.
    private let urlHost: String
    private let port: UInt16
    /// `Host` as the upstream expects it.
    private let authority: String
    /// Connections the upstream kept open, most recent last.
    private let idle = LockedState<[Socket]>([])
    /// The most idle connections kept.
    static let maximumIdle = 32

    /// A relay to `upstream`, or `nil` when it isn't `http` with a host.
    init?(upstream: URL) {
        guard upstream.scheme?.lowercased() == "http", let host = upstream.host, !host.isEmpty else { return nil }
        let port = upstream.port ?? 80
        guard let port16 = UInt16(exactly: port) else { return nil }
        self.host = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        urlHost = host.lowercased()
        self.port = port16
        let shownHost = self.host.bracketedIfIPv6
        authority = port == 80 ? shownHost : "\(shownHost):\(port)"
    }

    func relay(_ request: MockRequest, timeout: TimeInterval, recording: Bool) -> PendingOutcome? {
        guard !recording, request.url.scheme?.lowercased() == "http", request.url.host?.lowercased() == urlHost,
            (request.url.port ?? 80) == Int(port)
        else { return nil }
        return .inPlace { .ready(self.exchange(request, timeout: .milliseconds(Int64(max(timeout, 1) * 1000)))) }
    }

    private let stopping = LockedState(false)
    private var isStopping: Bool { stopping.withLock { $0 } }

    /// Makes exchanges under way give up within a tenth of a second (the server is stopping).
    func stop() {
        stopping.withLock { $0 = true }
    }

    /// Closes the kept connections (the server has stopped).
    func closeIdle() {
        for socket in idle.withLock({ idle in
            defer { idle = [] }
            return idle
        }) { socket.close() }
    }

    deinit {
        closeIdle()
    }

    // MARK: One exchange

    private struct Failed: Error {
        let code: URLError.Code
        let reason: String
    }

    private func exchange(_ request: MockRequest, timeout: Duration) -> Outcome {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        let head = requestHead(request)
        var attempt = 0
        while true {
            attempt += 1
            let reused = takeIdle()
            let socket: Socket
            if let reused {
                socket = reused
            } else {
                do {
                    socket = try Socket.connect(
                        host: host, port: port, timeout: min(timeout, .seconds(10)), interrupted: { self.isStopping })
                } catch {
                    let code: URLError.Code = error.code == ETIMEDOUT ? .timedOut : .cannotConnectToHost
                    let why = SocketPlatform.errorMessage(error.code).lowercased()
                    return failure(request, Failed(code: code, reason: "could not connect to \(authority): \(why)"))
                }
                socket.setSendTimeout(timeout)
            }
            do {
                return try exchange(request, head: head, on: socket, until: deadline, timeout: timeout)
            } catch let stale as Stale {
                socket.close()
                // A kept connection the upstream closed meanwhile: once more, on a new one, when
                // the request can't have been acted on (it wasn't sent, or it is idempotent).
                if reused != nil, attempt == 1, !stale.sent || request.method.isIdempotent { continue }
                let reason = "the server closed the connection before it answered"
                return failure(request, Failed(code: .networkConnectionLost, reason: reason))
            } catch let failed as Failed {
                socket.close()
                return failure(request, failed)
            } catch {
                socket.close()
                return failure(request, Failed(code: .networkConnectionLost, reason: "\(error)"))
            }
        }
    }

    /// The connection turned out closed before any of the response came; `sent` when the
    /// request was written.
    private struct Stale: Error {
        let sent: Bool
    }

    private func exchange(
        _ request: MockRequest, head: [UInt8], on socket: Socket, until deadline: ContinuousClock.Instant,
        timeout: Duration
    ) throws -> Outcome {
        do {
            if let body = request.body, !body.isEmpty {
                try socket.write(head + body)
            } else {
                try socket.write(head)
            }
        } catch {
            throw Stale(sent: false)
        }
        let clock = ContinuousClock()
        var buffer: [UInt8] = []
        var start = 0
        while true {
            do {
                if let (parsed, end) = try UpstreamResponseHead.parse(buffer, from: start) {
                    start = end
                    // An interim response (100 Continue) is followed by the real one.
                    if parsed.status == .switchingProtocols {
                        throw Failed(
                            code: .badServerResponse,
                            reason: "the server switched protocols (101), which can't be relayed")
                    }
                    if parsed.status.kind == .informational { continue }
                    return try response(
                        parsed, request: request, socket: socket, buffer: buffer, start: start, timeout: timeout)
                }
            } catch let invalid as UpstreamResponseHead.Invalid {
                throw Failed(code: .badServerResponse, reason: "the server's response was not HTTP: \(invalid.reason)")
            }
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { throw Failed(code: .timedOut, reason: "the request timed out") }
            // In slices, so a server that stops doesn't wait out a slow upstream.
            guard socket.waitReadable(timeout: min(remaining, .milliseconds(100))) != .timedOut else {
                if isStopping { throw Failed(code: .cancelled, reason: "the server is stopping") }
                continue
            }
            let count: Int
            do {
                count = try socket.read(appendingTo: &buffer)
            } catch {
                if buffer.isEmpty { throw Stale(sent: true) }
                throw Failed(code: .networkConnectionLost, reason: "the connection was lost (\(error))")
            }
            if count == 0 {
                if buffer.isEmpty { throw Stale(sent: true) }
                throw Failed(code: .networkConnectionLost, reason: "the server closed the connection in the head")
            }
        }
    }

    private func response(
        _ head: UpstreamResponseHead, request: MockRequest, socket: Socket, buffer: [UInt8], start: Int,
        timeout: Duration
    ) throws -> Outcome {
        let framing: UpstreamResponseHead.Framing
        do {
            framing = try head.framing(for: request.method)
        } catch {
            throw Failed(code: .badServerResponse, reason: "the server's response was not HTTP: \(error.reason)")
        }
        var headers = head.headers.endToEnd()
        if case .length = framing {} else if request.method != .head { headers = headers.removing([.contentLength]) }
        let expected: Int? =
            switch framing {
            case .none: 0
            case .length(let length): length
            case .chunked, .close: nil
            }
        // The usual API answer: the whole body came with the head, and nothing after it. It is
        // handed over as bytes (written with the head in one go) and the connection goes back
        // at once, instead of through a stream.
        if let expected, buffer.count - start == expected {
            if head.keepsAlive { giveBack(socket) } else { socket.close() }
            let body = ResponseBody.bytes(Data(buffer[start...]))
            return Outcome(
                .response(
                    ResolvedResponse(
                        status: head.status, httpVersion: "HTTP/1.1", headers: headers, body: body, relayed: true
                    )))
        }
        let reader = UpstreamBody(
            socket: socket, framing: framing, buffer: buffer, start: start, keepsAlive: head.keepsAlive,
            timeout: timeout, relay: self)
        let stream = BodyStream(
            expectedLength: expected, pull: { reader.next(waitingAtMost: $0) }, onCancel: { reader.cancel() })
        return Outcome(
            .response(
                ResolvedResponse(
                    status: head.status, httpVersion: "HTTP/1.1", headers: headers, body: .stream(stream),
                    relayed: true))
        )
    }

    private func failure(_ request: MockRequest, _ failed: Failed) -> Outcome {
        Outcome(.refusal(.forwardFailed(request, error: URLError(failed.code), reason: failed.reason)))
    }

    /// The request line and fields: the target in origin form, `Host` rewritten, the body framed
    /// by its length, and the connection kept open.
    private func requestHead(_ request: MockRequest) -> [UInt8] {
        let path = request.url.path(percentEncoded: true)
        let query = request.url.query(percentEncoded: true).map { "?" + $0 } ?? ""
        var text = "\(request.method.rawValue) \(path.isEmpty ? "/" : path)\(query) HTTP/1.1\r\nHost: \(authority)\r\n"
        for field in request.headers.endToEnd().removing([.host, .contentLength, .expect]) {
            text += "\(field.name.rawValue): \(field.value)\r\n"
        }
        let length = request.body?.count ?? 0
        if length > 0 || [.post, .put, .patch].contains(request.method) { text += "Content-Length: \(length)\r\n" }
        return Array((text + "\r\n").utf8)
    }

    // MARK: Kept connections

    private func takeIdle() -> Socket? {
        while let socket = idle.withLock({ $0.popLast() }) {
            // One the upstream closed (or that has stray input) is no use.
            if socket.waitReadable(timeout: .zero) == .timedOut { return socket }
            socket.close()
        }
        return nil
    }

    /// Keeps `socket` for the next request, when there is room.
    func giveBack(_ socket: Socket) {
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < Self.maximumIdle else { return false }
            idle.append(socket)
            return true
        }
        if !kept { socket.close() }
    }
}

/// The body of one relayed response, read from the upstream's socket as the client takes it.
/// Only the connection's thread reads it; `cancel()` may come from another.
private final class UpstreamBody: @unchecked Sendable {
    // @unchecked Sendable: the reading state is touched only by the one thread that pulls the
    // body; what `cancel()` (from any thread) needs is in `ownership`, under its lock.
    private let socket: Socket
    private var framing: UpstreamResponseHead.Framing
    private var buffer: [UInt8]
    private var start: Int
    private let keepsAlive: Bool
    private let timeout: Duration
    private let relay: PlainHTTPRelay
    private var decoder = ChunkedBodyDecoder(maximumBody: Int.max / 4)
    /// Whether the socket was given back or closed (after which it is no longer this body's to
    /// touch), and whether the body was cancelled.
    private struct Ownership: Sendable {
        var released = false
        var cancelled = false
    }

    private let ownership = LockedState(Ownership())
    private var released: Bool { ownership.withLock { $0.released } }
    private let clock = ContinuousClock()
    /// When the body last made progress; from the first ask for it, not from when the head
    /// came: a delayed pass-through holds the head back first, as long as it says.
    private var lastProgress: ContinuousClock.Instant?

    init(
        socket: Socket, framing: UpstreamResponseHead.Framing, buffer: [UInt8], start: Int, keepsAlive: Bool,
        timeout: Duration, relay: PlainHTTPRelay
    ) {
        self.socket = socket
        self.framing = framing
        self.buffer = buffer
        self.start = start
        self.keepsAlive = keepsAlive
        self.timeout = timeout
        self.relay = relay
        if framing == .none { finish(reusable: start == buffer.count) }
    }

    func next(waitingAtMost wait: Duration) -> BodyStream.Next {
        while true {
            if let piece = takeBuffered() { return piece }
            if released { return .end }
            let since = lastProgress ?? clock.now
            lastProgress = since
            let remaining = clock.now.duration(to: since + timeout)
            guard remaining > .zero else {
                fail()
                return .failed(URLError(.timedOut))
            }
            if socket.waitReadable(timeout: min(wait, remaining)) == .timedOut { return .pending }
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            let count: Int
            do {
                count = try socket.read(appendingTo: &buffer)
            } catch {
                fail()
                return .failed(URLError(.networkConnectionLost))
            }
            lastProgress = clock.now
            if count == 0 {
                // The end of a body that runs until the upstream closes, unless the close is
                // our own `cancel()`.
                if framing == .close, !ownership.withLock({ $0.cancelled }) {
                    finish(reusable: false)
                    return .end
                }
                fail()
                return .failed(
                    URLError(
                        .networkConnectionLost,
                        userInfo: [
                            NSLocalizedDescriptionKey: "the upstream closed the connection before the body's end"
                        ]))
            }
        }
    }

    /// Bytes of the body already read, or the end once the framing says the body is complete.
    private func takeBuffered() -> BodyStream.Next? {
        switch framing {
        case .none:
            return released ? .end : nil
        case .length(let remaining):
            if remaining == 0 {
                finish(reusable: start == buffer.count)
                return .end
            }
            guard start < buffer.count else { return nil }
            let take = min(remaining, buffer.count - start)
            let piece = Data(buffer[start..<(start + take)])
            start += take
            framing = .length(remaining - take)
            if remaining == take { finish(reusable: start == buffer.count) }
            return .bytes(piece)
        case .chunked:
            do {
                try decoder.consume(buffer, from: &start)
            } catch {
                fail()
                return .failed(URLError(.badServerResponse, userInfo: [NSLocalizedDescriptionKey: error.reason]))
            }
            let decoded = decoder.takeBody()
            if decoder.isComplete, !released { finish(reusable: start == buffer.count) }
            if !decoded.isEmpty { return .bytes(Data(decoded)) }
            return decoder.isComplete ? .end : nil
        case .close:
            guard start < buffer.count else { return nil }
            defer { start = buffer.count }
            return .bytes(Data(buffer[start...]))
        }
    }

    /// The body is complete: the connection goes back for the next request when it can. Under
    /// the lock, so a `cancel()` can't touch the socket once another request may have it.
    private func finish(reusable: Bool) {
        ownership.withLock { ownership in
            guard !ownership.released else { return }
            ownership.released = true
            if reusable, keepsAlive, !ownership.cancelled { relay.giveBack(socket) } else { socket.close() }
        }
    }

    private func fail() {
        finish(reusable: false)
    }

    /// Wakes a waiting read, if the socket is still this body's; the reading thread then fails
    /// and closes it.
    func cancel() {
        ownership.withLock { ownership in
            ownership.cancelled = true
            if !ownership.released { socket.shutdown() }
        }
    }

    deinit {
        if !ownership.withLock({ $0.released }) { socket.close() }
    }
}
