import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("WebSocket endpoints: the handshake, the script, and MockURLProtocol", .timeLimit(.minutes(3)), .hangGuard)
struct WebSocketCoreTests {
    @Test(
        "SHA-1 matches the FIPS 180 examples",
        arguments: [
            ("", "da39a3ee5e6b4b0d3255bfef95601890afd80709"),
            ("abc", "a9993e364706816aba3e25717850c26c9cd0d89d"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "84983e441c3bd26ebaae4aa1f95129e5e54670f1"
            ),
            (String(repeating: "a", count: 1_000), "291e9a6c66994949b57ba5e650361e98fc36b1ba"),
        ])
    func sha1(message: String, digest: String) {
        let hex = SHA1.digest(Array(message.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(hex == digest)
    }

    @Test("Sec-WebSocket-Accept for RFC 6455's own example key")
    func acceptKey() {
        #expect(WebSocketHandshake.accept(forKey: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    static let handshake: [String: String] = [
        "Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version": "13",
    ]

    func fetch(_ registry: MockRegistry, headers: [String: String]) async throws -> (Int, String, String?) {
        var request = URLRequest(url: URL(string: "https://api.test/chat")!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await registry.makeSession().data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (
            http.statusCode, String(decoding: data, as: UTF8.self),
            http.value(forHTTPHeaderField: "Upgrade") ?? http.value(forHTTPHeaderField: "Sec-WebSocket-Version")
        )
    }

    @Test("a request that isn't a handshake gets 426, and a wrong handshake 400 or 426, saying why")
    func refusedHandshakes() async throws {
        let registry = MockRegistry()
        registry.register(.webSocket("/chat"), respond: .webSocket(.echo))
        let plain = try await fetch(registry, headers: [:])
        #expect(plain.0 == 426)
        #expect(plain.2 == "websocket")
        #expect(
            plain.1 == "this is a WebSocket endpoint: connect with a WebSocket client (a GET with Upgrade: websocket)\n"
        )
        var noConnection = Self.handshake
        noConnection["Connection"] = "keep-alive"
        #expect(try await fetch(registry, headers: noConnection).1 == "a WebSocket handshake has Connection: Upgrade\n")
        var shortKey = Self.handshake
        shortKey["Sec-WebSocket-Key"] = "c2hvcnQ="
        let key = try await fetch(registry, headers: shortKey)
        #expect(key.0 == 400)
        #expect(key.1 == "a WebSocket handshake's Sec-WebSocket-Key is 16 random bytes in base64\n")
        var version = Self.handshake
        version["Sec-WebSocket-Version"] = "8"
        let wrongVersion = try await fetch(registry, headers: version)
        #expect(wrongVersion.0 == 426)
        #expect(wrongVersion.2 == "13")
        #expect(
            wrongVersion.1
                == "this endpoint speaks WebSocket version 13 (RFC 6455); the request asked for version 8\n")
    }

    @Test("a correct handshake through MockURLProtocol is a typed error that points at MockServer")
    func handshakeThroughTheProtocol() async throws {
        let registry = MockRegistry()
        registry.register(.webSocket("/chat"), respond: .webSocket(.echo))
        await #expect {
            _ = try await fetch(registry, headers: Self.handshake)
        } throws: { error in
            guard case .webSocketNeedsServer(let request) = error as? RequestMockerError else { return false }
            return request == "GET https://api.test/chat"
        }
        let entry = try #require(registry.journal.last)
        #expect(entry.webSocket?.frames.isEmpty == true)
    }

    @Test("a script's rules answer in order: patterns with groups, JSON values, binary, and a catch-all")
    func rules() throws {
        let script = WebSocketScript(rules: [
            try .text("^hello (\\w+)$", [.text("hi $1")]),
            .json(["type": "ping"], [.text("pong")]),
            try .binary("^\u{00}\u{01}", [.text("starts 0 1")]),
            try .binary(nil, [.echo]),
            .any([.text("got $0")]),
        ])
        #expect(script.answer(to: .text("hello ada"))?.groups == ["hello ada", "ada"])
        #expect(script.answer(to: .text(#"{ "type" : "ping" }"#))?.actions == [.text("pong")])
        #expect(script.answer(to: .binary(Data([0, 1, 2])))?.actions == [.text("starts 0 1")])
        #expect(script.answer(to: .binary(Data([9])))?.actions == [.echo])
        #expect(script.answer(to: .text("other"))?.groups == ["other"])
        // A binary message is matched, and given as $0, one character a byte.
        #expect(WebSocketScript(rules: [.any([])]).answer(to: .binary(Data([0x41, 0xE9])))?.groups == ["Aé"])
        #expect(WebSocketScript(rules: [try .text("^a$", [])]).answer(to: .text("b")) == nil)
        #expect(throws: RequestMockerError.self) { try WebSocketScript.Rule.text("(", []) }
    }

