/// A response as it was recorded: status, HTTP version, header fields and the body bytes
/// (decoded: HAR keeps bodies after any `Content-Encoding` is undone).
///
/// ```swift
/// let redaction = Redaction.default.beforeRecordResponse { response, _ in
///     var kept = response
///     kept.headers.remove("X-Request-Id")   // changes on every call; keep diffs small
///     return kept
/// }
/// ```
public struct RecordedResponse: Sendable, Hashable {
    /// The status the server sent.
    public var status: HTTPStatus
    /// The HTTP version of the status line, such as `HTTP/1.1`.
    public var httpVersion: String
    /// The header fields, as recorded.
    public var headers: HTTPHeaders
    /// The body bytes, decoded from any `Content-Encoding`.
    public var body: Data

    /// A response with these parts.
    public init(status: HTTPStatus, httpVersion: String = "HTTP/1.1", headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
    }
}

extension RecordedResponse {
    /// The response as it is delivered.
    var playable: ResolvedResponse {
        ResolvedResponse(status: status, httpVersion: httpVersion, headers: playableHeaders, body: body)
    }

    /// The header fields as delivered: the body is held decoded, so the fields that described its
    /// bytes on the wire go, and `Content-Length` is the body's (where the old one stood, if there
    /// was one).
    var playableHeaders: HTTPHeaders { headers.delivered(bodyLength: body.count) }
}

extension HTTPHeaders {
    /// The fields of a response whose body is delivered decoded: the fields that described its
    /// bytes on the wire go, and `Content-Length` is `bodyLength` (where the old one stood, if
    /// there was one) when it is known.
    func delivered(bodyLength: Int?) -> HTTPHeaders {
        guard let bodyLength else { return removing(Name.framingAndCoding) }
        var delivered = self
        delivered.replace(.contentLength, with: String(bodyLength))
        return delivered.removing(Name.framingAndCoding.filter { $0 != .contentLength })
    }
}

extension MockResponse {
    /// Plays a recorded response back as it was received (see ``RecordedResponse/playable``).
    init(playing recorded: RecordedResponse) {
        self.init(
            content: .body(recorded.body, defaultContentType: nil), status: recorded.status,
            httpVersion: recorded.httpVersion, headers: recorded.playableHeaders)
    }
}
