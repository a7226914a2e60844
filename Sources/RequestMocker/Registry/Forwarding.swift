/// How a transport sends on the requests its registry passes through or records.
package struct Forwarding: Sendable {
    /// How long the real server may take.
    package var timeout: TimeInterval
    /// A header field added to forwarded requests: the loopback server marks its own, to
    /// recognise them if they come back under a name it doesn't know.
    package var mark: HTTPHeaders.Field?
    /// Whether a request to this URL would come back to the transport itself.
    package var loopsBack: @Sendable (URL) -> Bool
    /// Whether synchronous blocks run on a thread of their own, so that the transport can give
    /// up on one that never returns (the server: its connection thread must stay free to see the
    /// client leave; the URL protocol: see `makesSlowAnswersElsewhere`).
    package var runsBlocksOnTheirOwnThread = false
    /// Whether an answer that takes time to make (a synchronous block, a contract's generated
    /// body, a mock-data file read and parsed) is made on a thread of its own. The URL protocol
    /// does: it is asked on URL loading's one queue, which every session in the process shares,
    /// so an answer made there would hold up every other session's requests. The server makes
    /// them on the connection's own thread, which holds up no one else.
    package var makesSlowAnswersElsewhere = false
    /// Whether forwarded bodies are handed on as they arrive (the server relays each piece) or
    /// whole (the URL protocol delivers them at once).
    package var streamsBodies = false
    /// Where requests the registry passes through or records go, when not to their own URL: a
    /// server's upstream, under whose base path their path and query are appended.
    package var upstream: URL? {
        didSet { upstreamBase = upstream.flatMap(Base.init) }
    }
    /// `upstream`, parsed once rather than for every request.
    private var upstreamBase: Base?
    /// Whether, without an upstream, what is passed through goes to its own URL on the network;
    /// `false` refuses it (`502`) instead.
    package var reachesTheNetwork = true
    /// Carries forwarded requests itself where it can (the server's relay to a plain-HTTP
    /// upstream); what it declines goes through the pass-through session.
    package var relay: (any UpstreamRelay)?

    package init(
        timeout: TimeInterval, mark: HTTPHeaders.Field? = nil,
        loopsBack: @escaping @Sendable (URL) -> Bool = { _ in false }
    ) {
        self.timeout = timeout
        self.mark = mark
        self.loopsBack = loopsBack
    }

    /// Forwards `request` to the real network, or to the transport's upstream when it has one
    /// (recording it, with a ticket), unless it would come back to the transport itself.
    package func passThrough(_ request: MockRequest, recording ticket: RecordingTicket?) -> PendingOutcome {
        var sent = request
        if let upstream {
            guard let rebased = upstreamBase?.rebased(request) else {
                let error = RequestMockerError.invalidForward(
                    base: upstream.absoluteString, request: request.description)
                return .ready(Outcome(.refusal(Refusal(error))))
            }
            // Recorded as the client asked (a cassette matches the next run's requests by path,
            // which the upstream's base path would change).
            sent = rebased
        } else if !reachesTheNetwork {
            return .ready(Outcome(.refusal(.needsUpstream(request))))
        }
        if loopsBack(sent.url) {
            return .ready(Outcome(.refusal(.loop(request))))
        }
        let outgoing = marked(sent)
        if let relayed = relay?.relay(outgoing, timeout: timeout, recording: ticket != nil) {
            return relayed
        }
        let (timeout, streams) = (self.timeout, streamsBodies)
        var ticket = ticket
        ticket?.upstream = upstream
        return .pending { [ticket] in
            guard let ticket else {
                return await Forwarder.outcome(for: outgoing, timeout: timeout, streams: streams)
            }
            return await ticket.forwardAndRecord(outgoing, timeout: timeout, streams: streams)
        }
    }

    /// `request` as it is sent on: with the mark, when there is one.
    func marked(_ request: MockRequest) -> MockRequest {
        guard let mark else { return request }
        var headers = request.headers
        headers.add(mark.name, mark.value)
        return MockRequest(method: request.method, url: request.url, headers: headers, body: request.body)
    }

    /// `request` sent to another server: to `base` with its path and query appended, and without
    /// its `Host` (the session sets the new one). `nil` when `base` isn't an absolute http(s) URL.
    static func rebased(_ request: MockRequest, under base: URL) -> MockRequest? {
        Base(base)?.rebased(request)
    }

    /// A base URL requests are sent on under: its scheme, authority and path, without a final
    /// `/`, as text that a request's path and query are appended to. (Putting the URL together
    /// from text costs a quarter of what setting `URLComponents`' parts does.)
    struct Base {
        private let prefix: String

        /// `nil` when `base` isn't an absolute http(s) URL.
        init?(_ base: URL) {
            guard var components = URLComponents(url: base, resolvingAgainstBaseURL: true),
                let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
                components.host != nil
            else { return nil }
            if components.percentEncodedPath.hasSuffix("/") { components.percentEncodedPath.removeLast() }
            components.percentEncodedQuery = nil
            components.percentEncodedFragment = nil
            guard let prefix = components.string else { return nil }
            self.prefix = prefix
        }

        func rebased(_ request: MockRequest) -> MockRequest? {
            // A path without its `/` (`http:foo`, built by hand) would run into the authority.
            guard request.path.hasPrefix("/") else { return nil }
            let query = request.url.query(percentEncoded: true).map { "?" + $0 } ?? ""
            guard let target = URL(string: prefix + request.path + query) else { return nil }
            return MockRequest(
                method: request.method, url: target, headers: request.headers.removing([.host]), body: request.body)
        }
    }
}

/// A transport's own way to send a forwarded request (see ``Forwarding/relay``).
package protocol UpstreamRelay: Sendable {
    /// The outcome of sending `request` (already addressed, marked and without its `Host`), or
    /// `nil` to leave it to the pass-through session: a request this relay can't reach, or one
    /// to record (recordings hold bodies decoded, which the session does).
    func relay(_ request: MockRequest, timeout: TimeInterval, recording: Bool) -> PendingOutcome?
}
