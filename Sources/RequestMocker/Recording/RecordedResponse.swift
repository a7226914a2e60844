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
    public var status: HTTPStatus
    public var httpVersion: String
    public var headers: HTTPHeaders
    public var body: Data

    public init(status: HTTPStatus, httpVersion: String = "HTTP/1.1", headers: HTTPHeaders = [:], body: Data = Data()) {
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
    }
}

extension RecordedResponse {
    /// The response as it is delivered: the fields that described the bytes on the wire go,
    /// since the body is held decoded, and `Content-Length` is the body's (where the old one
    /// stood, if there was one).
    var playable: ResolvedResponse {
        var delivered = headers
        delivered.replace(.contentLength, with: String(body.count))
        delivered = delivered.removing(HTTPHeaders.Name.framingAndCoding.filter { $0 != .contentLength })
        return ResolvedResponse(status: status, httpVersion: httpVersion, headers: delivered, body: body)
    }
}

extension MockResponse {
    /// Plays a recorded response back as it was received (see ``RecordedResponse/playable``).
    init(playing recorded: RecordedResponse) {
        let playable = recorded.playable
        self.init(
            content: .body(recorded.body, defaultContentType: nil), status: playable.status,
            httpVersion: playable.httpVersion, headers: playable.headers)
    }
}
