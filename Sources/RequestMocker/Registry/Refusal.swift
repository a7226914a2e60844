/// A request the mocks can't answer as asked: unmatched, a mistake in the mocks, or a failed
/// forward. The server answers it with `status` and `message`; the URL protocol fails with `error`.
package struct Refusal: Sendable {
    package let status: HTTPStatus
    package let error: any Error
    package let message: String

    package init(status: HTTPStatus, error: any Error, message: String) {
        self.status = status
        self.error = error
        self.message = message
    }

    /// `404` for an unmatched request (the body is the report), `503` for mock data that could not
    /// be read just now, `500` for any other mistake.
    package init(_ mistake: RequestMockerError) {
        switch mistake {
        case .unmatched: self.init(status: .notFound, error: mistake, message: "\(mistake)")
        case .mockDataUnavailable: self.init(status: .serviceUnavailable, error: mistake, message: "\(mistake)")
        default: self.init(status: .internalServerError, error: mistake, message: "\(mistake)")
        }
    }

    /// `504`: the answer wasn't ready within the server's response timeout.
    package static func answerTimedOut(after timeout: Duration) -> Refusal {
        Refusal(
            status: .gatewayTimeout, error: URLError(.timedOut),
            message: "the answer was not ready within the server's response timeout of \(timeout)")
    }

    /// `400`: a WebSocket handshake in an HTTP/1.0 request, which can't switch protocols.
    package static let webSocketNeedsHTTP11 = Refusal(
        status: .badRequest, error: URLError(.badURL), message: "a WebSocket handshake needs HTTP/1.1")

    /// `503`: the server is already running as many synchronous blocks as it allows.
    package static func tooManyBlocks(_ limit: Int) -> Refusal {
        Refusal(
            status: .serviceUnavailable, error: URLError(.cannotLoadFromNetwork),
            message: "\(limit) synchronous blocks are still running, the most the server runs at once; "
                + "a block that never returns keeps its place (make slow blocks async)")
    }

    /// `502`: sending `request` on failed, for `reason` (the transport's error: `error`).
    package static func forwardFailed(_ request: MockRequest, error: URLError, reason: String) -> Refusal {
        let message =
            "passing \(request.method.rawValue) \(Redaction.shown(request.url)) through to the network failed: "
            + reason
        return Refusal(status: .badGateway, error: error, message: message)
    }

    /// `502`: ``MockResponse/forward(to:)`` would send the request back to this server.
    static func forwardLoop(_ request: MockRequest, to target: URL) -> Refusal {
        let loop = RequestMockerError.forwardLoop(request: request.description, target: Redaction.shown(target))
        return Refusal(status: .badGateway, error: loop, message: "\(loop)")
    }

    /// `502`: the request was passed through, and the transport sends nothing to the network
    /// without an upstream.
    static func needsUpstream(_ request: MockRequest) -> Refusal {
        let error = RequestMockerError.passThroughNeedsUpstream(request: request.description)
        return Refusal(status: .badGateway, error: error, message: "\(error)")
    }

    /// `502` for a request that passing through would send back to the server it came to.
    package static func loop(_ request: MockRequest) -> Refusal {
        let loop = RequestMockerError.passThroughLoop(request: request.description)
        return Refusal(status: .badGateway, error: loop, message: "\(loop)")
    }
}
