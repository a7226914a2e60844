import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// One client connection of a ``MockServer``: reads requests one after another (keep-alive),
/// answers each from the registry, and ends on `Connection: close`, an error, a timeout, or
/// `stop()`. Runs on the connection's own thread, with blocking I/O.
struct HTTPConnection {
    let connection: PooledConnection
    let server: MockServer
    let parser: RequestHeadParser
    private let forwarding: Forwarding
    /// The server's admin API, when it has one, and whether it has an upstream: read once, not
    /// per request.
    private let admin: MockServer.Admin?
    private let hasUpstream: Bool
    let clock = ContinuousClock()
    /// Input received and not yet consumed, from `start` on.
    var buffer: [UInt8] = []
    var start = 0
    /// The socket's receive timeout as last set (see `fill(until:)`).
    var receiveTimeout: Duration?

    init(connection: PooledConnection, server: MockServer) {
        self.connection = connection
        self.server = server
        let configuration = server.configuration
        parser = RequestHeadParser(
            maximumRequestLine: configuration.maximumRequestLineLength,
            maximumHead: configuration.maximumHeaderSize,
            maximumBody: configuration.maximumBodySize
        )
        forwarding = server.forwarding
        admin = configuration.admin
        hasUpstream = configuration.upstream != nil
        connection.socket.setSendTimeout(configuration.sendTimeout)
    }

    var socket: Socket { connection.socket }

    mutating func run() {
        while !connection.isStopping {
            let arrival = clock.now
            let incoming: (RequestHead, Data?)
            switch readRequest() {
            case .request(let head, let body): incoming = (head, body)
            case .refused(let rejection): return refuse(rejection, since: arrival)
            case .ended: return
            }
            guard answer(incoming.0, body: incoming.1, since: arrival) else { return }
            if start == buffer.count {
                buffer.removeAll(keepingCapacity: buffer.capacity <= 1024 * 1024)
                start = 0
            } else if start > 64 * 1024 {
                // Pipelined input keeps the buffer from ever emptying: drop what was consumed.
                buffer.removeFirst(start)
                start = 0
            }
        }
    }

    // MARK: Refusing

    private func refuse(_ rejection: Rejection, since arrival: ContinuousClock.Instant) {
        try? socket.write(ResponseHead.plain(status: rejection.status, message: rejection.reason, closing: true))
        report(nil, nil, .refused(status: rejection.status, reason: rejection.reason), since: arrival)
    }

    /// Reports a finished exchange: to the journal (how it ended), the dashboard (with the
    /// `response` sent, and a relayed body's first bytes) and the `onRequest` handler.
    func report(
        _ request: MockRequest?, _ entry: JournalEntry?, _ outcome: ServedRequest.Outcome,
        since arrival: ContinuousClock.Instant, refusal: String? = nil, response: ResolvedResponse? = nil,
        relayed: (prefix: Data, size: Int)? = nil
    ) {
        if let entry { server.registry.complete(entry, outcome.completion(refusal: refusal)) }
        let dashboard = request.map(AdminAPI.handles) == true ? nil : server.dashboard
        guard dashboard != nil || server.onRequest != nil else { return }
        var served = ServedRequest(
            request: request, journalEntry: entry, outcome: outcome, duration: arrival.duration(to: clock.now),
            hasUpstream: hasUpstream, refusal: refusal)
        // What the request asked of a contract that a source before it answered instead.
        if case .answered? = entry?.disposition, entry?.contractAnswer == nil, let request,
            let preferred = Preferences.shown(for: request), server.registry.servesContract
        {
            served.unappliedPreferences = preferred
        }
        if let dashboard {
            let kept = DashboardExchange.Kept(response: response, relayed: relayed)
            dashboard.record { id in DashboardExchange(id: id, served: served, kept: kept, stubs: server.stubStore) }
        }
        server.onRequest?(served)
    }

    // MARK: Answering

    /// Answers one request. Returns whether the connection stays open for another.
    private mutating func answer(_ head: RequestHead, body: Data?, since arrival: ContinuousClock.Instant) -> Bool {
        let request: MockRequest
        switch makeRequest(head, body: body) {
        case .success(let made): request = made
        case .failure(let rejection):
            refuse(rejection, since: arrival)
            return false
        }
        if let admin, AdminAPI.handles(request) {
            let response = AdminAPI.answer(request, server: server, admin: admin)
            return send(response, head: head, request: request, entry: nil, since: arrival)
        }
        if request.headers.values(for: MockServer.forwardedByHeader).contains(server.identity) {
            // This server forwarded it to itself under a name `isSelf` didn't recognise. The
            // journal already has it, as the request that was passed through.
            return refuse(.loop(request), head: head, request: request, entry: nil, since: arrival)
        }
        let (first, entry) = server.registry.answer(request, forwarding: forwarding)
        var pending = first
        let deadline = arrival + server.configuration.responseTimeout
        while true {
            let waited: PooledConnection.Waited<PendingOutcome>
            switch pending {
            case .ready(let outcome):
                return carry(
                    outcome, head: head, request: request, entry: entry, since: arrival, leftover: buffer[start...])
            case .pending(let work):
                waited = connection.wait(for: { .ready(await work()) }, until: deadline)
            case .blocking(let work):
                waited = connection.wait(blocking: work, until: deadline)
            case .inPlace(let work):
                waited = .value(work())
            }
            switch waited {
            case .value(let next):
                pending = next
            case .stopped, .clientLeft:
                report(request, entry, .abandoned, since: arrival)
                return false
            case .overloaded:
                return refuse(
                    .tooManyBlocks(SocketPool.maximumBlockThreads), head: head, request: request, entry: entry,
                    since: arrival)
            case .timedOut:
                // The work may still be running: the connection closes rather than wait for it.
                var closing = head
                closing.headers.replace(.connection, with: "close")
                let refusal = Refusal.answerTimedOut(after: server.configuration.responseTimeout)
                _ = refuse(refusal, head: closing, request: request, entry: entry, since: arrival)
                return false
            }
        }
    }

