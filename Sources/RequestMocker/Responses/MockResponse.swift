/// What a filter answers with: a status, headers and a body, or an error, possibly computed
/// per request, possibly after a delay.
///
/// Build one with a static factory and adjust it with modifiers; modifiers return copies, so a
/// response can be written in one expression and shared between filters.
///
/// ```swift
/// registry.register(.get("/users/<id>"), respond: .json(["id": 7, "name": "Ada"]))
/// registry.register(.get("/avatar"), respond: .data(png, headers: ["Content-Type": "image/png"]))
/// registry.register(.get("/slow"), respond: .string("late").delayed(by: .milliseconds(200)))
/// registry.register(.get("/offline"), respond: .error(URLError(.notConnectedToInternet)))
/// registry.register(.get("/old"), respond: .redirect(to: "https://example.com/new"))
/// registry.register(.post("/echo")) { request, _ in .data(request.body ?? Data()) }
/// ```
///
/// ## Defaults
/// Status 200 and `HTTP/1.1` unless given; `Content-Type: application/json` for JSON bodies
/// and `text/plain; charset=utf-8` for strings unless a `Content-Type` header is given;
/// `Content-Length` is always the body's real length. Explicit status, version and headers
/// win over defaults. Apple's and Linux's `HTTPURLResponse` drop the HTTP version, so only the
/// loopback server shows it.
public struct MockResponse: Sendable {
    package enum Content: Sendable {
        case body(Data, defaultContentType: String?)
        case file(URL, contentType: String?)
        /// Part of a file whose size is known (a mock-data file's body).
        case slice(FileSlice, defaultContentType: String?)
        /// The answer of another server, at this base URL.
        case forward(URL)
        /// The answer of the server the request names (or the transport's upstream).
        case passThrough
        case handler(Handler)
        case fault(ConnectionFault)
        case failure(any Error)
        case sequence(ResponseSequence)
        /// A body sent piece by piece, each piece after its pause.
        case stream(ChunkSource, defaultContentType: String?)
        /// A response its factory could not build, and why: every request it answers is refused.
        case unbuildable(reason: String)
        /// A WebSocket endpoint, played by `MockServer`.
        case webSocket(WebSocketScript)
    }

    package enum Handler: Sendable {
        case sync(@Sendable (MockRequest, Captures) throws -> MockResponse)
        case async(@Sendable (MockRequest, Captures) async throws -> MockResponse)
        /// The package's own quick computation (a stub's template): it can't block or throw,
        /// so both transports run it in place, where a user's block gets a thread of its own on
        /// the server.
        case inline(@Sendable (MockRequest, Captures) -> MockResponse)
    }

    /// A response the package computes from the request in place (see ``Handler/inline(_:)``).
    package static func inline(_ compute: @escaping @Sendable (MockRequest, Captures) -> MockResponse) -> MockResponse {
        MockResponse(content: .handler(.inline(compute)))
    }

    /// What a response is, apart from its delay.
    struct Parts: Sendable {
        var content: Content
        var statusOverride: HTTPStatus?
        var versionOverride: String?
        var headerOverlay: HTTPHeaders
        var transfer: BodyTransfer = .whole
    }

    /// The parts and, for fixed bodies, the response exactly as it will be delivered, built
    /// once when the parts are set: answering a request builds no headers, and copying a
    /// response (the registry hands one along for every request) copies one reference.
    private final class Storage: Sendable {
        let parts: Parts
        let prepared: ResolvedResponse?

        init(_ parts: Parts) {
            self.parts = parts
            guard case .body(let data, let contentType) = parts.content else {
                prepared = nil
                return
            }
            prepared = MockResponse.finished(
                body: .bytes(data), defaultContentType: contentType, status: parts.statusOverride,
                version: parts.versionOverride, overlay: parts.headerOverlay, transfer: parts.transfer
            )
        }
    }

    private var storage: Storage
    /// Kept apart from the storage: a cassette delays every answer it plays, which then
    /// rebuilds nothing.
    var extraDelay: Duration

    package init(content: Content, status: HTTPStatus? = nil, httpVersion: String? = nil, headers: HTTPHeaders = [:]) {
        storage = Storage(
            Parts(content: content, statusOverride: status, versionOverride: httpVersion, headerOverlay: headers))
        extraDelay = .zero
    }

    var parts: Parts {
        get { storage.parts }
        set { storage = Storage(newValue) }
    }

    package var content: Content { storage.parts.content }
    var statusOverride: HTTPStatus? { storage.parts.statusOverride }
    var versionOverride: String? { storage.parts.versionOverride }
    var headerOverlay: HTTPHeaders { storage.parts.headerOverlay }
    var transfer: BodyTransfer { storage.parts.transfer }
    var prepared: ResolvedResponse? { storage.prepared }

    /// An empty `200 OK`.
    public init() {
        self.init(content: .body(Data(), defaultContentType: nil))
    }

