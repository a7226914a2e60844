/// A request as RequestMocker sees it: method, URL, header fields and body bytes.
///
/// Everything that matches or answers a request works on this one value, whether the request
/// came through `MockURLProtocol` or through the loopback server. It is captured once, when
/// loading starts (or when the server has read the request), so a block response can read it
/// as often as it likes.
///
/// ```swift
/// registry.register(.post("/users")) { request, _ in
///     let user = try request.decodeJSON(NewUser.self)
///     return try .json(encoding: User(id: 7, name: user.name), status: 201)
/// }
/// ```
///
/// ## Where the body comes from
/// The body is read from `URLRequest.httpBody`, or else from `httpBodyStream` (read to the end,
/// once). Apple platforms move a data task's body into the stream; Linux keeps it in
/// `httpBody`; both end up here. **On Linux the body of an upload task**
/// (`upload(for:from:)`, `uploadTask(with:from:)`, `upload(for:fromFile:)`) **is invisible to
/// every URLProtocol** (measured), so `body` is `nil` for those; set `httpBody` on the request
/// and use `data(for:)` when a filter needs to see it. Whether Apple platforms show it is
/// unmeasured, so the same rule holds there: an upload task that arrives without a body is
/// marked ``bodyHiddenByUploadTask``, and unmatched-request reports mention it.
public struct MockRequest: Sendable, CustomStringConvertible {
    /// The captured parts, behind one reference: a request is passed through every layer of the
    /// pipeline and into the journal, and is never changed once captured.
    private final class Storage: Sendable {
        let method: HTTPMethod
        let url: URL
        let headers: HTTPHeaders
        let body: Data?
        let pathSegments: [String]
        let bodyHiddenByUploadTask: Bool

        init(method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Data?, bodyHiddenByUploadTask: Bool) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.bodyHiddenByUploadTask = bodyHiddenByUploadTask
            pathSegments = PathPattern.segments(ofEncodedPath: url.percentEncodedPathString)
        }
    }

    private let storage: Storage

    /// The method, upper case.
    public var method: HTTPMethod { storage.method }
    /// The full URL.
    public var url: URL { storage.url }
    /// The header fields: in the order they arrived when the loopback server read them; sorted
    /// by name when captured from a `URLRequest`, whose fields have no order.
    public var headers: HTTPHeaders { storage.headers }
    /// The body bytes, or `nil` when the request had none.
    public var body: Data? { storage.body }
    /// The path's segments, percent-decoded, without empty leading or trailing segments:
    /// `/users/a%20b/` gives `["users", "a b"]`, and both `""` and `/` give `[]`.
    public var pathSegments: [String] { storage.pathSegments }
    /// `true` when this came from an upload task and arrived without a body: the platform hid it
    /// from URL protocols (as Linux does), so an empty ``body`` does not mean the request had
    /// none.
    public var bodyHiddenByUploadTask: Bool { storage.bodyHiddenByUploadTask }

    /// Creates a request value directly, for example from bytes a server parsed.
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - url: the absolute URL, including scheme and host.
    ///   - headers: the header fields.
    ///   - body: the body bytes, `nil` for none.
    public init(method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: Data? = nil) {
        self.init(method: method, url: url, headers: headers, body: body, bodyHiddenByUploadTask: false)
    }

    package init(method: HTTPMethod, url: URL, headers: HTTPHeaders, body: Data?, bodyHiddenByUploadTask: Bool) {
        storage = Storage(
            method: method, url: url, headers: headers, body: body, bodyHiddenByUploadTask: bodyHiddenByUploadTask)
    }

    /// Captures a `URLRequest`, reading its body from `httpBody` or else its body stream; a
    /// request without a URL gets `file:///`. The header fields are the request's, with those
    /// URL loading adds from the request itself (`Host`, `Content-Length`, a `POST` body's
    /// default `Content-Type`), as `MockURLProtocol` captures them.
    ///
    /// ```swift
    /// let request = MockRequest(URLRequest(url: URL(string: "https://api.test/users/7")!))
    /// #expect(RequestFilter.get("/users/<id>").match(request)?["id"] == "7")
    /// ```
    public init(_ request: URLRequest) {
        self.init(request, isUploadTask: false)
    }

    /// Captures the request of a task; `isUploadTask` tells whether an empty body may be one
    /// the platform hid (see the type's docs).
    init(_ request: URLRequest, isUploadTask: Bool) {
        let body = request.httpBody ?? request.httpBodyStream.map(Self.readAll)
        let method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        let url = request.url ?? URL(fileURLWithPath: "/")
        let hidden = isUploadTask && body == nil
        self.init(
            method: method,
            url: url,
            headers: Self.withWireFields(
                HTTPHeaders(request.allHTTPHeaderFields ?? [:]), method: method, url: url, body: body,
                bodyHidden: hidden, streamed: request.httpBody == nil && request.httpBodyStream != nil),
            body: body,
            bodyHiddenByUploadTask: hidden
        )
    }

    /// The lower-cased host, or `nil` for URLs without one.
    public var host: String? { url.host?.lowercased() }

    /// The scheme, lower case (`http`, `https`).
    public var scheme: String { url.scheme?.lowercased() ?? "" }

    /// The port: the URL's explicit port, else 80 for `http` (and `ws`) and 443 for `https`
    /// (and `wss`).
    public var port: Int? {
        url.port ?? Self.defaultPort(of: url)
    }

    /// The path as it appears in the URL (percent-encoded); `/` when the URL has none.
    public var path: String {
        let path = url.percentEncodedPathString
        return path.isEmpty ? "/" : path
    }

    /// The query items, percent-decoded, in order; empty when the URL has no query.
    public var queryItems: [URLQueryItem] {
        // Most requests have none: no URLComponents to parse for them.
        guard url.query != nil else { return [] }
        return URLComponents(url: url, resolvingAgainstBaseURL: true)?.queryItems ?? []
    }

    /// The first value of a header field, by case-insensitive name.
    public func header(_ name: HTTPHeaders.Name) -> String? {
        headers[name]
    }

    /// The body decoded as UTF-8, or `nil` when there is no body or it is not UTF-8.
    public var bodyText: String? {
        body.flatMap { String(data: $0, encoding: .utf8) }
    }

    /// The body parsed as JSON.
    ///
    /// - Throws: ``JSONValue/ParseError`` when the body is missing or is not JSON.
    public func jsonBody() throws -> JSONValue {
        try JSONValue(parsing: body ?? Data())
    }

    /// The body decoded from JSON into `type` with `decoder`.
    public func decodeJSON<T: Decodable>(_ type: T.Type, decoder: JSONDecoder = JSONDecoder()) throws -> T {
        try decoder.decode(type, from: body ?? Data())
    }

    /// `METHOD URL`, the form used in every report.
    public var description: String { "\(method) \(Redaction.shown(url))" }

    private static func readAll(_ stream: InputStream) -> Data {
        var data = Data()
        stream.open()
        defer { stream.close() }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }
}

extension URL {
    /// The path exactly as written in the URL, still percent-encoded.
    var percentEncodedPathString: String {
        path(percentEncoded: true)
    }
}
