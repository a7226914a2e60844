import Foundation

extension MockResponse {
    /// A body sent piece by piece, each piece after its pause, with no `Content-Length`.
    ///
    /// The loopback server writes each piece when its time comes (chunked to HTTP/1.1 clients,
    /// until it closes the connection to HTTP/1.0 ones). `MockURLProtocol` hands each piece over
    /// when its time comes where the task sees every piece (Apple platforms; on Linux, a data task
    /// whose session delegate receives the data), and otherwise the whole body once the last
    /// pause has passed, since FoundationNetworking keeps only the last piece for completion
    /// handlers and `data(for:)`.
    ///
    /// ```swift
    /// registry.register(.get("/feed"), respond: .stream([
    ///     .text("{\"n\":1}\n"),
    ///     .text("{\"n\":2}\n", after: .milliseconds(100)),
    /// ], contentType: "application/x-ndjson"))
    /// ```
    ///
    /// A delay (``delayed(by:)``) comes before the head; throttling and truncation don't apply
    /// to a stream, whose pauses pace it.
    public static func stream(
        _ chunks: [StreamChunk], contentType: String = "application/octet-stream", status: HTTPStatus = .ok,
        headers: HTTPHeaders = [:]
    ) -> MockResponse {
        MockResponse(
            content: .stream(.chunks(chunks), defaultContentType: contentType), status: status, headers: headers)
    }

    /// A body streamed from an asynchronous sequence of chunks, made for each request.
    ///
    /// Each chunk is sent when the sequence yields it, after its own pause. The sequence is
    /// pulled as the body goes out: the server stops asking while 1 MiB waits for a slow client,
    /// and the client going away cancels it.
    ///
    /// ```swift
    /// registry.register(.get("/count/<n>"), respond: .stream(contentType: "text/plain") { _, captures in
    ///     AsyncStream { continuation in
    ///         for n in 1...max(1, Int(captures["n"] ?? "") ?? 3) {
    ///             continuation.yield(StreamChunk.text("\(n)\n", after: .milliseconds(10)))
    ///         }
    ///         continuation.finish()
    ///     }
    /// })
    /// ```
    public static func stream<Chunks: AsyncSequence>(
        contentType: String = "application/octet-stream", status: HTTPStatus = .ok, headers: HTTPHeaders = [:],
        from make: @escaping @Sendable (MockRequest, Captures) -> Chunks
    ) -> MockResponse where Chunks.Element == StreamChunk, Chunks: SendableMetatype {
        MockResponse(
            content: .stream(.computed(make), defaultContentType: contentType), status: status, headers: headers)
    }

    /// A body streamed from what a block yields into a continuation, for each request: keep
    /// the continuation to send pieces when a test decides, and finish it to end the body.
    ///
    /// ```swift
    /// let live = Mutex<AsyncThrowingStream<StreamChunk, any Error>.Continuation?>(nil)
    /// registry.register(.get("/live"), respond: .stream(contentType: "text/plain") { _, _, continuation in
    ///     continuation.yield(.text("connected\n"))
    ///     live.withLock { $0 = continuation }
    /// })
    /// // later, in the test:
    /// live.withLock { $0?.yield(.text("news\n")); $0?.finish() }
    /// ```
    public static func stream(
        contentType: String = "application/octet-stream", status: HTTPStatus = .ok, headers: HTTPHeaders = [:],
        fedBy feed:
            @escaping @Sendable (MockRequest, Captures, AsyncThrowingStream<StreamChunk, any Error>.Continuation)
            -> Void
    ) -> MockResponse {
        stream(contentType: contentType, status: status, headers: headers) { request, captures in
            AsyncThrowingStream { continuation in feed(request, captures, continuation) }
        }
    }

    /// A `text/event-stream` body of server-sent events, the first at once and each next one
    /// `interval` later, with `Cache-Control: no-cache`.
    ///
    /// ```swift
    /// registry.register(.get("/v1/chat"), respond: .events([
    ///     ServerSentEvent(event: "token", data: "Hel"),
    ///     ServerSentEvent(event: "token", data: "lo"),
    ///     ServerSentEvent(event: "done", data: "[DONE]"),
    /// ], interval: .milliseconds(20)))
    /// ```
    ///
    /// An event that can't be written (a line break in its name or id, a NUL in its id, a
    /// negative retry) makes every request fail with
    /// ``RequestMockerError/invalidResponse(filter:request:reason:)`` naming it.
    public static func events(
        _ events: [ServerSentEvent], interval: Duration = .zero, status: HTTPStatus = .ok, headers: HTTPHeaders = [:]
    ) -> MockResponse {
        var chunks: [StreamChunk] = []
        for (index, event) in events.enumerated() {
            do {
                chunks.append(.text(try event.encoded(), after: index == 0 ? .zero : interval))
            } catch {
                return MockResponse(content: .unbuildable(reason: "event \(index) can't be written: \(error.reason)"))
            }
        }
        var fields = headers
        if !fields.contains(.cacheControl) { fields.add(.cacheControl, "no-cache") }
        return MockResponse(
            content: .stream(.chunks(chunks), defaultContentType: "text/event-stream"), status: status,
            headers: fields)
    }
}