    @Test("a close the script may not send fails every request, naming it")
    func invalidClose() async throws {
        let registry = MockRegistry()
        registry.register(
            .webSocket("/chat"), respond: .webSocket(WebSocketScript(rules: [.any([.close(code: 1005)])])))
        await #expect {
            _ = try await fetch(registry, headers: Self.handshake)
        } throws: { error in
            guard case .invalidResponse(_, _, let reason) = error as? RequestMockerError else { return false }
            return reason
                == "a close action in rules has code 1005; a server may send 1000-1003, 1007-1014 or 3000-4999"
        }
    }

    @Test("the size limit is kept between 125 bytes and 1 GiB, however it is set")
    func sizeLimit() {
        var script = WebSocketScript(maximumMessageSize: 10)
        #expect(script.maximumMessageSize == 125)
        script.maximumMessageSize = -5
        #expect(script.maximumMessageSize == 125)
        script.maximumMessageSize = .max
        #expect(script.maximumMessageSize == 1024 * 1024 * 1024)
    }

    @Test("a handshake names each of its fields once, and the response's headers can't add handshake fields")
    func handshakeFields() throws {
        var headers = HTTPHeaders()
        for (name, value) in Self.handshake { headers.add(HTTPHeaders.Name(name), value) }
        headers.add(.secWebSocketProtocol, "chat")
        let request = MockRequest(method: .get, url: URL(string: "http://x/chat")!, headers: headers)
        let overlay: HTTPHeaders = ["Sec-WebSocket-Protocol": "chat", "Sec-WebSocket-Extensions": "x", "X-A": "b"]
        guard
            case .upgrade(let upgrade) = WebSocketHandshake.answer(
                request, script: .echo, headers: overlay, transcript: WebSocketTranscript())
        else {
            Issue.record("the handshake was refused")
            return
        }
        #expect(upgrade.response.headers.contains(.secWebSocketProtocol) == false)
        #expect(upgrade.response.headers["Sec-WebSocket-Extensions"] == nil)
        #expect(upgrade.response.headers["X-A"] == "b")
        var twice = headers
        twice.add(.secWebSocketKey, "dGhlIHNhbXBsZSBub25jZQ==")
        let doubled = MockRequest(method: .get, url: URL(string: "http://x/chat")!, headers: twice)
        guard
            case .refusal(let refusal) = WebSocketHandshake.answer(
                doubled, script: .echo, headers: [:], transcript: WebSocketTranscript())
        else {
            Issue.record("a handshake with two keys was taken")
            return
        }
        #expect(refusal.status == .badRequest)
        #expect(try refusal.body.data() == Data("a WebSocket handshake has one Sec-WebSocket-Key field\n".utf8))
    }

    @Test("the transcript keeps at most 16 KiB of a frame and 256 KiB in all, and every frame's length")
    func transcriptBounds() {
        let transcript = WebSocketTranscript()
        for _ in 0..<30 {
            transcript.record(.received, .binary, isFinal: true, payload: [UInt8](repeating: 7, count: 20_000))
        }
        let frames = transcript.frames
        #expect(frames.count == 30)
        #expect(frames.allSatisfy { $0.length == 20_000 })
        #expect(frames.map(\.payload.count).max() == 16 * 1024)
        #expect(frames.map(\.payload.count).reduce(0, +) == 256 * 1024)
        #expect(frames.last?.payload.isEmpty == true)
    }

    @Test("$ substitution: groups, $$, and a run of digits longer than any group number")
    func dollars() {
        let groups = ["whole", "one"]
        #expect(DollarSubstitution.apply(to: "$1 $0 $$ $2 $12", groups: groups) == "one whole $  one2")
        #expect(
            DollarSubstitution.apply(to: "$" + String(repeating: "1", count: 40), groups: groups)
                == "one" + String(repeating: "1", count: 39))
    }
}
