import Foundation

extension MockResponse {
    /// A WebSocket endpoint (RFC 6455) that plays `script`, served by `MockServer` and
    /// `request-mocker serve`.
    ///
    /// ```swift
    /// registry.register(.webSocket("/echo"), respond: .webSocket(.echo))
    /// ```
    ///
    /// A request that doesn't ask for a WebSocket gets `426 Upgrade Required`, and a handshake
    /// that is wrong a `400` or `426` saying why, through both transports. A correct handshake
    /// through `MockURLProtocol`, which can't switch protocols, fails with
    /// ``RequestMockerError/webSocketNeedsServer(request:)``. Headers given here go into the
    /// `101 Switching Protocols` head; a delay comes before it. A script with a close code a
    /// server may not send, or a close reason over 123 bytes, makes every request fail with
    /// ``RequestMockerError/invalidResponse(filter:request:reason:)`` naming it.
    public static func webSocket(_ script: WebSocketScript, headers: HTTPHeaders = [:]) -> MockResponse {
        if let problem = script.problem { return MockResponse(content: .unbuildable(reason: problem)) }
        return MockResponse(content: .webSocket(script), headers: headers)
    }
}

extension RequestFilter {
    /// A `GET` filter for a WebSocket endpoint; `pattern` is a path pattern or a whole URL pattern.
    /// It matches a plain `GET` too, which its ``MockResponse/webSocket(_:headers:)`` answers
    /// with `426 Upgrade Required`; to serve a page and a WebSocket on one path, register the
    /// WebSocket first with `.header("Upgrade", "websocket")`.
    ///
    /// ```swift
    /// registry.register(.webSocket("/chat"), respond: .webSocket(script))
    /// ```
    public static func webSocket(_ pattern: String, fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        get(pattern, fileID: fileID, line: line)
    }
}