    /// Writes a ready outcome, after its delay. Returns whether the connection stays open.
    /// `leftover` is what the client sent after the request, which a WebSocket reads next.
    private func carry(
        _ outcome: Outcome, head: RequestHead, request: MockRequest, entry: JournalEntry?,
        since arrival: ContinuousClock.Instant, leftover: ArraySlice<UInt8>
    ) -> Bool {
        if outcome.delay > .zero, !connection.pause(outcome.delay) {
            report(request, entry, .abandoned, since: arrival)
            return false
        }
        // How each outcome goes onto the wire: see `Outcome`.
        switch outcome.result {
        case .response(let response):
            return send(response, head: head, request: request, entry: entry, since: arrival)
        case .fault(let fault):
            perform(fault)
            report(request, entry, .fault(fault), since: arrival)
            return false
        case .error(let error):
            connection.finish(.reset)
            report(request, entry, .reset(reason: "\(error)"), since: arrival)
            return false
        case .refusal(let refusal):
            return refuse(refusal, head: head, request: request, entry: entry, since: arrival)
        case .webSocket(let upgrade):
            return switchToWebSocket(
                upgrade, head: head, request: request, entry: entry, since: arrival, leftover: leftover)
        }
    }

    private func makeRequest(_ head: RequestHead, body: Data?) -> Result<MockRequest, Rejection> {
        do {
            let url = try RequestTarget.url(
                of: head,
                fallbackAuthority: server.baseURL.flatMap { base -> String? in
                    guard let host = base.host, let port = base.port else { return nil }
                    return "\(host.bracketedIfIPv6):\(port)"
                })
            return .success(MockRequest(method: head.method, url: url, headers: head.headers, body: body))
        } catch {
            return .failure(error)
        }
    }

    /// Answers a refusal as `text/plain` with its status and message (see `Outcome`).
    func refuse(
        _ refusal: Refusal, head: RequestHead, request: MockRequest, entry: JournalEntry?,
        since arrival: ContinuousClock.Instant
    ) -> Bool {
        let response = ResponseHead.plainText(status: refusal.status, message: refusal.message)
        return send(response, head: head, request: request, entry: entry, since: arrival, refusal: refusal.message)
    }

    // MARK: Writing

    func connectionHeader(_ closing: Bool, _ head: RequestHead) -> String? {
        closing ? "close" : (head.minorVersion == 0 ? "keep-alive" : nil)
    }

    private func send(
        _ response: ResolvedResponse, head: RequestHead, request: MockRequest, entry: JournalEntry?,
        since arrival: ContinuousClock.Instant, refusal: String? = nil
    ) -> Bool {
        let sendsBody = head.method != .head && !response.status.forbidsBody
        if case .stream(let stream) = response.body {
            return relay(
                stream, response, sendsBody: sendsBody, head: head, request: request, entry: entry, since: arrival)
        }
        let length = response.body.count ?? 0
        let limit = sendsBody ? min(length, response.transfer.truncatedAfter ?? length) : 0
        let cutShort = sendsBody && limit < length
        let closing =
            !head.keepAlive || connection.isStopping || cutShort || response.httpVersion == "HTTP/1.0"
            || response.headers.contains(token: "close", in: .connection)
        // Open a file before the head goes out, so a file that vanished still gets a clean 500.
        var file: FileHandle?
        if sendsBody, case .file(let slice) = response.body {
            do {
                file = try slice.open()
            } catch {
                let failure = RequestMockerError.fileNotReadable(path: slice.url.path, reason: FileSlice.reason(error))
                return refuse(Refusal(failure), head: head, request: request, entry: entry, since: arrival)
            }
        }
        defer { try? file?.close() }
        var bytes = ResponseHead.bytes(
            status: response.status, version: response.httpVersion, headers: response.headers,
            connection: connectionHeader(closing, head)
        )
        let complete: Bool
        if case .bytes(let data) = response.body, response.transfer.bytesPerSecond == nil, limit <= 64 * 1024 {
            // The common case: head and body in one write.
            bytes.append(contentsOf: data.prefix(limit))
            complete = (try? socket.write(bytes)) != nil
        } else {
            complete = (try? socket.write(bytes)) != nil && sendBody(response, file: file, limit: limit)
        }
        guard complete else {
            report(request, entry, .abandoned, since: arrival)
            return false
        }
        guard !cutShort else {
            // The client sees a body that ends early, as the URL protocol fails it.
            let reason = "cut short after \(limit) of \(length) bytes (truncated(afterBytes:))"
            report(
                request, entry, .brokeOff(status: response.status, reason: reason), since: arrival, response: response)
            return false
        }
        report(
            request, entry, .responded(status: response.status), since: arrival, refusal: refusal, response: response)
        return !closing
    }

    // MARK: Faults

    private func perform(_ fault: ConnectionFault) {
        switch fault.kind {
        case .closeBeforeResponding:
            connection.finish(.close)
        case .reset:
            connection.finish(.reset)
        case .malformedStatusLine:
            try? socket.write(Array("HTTP/1.1 TWO-HUNDRED OK\r\nContent-Length: 0\r\n\r\n".utf8))
            connection.finish(.close)
        case .stall:
            // Until the client gives up (or half-closes: a stall never answers anyway) or the
            // server stops.
            _ = connection.pause(nil, endingOnPeerFinish: true)
            connection.finish(.close)
        }
    }
}
