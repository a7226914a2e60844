import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The README's server examples, as written there, run against real clients.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct READMEExampleTests {
    @Test func loopbackServerExample() async throws {
        let registry = MockRegistry()
        registry.register(.get("/users/<id>")) { _, captures in .json(["id": .string(captures["id"] ?? "")]) }
        registry.register(.get("/slow"), respond: .string("late").delayed(by: .seconds(2)))
        let server = MockServer(registry: registry)
        let baseURL = try server.start()  // http://127.0.0.1:<a free port>
        defer { server.stop() }

        #expect(baseURL.host == "127.0.0.1")
        let result = try await ExternalProcess.curl([baseURL.absoluteString + "/users/7"])
        #expect(result.output == #"{"id":"7"}"#)
    }

    @Test func scriptedHangExample() async throws {
        let server = ScriptedServer(
            script: try .init(
                rules: [
                    .init(
                        "^GET /hang ",
                        [.text("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf"), .pause(.seconds(60))])
                ],
                framing: .delimiter("\r\n\r\n")
            ))
        try server.start()
        defer { server.stop() }
        var request = URLRequest(url: server.url(path: "/hang")!)
        request.timeoutInterval = 1  // -> URLError(.timedOut)

        #expect(try await urlErrorCode { _ = try await plainSession().data(for: request) } == .timedOut)
    }

    @Test func webSocketExample() async throws {
        let registry = MockRegistry()
        let script = try WebSocketScript(
            onConnect: [.text(#"{"type":"welcome"}"#)],
            rules: [
                .text("^hello (\\w+)$", [.text("hi $1"), .pause(.milliseconds(200)), .text("bye, $1")]),
                .json(["type": "ping"], [.text(#"{"type":"pong"}"#)]),  // any spelling of that JSON
                .binary(nil, [.echo]),  // every binary message
                .text("^quit$", [.close(code: 1000, reason: "see you")]),
                .any([.echo]),  // what nothing else matches
            ],
            subprotocols: ["chat.v2", "chat.v1"])
        registry.register(.webSocket("/chat"), respond: .webSocket(script))
        registry.register(.webSocket("/echo"), respond: .webSocket(.echo))

        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.webSocketClient(
                "ws://127.0.0.1:\(base.port ?? 0)/chat",
                """
                print(ws.subprotocol, await ws.recv())
                await ws.send("hello ada")
                print(await ws.recv(), await ws.recv())
                await ws.send('{"type":  "ping"}')
                print(await ws.recv())
                await ws.send(b"\\x01")
                print(await ws.recv())
                await ws.send("quit")
                await print_close(ws)
                """, subprotocols: ["chat.v1"])
            #expect(
                result.output
                    == "chat.v1 {\"type\":\"welcome\"}\nhi ada bye, ada\n{\"type\":\"pong\"}\nb'\\x01'\n1000 see you\n",
                "\(result.error)")
        }
        #expect(registry.journal.first?.webSocket?.received.first == .text("hello ada"))
    }
}
