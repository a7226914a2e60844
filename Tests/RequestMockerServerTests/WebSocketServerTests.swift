import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// WebSocket endpoints on `MockServer`, driven by Python's `websockets` (a client no one here
/// wrote) and, for frames no correct client sends, by raw bytes from Python's `socket`.
@Suite("WebSocket endpoints on MockServer", .timeLimit(.minutes(3)), .hangGuard)
struct WebSocketServerTests {
    func websockets(
        _ base: URL, _ path: String, _ body: String, subprotocols: [String] = []
    ) async throws
        -> ProcessResult
    {
        try await ExternalProcess.webSocketClient(
            "ws://127.0.0.1:\(base.port ?? 0)\(path)", body, subprotocols: subprotocols)
    }

    @Test("echo: text and binary come back as sent, a ping gets its pong, and the close is answered in kind")
    func echo() async throws {
        let registry = MockRegistry()
        registry.register(.webSocket("/echo"), respond: .webSocket(.echo))
        try await withServer(registry) { _, base in
            let result = try await websockets(
                base, "/echo",
                """
                await ws.send("hello")
                print(await ws.recv())
                await ws.send(b"\\x00\\x01\\xff")
                print(await ws.recv())
                pong = await ws.ping(b"are you there")
                await asyncio.wait_for(pong, 60)
                print("pong")
                await ws.send(["frag", "men", "ted"])
                print(await ws.recv())
                await ws.close(1000, "done")
                print(ws.close_code, ws.close_reason)
                """)
            #expect(result.output == "hello\nb'\\x00\\x01\\xff'\npong\nfragmented\n1000 \n", "\(result.error)")
        }
        let transcript = try #require(registry.journal.last?.webSocket)
        #expect(transcript.received == [.text("hello"), .binary(Data([0, 1, 0xFF])), .text("fragmented")])
        #expect(transcript.sent == transcript.received)
        let kinds = transcript.frames.map { "\($0.direction == .sent ? ">" : "<")\($0.kind)" }
        #expect(
            kinds == [
                // websockets ends a fragmented message with an empty final continuation.
                "<text", ">text", "<binary", ">binary", "<ping", ">pong", "<text", "<continuation", "<continuation",
                "<continuation", ">text", "<close", ">close",
            ])
        #expect(transcript.frames.last?.closeCode == 1000)
    }

    @Test("a script: messages on connect, patterns with groups, JSON values, pauses, and a close with its reason")
    func script() async throws {
        let registry = MockRegistry()
        let script = WebSocketScript(
            onConnect: [.text(#"{"type":"welcome"}"#)],
            rules: [
                try .text("^hello (\\w+)$", [.text("hi $1"), .pause(.milliseconds(200)), .text("and bye, $1")]),
                .json(["type": "ping"], [.text(#"{"type":"pong"}"#)]),
                try .text("^bye$", [.close(code: 4000, reason: "see you")]),
            ])
        registry.register(.webSocket("/chat"), respond: .webSocket(script))
        try await withServer(registry) { _, base in
            let result = try await websockets(
                base, "/chat",
                """
                print(await ws.recv())
                # Timed from the send: the server can't answer sooner, however late this reads.
                started = asyncio.get_running_loop().time()
                await ws.send("hello ada")
                print(await ws.recv())
                print(await ws.recv(), asyncio.get_running_loop().time() - started >= 0.2)
                await ws.send('{ "type": "ping" }')
                print(await ws.recv())
                await ws.send("bye")
                await print_close(ws)
                """)
            #expect(
                result.output
                    == "{\"type\":\"welcome\"}\nhi ada\nand bye, ada True\n{\"type\":\"pong\"}\n4000 see you\n",
                "\(result.error)")
        }
    }

    @Test("a message no rule matches closes with 1008; one over the size limit with 1009")
    func unmatchedAndOversized() async throws {
        let registry = MockRegistry()
        registry.register(.webSocket("/strict"), respond: .webSocket(WebSocketScript(rules: [try .text("^ok$", [])])))
        registry.register(
            .webSocket("/small"),
            respond: .webSocket(WebSocketScript(rules: [.any([.echo])], maximumMessageSize: 1_000)))
        try await withServer(registry) { _, base in
            let closing = "await print_close(ws)"
            let unmatched = try await websockets(
                base, "/strict", "await ws.send(\"ok\")\nawait ws.send(\"nope\")\n" + closing)
            #expect(unmatched.output == "1008 no rule of the script matches the message\n", "\(unmatched.error)")
            let oversized = try await websockets(
                base, "/small", "await ws.send([\"a\" * 600, \"b\" * 600])\n" + closing)
            #expect(oversized.output == "1009 a message is over 1000 bytes\n", "\(oversized.error)")
        }
    }

    @Test("of the subprotocols the client offers, the one the script prefers is chosen")
    func subprotocols() async throws {
        let registry = MockRegistry()
        registry.register(
            .webSocket("/chat"),
            respond: .webSocket(WebSocketScript(rules: [.any([.echo])], subprotocols: ["v2", "v1"])))
        try await withServer(registry) { _, base in
            let result = try await websockets(base, "/chat", "print(ws.subprotocol)", subprotocols: ["v1", "v2"])
            #expect(result.output == "v2\n", "\(result.error)")
        }
    }

    /// Sends a correct handshake, then `frames` (hex), and prints the close code and reason the
    /// server sends back.
    func raw(_ base: URL, _ frames: String) async throws -> ProcessResult {
        let script = try #require(
            Bundle.module.url(forResource: "websocket_raw_client", withExtension: "py", subdirectory: "Fixtures"))
        return try await ExternalProcess.python(file: script, [String(base.port ?? 0), frames])
    }

    /// Frames (hex; masked with 0000 0000 unless noted) and the close code and reason they get.
    static let violations: [(frames: String, closing: String)] = [
        // An unmasked text frame.
        ("810141", "1002 a client's frames must be masked"),
        // A masked text frame whose payload is not UTF-8 (0xC3 0x28).
        ("8182" + "00000000" + "c328", "1007 a text message must be UTF-8"),
        // Opcode 3 is reserved.
        ("8380" + "00000000", "1002 opcode 3 is reserved"),
        // RSV1 set without an extension.
        ("c180" + "00000000", "1002 reserved bits are set, and no extension was agreed"),
        // A ping that isn't final.
        ("0980" + "00000000", "1002 a control frame can't be fragmented"),
        // A length of 5 sent in 16 bits.
        ("81fe0005" + "00000000" + "6869212121", "1002 a length under 126 must be sent in 7 bits"),
        // A continuation with nothing to continue.
        ("8080" + "00000000", "1002 a continuation frame arrived with no message to continue"),
        // A client close with a reserved code (1005).
        ("8882" + "00000000" + "03ed", "1002 close code 1005 may not be sent"),
        // 100 bytes, then a continuation announcing 1,000 more: over the 1,024 the endpoint
        // takes, refused before the continuation's payload arrives.
        (
            "01e4" + "00000000" + String(repeating: "61", count: 100) + "00fe03e8" + "00000000",
            "1009 a message is over 1024 bytes"
        ),
    ]

    @Test("frames that break RFC 6455 are answered with the close code that says so", arguments: violations)
    func protocolViolations(frames: String, closing: String) async throws {
        let registry = MockRegistry()
        registry.register(
            .webSocket("/echo"), respond: .webSocket(WebSocketScript(rules: [.any([.echo])], maximumMessageSize: 1_024))
        )
        try await withServer(registry) { _, base in
            let result = try await raw(base, frames)
            #expect(result.output == "HTTP/1.1 101 Switching Protocols True\n8 \(closing)\n", "\(result.error)")
        }
    }

    @Test("an HTTP/1.0 handshake gets 400: switching protocols needs HTTP/1.1")
    func http10Handshake() async throws {
        let registry = MockRegistry()
        registry.register(.webSocket("/echo"), respond: .webSocket(.echo))
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.curl([
                "--http1.0", "--include", "-H", "Upgrade: websocket", "-H", "Connection: Upgrade",
                "-H", "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==", "-H", "Sec-WebSocket-Version: 13",
                base.appendingPathComponent("echo").absoluteString,
            ])
            #expect(result.output.hasPrefix("HTTP/1.1 400 Bad Request\r\n"), "\(result.output)")
            #expect(result.output.hasSuffix("a WebSocket handshake needs HTTP/1.1\n"))
        }
    }

    @Test("a client that leaves without closing ends the session; its connection and thread are gone")
    func clientLeaves() async throws {
        let registry = MockRegistry()
        let served = LockedState<[String]>([])
        registry.register(.webSocket("/echo"), respond: .webSocket(.echo))
        let server = MockServer(registry: registry) { request in served.withLock { $0.append("\(request.outcome)") } }
        let base = try server.start()
        defer { server.stop() }
        let result = try await websockets(
            base, "/echo", "await ws.send(\"x\")\nprint(await ws.recv())\nws.transport.abort()")
        #expect(result.output == "x\n", "\(result.error)")
        try await waitUntil(waitingFor: "the session to end and its connection to close") {
            server.connectionCount == 0 && !served.withLock { $0 }.isEmpty
        }
        #expect(served.withLock { $0 } == ["webSocket(closeCode: nil, received: 1, sent: 1)"])
    }

    @Test("stop() ends an open WebSocket at once")
    func serverStops() async throws {
        let registry = MockRegistry()
        registry.register(.webSocket("/echo"), respond: .webSocket(.echo))
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        let client = BackgroundClient {
            try await websockets(
                base, "/echo",
                """
                await ws.send("x")
                print(await ws.recv())
                try:
                    await ws.recv()
                except ConnectionClosed as closed:
                    print("closed", closed.rcvd is None)
                """)
        }
        defer { client.cancel() }
        // Once the echo went out, the client is waiting for more, and would for as long as the
        // test runs: only `stop()` ends the session. A client that ends before (it couldn't
        // connect) fails the wait with what it printed.
        try await client.waitUntil(waitingFor: "the echo to go out") {
            (registry.journal.last?.webSocket?.frames.count ?? 0) >= 2
        }
        try await returns(within: 60, "stop() to return") { server.stop() }
        let result = try await client.result
        #expect(result.output == "x\nclosed True\n", "\(result.error)")
    }

    @Test("URLSessionWebSocketTask: what FoundationNetworking does against the loopback server")
    func urlSessionWebSocketTask() async throws {
        let registry = MockRegistry()
        registry.register(.webSocket("/echo"), respond: .webSocket(.echo))
        try await withServer(registry) { _, base in
            let url = try #require(URL(string: "ws://127.0.0.1:\(base.port ?? 0)/echo"))
            let task = plainSession().webSocketTask(with: url)
            task.resume()
            #if canImport(FoundationNetworking)
                // Swift 6.3.1's FoundationNetworking speaks WebSocket through libcurl, and
                // Debian's libcurl 7.88 is built without it: the task fails before connecting.
                await #expect {
                    try await task.send(.string("hello"))
                } throws: { error in
                    (error as? URLError)?.code == .unsupportedURL
                        && error.localizedDescription == "WebSockets not supported by libcurl"
                }
            #else
                try await task.send(.string("hello"))
                let message = try await task.receive()
                guard case .string(let text) = message else { throw CancellationError() }
                #expect(text == "hello")
                task.cancel(with: .normalClosure, reason: nil)
            #endif
        }
    }
}