    /// The status this response sets, or `nil` when it comes from a block or sequence.
    public var status: HTTPStatus? {
        if let statusOverride { return statusOverride }
        switch content {
        case .body, .file, .slice, .stream: return .ok
        case .webSocket: return .switchingProtocols
        case .handler, .fault, .failure, .sequence, .forward, .passThrough, .unbuildable: return nil
        }
    }

    /// The headers this response adds on top of its defaults.
    public var headers: HTTPHeaders { headerOverlay }

    /// The delay before this response is delivered.
    public var delay: Duration { extraDelay }

    // MARK: Factories

    /// Fixed bytes.
    ///
    /// - Parameters:
    ///   - data: the body.
    ///   - status: the status code, 200 by default.
    ///   - headers: header fields; a `Content-Type` here is sent as given.
    public static func data(_ data: Data, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> MockResponse {
        MockResponse(content: .body(data, defaultContentType: nil), status: status, headers: headers)
    }

    /// Text, sent as UTF-8 with `Content-Type: text/plain; charset=utf-8` unless given.
    public static func string(_ text: String, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]) -> MockResponse {
        MockResponse(
            content: .body(Data(text.utf8), defaultContentType: "text/plain; charset=utf-8"),
            status: status,
            headers: headers
        )
    }

    /// An empty body with the given status.
    ///
    /// ```swift
    /// registry.register(.delete("/users/<id>"), respond: .status(204))
    /// ```
    public static func status(_ status: HTTPStatus, headers: HTTPHeaders = [:]) -> MockResponse {
        MockResponse(content: .body(Data(), defaultContentType: nil), status: status, headers: headers)
    }

