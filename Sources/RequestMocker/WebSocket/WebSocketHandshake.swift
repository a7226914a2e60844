import Foundation

/// A WebSocket handshake a server may complete: the `101 Switching Protocols` head to write, and
/// the script to play on the connection afterwards.
package struct WebSocketUpgrade: Sendable {
    package let script: WebSocketScript
    /// The `101` head: `Upgrade`, `Sec-WebSocket-Accept`, the chosen subprotocol, and the
    /// response's own headers. `Connection: Upgrade` is the transport's to write.
    package let response: ResolvedResponse
    /// Where the connection's frames go; the journal entry of the request holds the same one.
    package let transcript: WebSocketTranscript
}

/// The opening handshake of RFC 6455 §4.2, as a server checks and answers it.
enum WebSocketHandshake {
    /// What RFC 6455 appends to the client's key before hashing it.
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// `Sec-WebSocket-Accept` for a client's `Sec-WebSocket-Key`: base64 of the SHA-1 of the key
    /// and the GUID.
    static func accept(forKey key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    enum Answer {
        case upgrade(WebSocketUpgrade)
        /// Not a handshake this endpoint can complete: the response that says why.
        case refusal(ResolvedResponse)
    }

    /// Checks `request` as an opening handshake (§4.2.1) and answers it: the upgrade, or a
    /// `426 Upgrade Required` for a request that didn't ask for one (and for a version other
    /// than 13), or a `400` naming what is wrong with the handshake.
    static func answer(
        _ request: MockRequest, script: WebSocketScript, headers overlay: HTTPHeaders, transcript: WebSocketTranscript
    ) -> Answer {
        let headers = request.headers
        guard request.asksForWebSocket else {
            return .refusal(
                plain(
                    .upgradeRequired, [.upgrade: "websocket"],
                    "this is a WebSocket endpoint: connect with a WebSocket client (a GET with Upgrade: websocket)"))
        }
        guard request.method == .get else {
            return .refusal(plain(.badRequest, [:], "a WebSocket handshake is a GET, not \(request.method)"))
        }
        guard
            headers.values(for: .connection).flatMap(HTTPHeaders.listElements).contains(where: {
                $0.lowercased() == "upgrade"
            })
        else {
            return .refusal(plain(.badRequest, [:], "a WebSocket handshake has Connection: Upgrade"))
        }
        for name in [HTTPHeaders.Name.secWebSocketKey, .secWebSocketVersion] where headers.values(for: name).count > 1 {
            return .refusal(plain(.badRequest, [:], "a WebSocket handshake has one \(name) field"))
        }
        guard headers[.secWebSocketVersion]?.trimmingCharacters(in: .whitespaces) == "13" else {
            return .refusal(
                plain(
                    .upgradeRequired, [.secWebSocketVersion: "13"],
                    "this endpoint speaks WebSocket version 13 (RFC 6455); the request asked for "
                        + (headers[.secWebSocketVersion].map { "version \($0)" } ?? "no version")))
        }
        guard let key = headers[.secWebSocketKey]?.trimmingCharacters(in: .whitespaces),
            Data(base64Encoded: key)?.count == 16
        else {
            return .refusal(
                plain(.badRequest, [:], "a WebSocket handshake's Sec-WebSocket-Key is 16 random bytes in base64"))
        }
        var fields = HTTPHeaders()
        fields.add(.upgrade, "websocket")
        fields.add(.secWebSocketAccept, accept(forKey: key))
        let offered = headers.values(for: .secWebSocketProtocol).flatMap(HTTPHeaders.listElements)
        if let chosen = script.subprotocols.first(where: offered.contains) {
            fields.add(.secWebSocketProtocol, chosen)
        }
        // The handshake's own fields are the handshake's to set: an extension or a subprotocol
        // the client didn't ask for would make it fail the connection.
        for field in overlay where !fields.contains(field.name) && !Self.isHandshakeField(field.name) {
            fields.add(field.name, field.value)
        }
        let response = ResolvedResponse(
            status: .switchingProtocols, httpVersion: "HTTP/1.1", headers: fields, body: .bytes(Data()))
        return .upgrade(WebSocketUpgrade(script: script, response: response, transcript: transcript))
    }

    private static func isHandshakeField(_ name: HTTPHeaders.Name) -> Bool {
        name == .upgrade || name == .connection || name.rawValue.lowercased().hasPrefix("sec-websocket-")
    }

    private static func plain(_ status: HTTPStatus, _ extra: HTTPHeaders, _ message: String) -> ResolvedResponse {
        var headers = extra
        headers.add(.contentType, "text/plain; charset=utf-8")
        let body = Data((message + "\n").utf8)
        headers.add(.contentLength, String(body.count))
        return ResolvedResponse(status: status, httpVersion: "HTTP/1.1", headers: headers, body: .bytes(body))
    }
}

extension MockRequest {
    /// Whether the request asks to upgrade to a WebSocket (`Upgrade: websocket`, in any case).
    package var asksForWebSocket: Bool {
        headers.values(for: .upgrade).flatMap(HTTPHeaders.listElements).contains { $0.lowercased() == "websocket" }
    }
}