    /// The contents of a file, read when a request is answered (so edits show up at once).
    ///
    /// A missing file fails the request with
    /// ``RequestMockerError/fileNotReadable(path:reason:)``, and a URL that isn't a file URL
    /// (`http://…`) with ``RequestMockerError/notAFileURL(url:)``, which the registry's
    /// ``MockRegistry/diagnostics`` also name. Without `contentType`, the type
    /// follows the file's extension (`json`, `html`, `txt`, `xml`, `png`, `jpg`, `gif`, `pdf`),
    /// else `application/octet-stream`.
    ///
    /// ```swift
    /// registry.register(
    ///     .get("/categories"), respond: .file(Bundle.module.url(forResource: "categories", withExtension: "json")!))
    /// ```
    public static func file(
        _ url: URL, contentType: String? = nil, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]
    ) -> MockResponse {
        guard url.isFileURL else {
            return MockResponse(content: .failure(RequestMockerError.notAFileURL(url: Redaction.shown(url))))
        }
        return MockResponse(content: .file(url, contentType: contentType), status: status, headers: headers)
    }

    /// Fails the request with `error`, which reaches the caller unchanged.
    ///
    /// The loopback server can't send an error, so it resets the connection instead. A
    /// ``ConnectionFault`` given here is the same as ``fault(_:)``, and a ``RequestMockerError``
    /// counts as a mistake in the mocks (the server answers `500`, or `404` for `unmatched`).
    ///
    /// ```swift
    /// registry.register(.get("/feed"), respond: .error(URLError(.notConnectedToInternet)))
    /// ```
    public static func error(_ error: any Error) -> MockResponse {
        if let fault = error as? ConnectionFault { return .fault(fault) }
        return MockResponse(content: .failure(error))
    }

    /// Breaks the connection instead of answering: see ``ConnectionFault``.
    ///
    /// The loopback server does it on the wire; ``MockURLProtocol`` fails the request with the
    /// error the platform reports for a real server doing the same
    /// (``ConnectionFault/urlErrorCode``), and for ``ConnectionFault/stall`` lets it time out.
    ///
    /// ```swift
    /// registry.register(.get("/feed"), respond: .fault(.closeBeforeResponding))
    /// ```
    public static func fault(_ fault: ConnectionFault) -> MockResponse {
        MockResponse(content: .fault(fault))
    }

    /// A response computed from the request and the captured path variables, delivered as
    /// soon as the block returns.
    ///
    /// If the block throws a `URLError`, the request fails with it unchanged (a way to simulate
    /// transport errors); any other error arrives wrapped in
    /// ``RequestMockerError/blockFailed(filter:request:underlying:)``, which names the filter.
    ///
    /// ```swift
    /// registry.register(.get("/users/<id>"), respond: .block { request, captures in
    ///     .json(["id": .string(captures["id"] ?? "")])
    /// })
    /// ```
    public static func block(
        _ block: @escaping @Sendable (MockRequest, Captures) throws -> MockResponse
    ) -> MockResponse {
        MockResponse(content: .handler(.sync(block)))
    }

    /// A response computed by an `async` block; the request waits for it (bounded by the
    /// request's `timeoutInterval`), and cancelling the request cancels the block's task.
    public static func block(
        _ block: @escaping @Sendable (MockRequest, Captures) async throws -> MockResponse
    ) -> MockResponse {
        MockResponse(content: .handler(.async(block)))
    }

    /// A `200` whose body a block computes, for when only the bytes depend on the request.
    ///
    /// ```swift
    /// registry.register(.get("/time"), respond: .dataBlock { _, _ in Data("\(Date())".utf8) })
    /// ```
    public static func dataBlock(
        _ block: @escaping @Sendable (MockRequest, Captures) async throws -> Data
    ) -> MockResponse {
        .block { request, captures in .data(try await block(request, captures)) }
    }

    // MARK: Modifiers

    /// A copy with a different status code.
    public func withStatus(_ status: HTTPStatus) -> MockResponse {
        var copy = self
        copy.parts.statusOverride = status
        return copy
    }

    /// A copy with a different HTTP version (`"HTTP/1.0"`, `"HTTP/2"`); only the loopback
    /// server can show it, because `HTTPURLResponse` discards it.
    public func withHTTPVersion(_ version: String) -> MockResponse {
        var copy = self
        copy.parts.versionOverride = version
        return copy
    }

    /// A copy with a header field set, replacing any field of the same name.
    public func withHeader(_ name: HTTPHeaders.Name, _ value: String) -> MockResponse {
        var copy = self
        copy.parts.headerOverlay.replace(name, with: value)
        return copy
    }

    /// A copy with several header fields set, each replacing any field of the same name.
    public func withHeaders(_ headers: HTTPHeaders) -> MockResponse {
        var parts = self.parts
        for field in headers { parts.headerOverlay.replace(field.name, with: field.value) }
        var copy = self
        copy.parts = parts
        return copy
    }

    /// A copy delivered after `delay` more (delays add up). A delay past the request's
    /// `timeoutInterval` fails the request with `URLError(.timedOut)`.
    ///
    /// ```swift
    /// .json(["ok": true]).delayed(by: .milliseconds(300))
    /// ```
    public func delayed(by delay: Duration) -> MockResponse {
        var copy = self
        copy.extraDelay = min(max(extraDelay + max(delay, .zero), .zero), Self.longestDelay)
        return copy
    }

    /// A copy whose body is sent at no more than `bytesPerSecond` ("dribbled"), for testing
    /// progress reporting and slow networks.
    ///
    /// The loopback server sends the body in small pieces over the real time. Through
    /// ``MockURLProtocol``, which hands a body over in one piece, the response arrives after the
    /// time the transfer would take (added to any delay, and bounded by the request's timeout).
    ///
    /// ```swift
    /// registry.register(.get("/download"), respond: .data(payload).throttled(bytesPerSecond: 64 * 1024))
    /// ```
    ///
    /// - Parameter bytesPerSecond: the limit; 0 or less removes it.
    public func throttled(bytesPerSecond: Int) -> MockResponse {
        var copy = self
        copy.parts.transfer.bytesPerSecond = bytesPerSecond > 0 ? bytesPerSecond : nil
        return copy
    }

    /// A copy that sends its status line, its headers (with the full `Content-Length`) and the
    /// first `count` bytes of its body, and then closes the connection.
    ///
    /// Through ``MockURLProtocol`` the caller receives the response and those bytes, then the
    /// error the platform reports for a body cut short (``ConnectionFault/truncatedBodyErrorCode``).
    ///
    /// ```swift
    /// registry.register(.get("/video"), respond: .data(movie).truncated(afterBytes: 4096))
    /// ```
    public func truncated(afterBytes count: Int) -> MockResponse {
        var copy = self
        copy.parts.transfer.truncatedAfter = max(count, 0)
        return copy
    }

    /// Delays are capped here (a year): far past any timeout, and far from overflowing a clock.
    static let longestDelay: Duration = .seconds(365 * 24 * 3600)

    /// A response that answers the first `count` requests and then lets its filter stop
    /// matching, so later requests go on to the next filter (or the unmatched policy). Any
    /// count, up to `Int.max`, takes the same small, constant memory.
    ///
    /// ```swift
    /// registry.register(.get("/flaky"), respond: .status(503).times(2))
    /// registry.register(.get("/flaky"), respond: .json(["ok": true]))
    /// ```
    public func times(_ count: Int) -> MockResponse {
        MockResponse(content: .sequence(ResponseSequence(repeating: self, count: count, afterLast: .stopMatching)))
    }

    /// Answers the first request with the first response, the second with the second, and so
    /// on; after the last, `afterLast` decides.
    ///
    /// The position is shared by copies of the returned value.
    ///
    /// ```swift
    /// registry.register(.get("/job"), respond: .sequence([.json(["state": "queued"]), .json(["state": "done"])]))
    /// ```
    public static func sequence(_ responses: [MockResponse], afterLast: SequenceEnd = .repeatLast) -> MockResponse {
        MockResponse(content: .sequence(ResponseSequence(responses, afterLast: afterLast)))
    }

    /// What a sequence does once every response was used.
    public struct SequenceEnd: Hashable, Sendable {
        let stops: Bool

        /// Keep answering with the last response.
        public static let repeatLast = SequenceEnd(stops: false)
        /// Stop matching: the registry moves on to its next filter.
        public static let stopMatching = SequenceEnd(stops: true)
    }
}
