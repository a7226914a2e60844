import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// `request-mocker serve --stubs` and `--admin`, driven with curl.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct StubsAndAdminTests {
    /// Waits until the server's log has `line`, whole.
    func waitForLog(_ serving: BackgroundProcess, line: String) async throws {
        try await waitUntil(60, waitingFor: "the server to print \(line)") {
            serving.log.contains("\n" + line + "\n")
        }
    }

    @Test func stubsAnswerWithTemplatesAndReloadWhenTheFileChanges() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write(
            "stubs.json",
            """
            {"stubs": [
              {"request": {"method": "GET", "path": "/users/<id>"},
               "response": {"template": true, "headers": {"X-Query": "{{query.q}}"},
                            "json": {"id": "{{id}}", "agent": "{{header.X-Agent}}"}}}
            ]}
            """)
        try folder.write("GET|-users-1.json", #"{"from": "the folder"}"#)
        let (serving, base) = try await serving(["--stubs", stubs.path, folder.url.path])
        let templated = try await ExternalProcess.curl([
            "--include", "-H", "X-Agent: tests", base.absoluteString + "/users/7?q=swift",
        ])
        #expect(templated.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(templated.output.contains("\r\nX-Query: swift\r\n"))
        #expect(templated.output.hasSuffix(#"{"agent":"tests","id":"7"}"#))
        // The stubs come before the folder.
        #expect(try await ExternalProcess.curl([base.absoluteString + "/users/1"]).output == #"{"agent":"","id":"1"}"#)

        // Written whole (a new file renamed over the old): the watcher never reads half an edit.
        try Data(
            #"{"stubs": [{"request": {"path": "/users/<id>"}, "response": {"status": 410, "body": "gone"}}]}"#.utf8
        ).write(to: stubs, options: .atomic)
        try await waitForLog(serving, line: "reloaded \(stubs.path): 1 stub")
        let reloaded = try await ExternalProcess.curl(["--include", base.absoluteString + "/users/7"])
        #expect(reloaded.output.hasPrefix("HTTP/1.1 410 Gone\r\n"))
        #expect(reloaded.output.hasSuffix("\r\n\r\ngone"))

        try Data("{\"stubs\": [\n  {\"request\": {}, \"response\": {\"delay\": \"soon\"}}\n]}".utf8)
            .write(to: stubs, options: .atomic)
        try await waitForLog(
            serving,
            line: "stubs file \(stubs.path):2:41: at stubs[0].response.delay: expected a number of seconds from 0 to "
                + "3600; fix the file (its schema is stubs.schema.json); keeping the last good stubs")
        let kept = try await ExternalProcess.curl(["--include", base.absoluteString + "/users/7"])
        #expect(await serving.interrupt() == 0)
        #expect(kept.output.hasPrefix("HTTP/1.1 410 Gone\r\n"))
        #expect(serving.log.hasPrefix("Serving \(stubs.path) and \(folder.url.path) at \(base) (Ctrl-C to stop)\n"))
    }

    @Test func aBadStubsFileAtStartExits65() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write("stubs.json", #"{"stubs": [{"request": {"path": 7}, "response": {}}]}"#)
        let result = try await Command.run(["serve", "--stubs", stubs.path])
        #expect(result.status == 65)
        #expect(
            result.error
                == "request-mocker: stubs file \(stubs.path):1:33: at stubs[0].request.path: expected a string; "
                + "fix the file (its schema is stubs.schema.json)\n")
        let missing = try await Command.run(["serve", "--stubs", folder.url.path + "/none.json"])
        #expect(missing.status == 66)
        #expect(missing.error == "request-mocker: no stubs file at \(folder.url.path)/none.json\n")
    }

    @Test func theAdminAPIAddsAndRemovesStubsAndShowsTheRequests() async throws {
        let (serving, baseURL) = try await serving(["--admin"])
        let base = baseURL.absoluteString
        let admin = base + "/__admin"
        let added = try await ExternalProcess.curl([
            "--include", "-H", "Content-Type: application/json", "-d",
            #"{"request": {"method": "GET", "path": "/hello"}, "response": {"body": "hi"}}"#,
            admin + "/stubs",
        ])
        #expect(added.output.hasPrefix("HTTP/1.1 201 Created\r\n"))
        #expect(added.output.hasSuffix("{\n  \"id\": \"1\"\n}"))
        #expect(try await ExternalProcess.curl([base + "/hello"]).output == "hi")
        let missing = try await ExternalProcess.curl(["--include", base + "/missing?page=2"])
        #expect(missing.output.hasPrefix("HTTP/1.1 404 Not Found\r\n"))

        let listed = try JSONValue(parsing: Data(try await ExternalProcess.curl([admin + "/stubs"]).output.utf8))
        #expect(
            listed
                == [
                    "stubs": [
                        [
                            "id": "1", "source": "admin", "enabled": true,
                            "request": ["method": "GET", "path": "/hello"],
                            "response": ["body": "hi"],
                        ]
                    ]
                ])
        let requests = try JSONValue(parsing: Data(try await ExternalProcess.curl([admin + "/requests"]).output.utf8))
        guard case .array(let entries)? = requests["requests"], entries.count == 2 else {
            Issue.record("expected two requests: \(requests)")
            return
        }
        #expect(entries[0]["method"] == "GET")
        #expect(entries[0]["url"] == .string(base + "/hello"))
        #expect(entries[0]["answeredBy"] == "filter GET /hello (admin stub)")
        #expect(entries[0]["headers"]?[0] == ["name": "Host", "value": .string(String(base.dropFirst(7)))])
        #expect(entries[0]["time"]?.stringValue?.hasSuffix("Z") == true)
        #expect(entries[1]["answeredBy"] == "unmatched")
        let unmatched = try JSONValue(
            parsing: Data(try await ExternalProcess.curl([admin + "/requests/unmatched"]).output.utf8))
        #expect(unmatched["requests"]?[0]?["url"] == .string(base + "/missing?page=2"))
        #expect(unmatched["requests"]?[0]?["report"]?.stringValue?.contains("GET /hello (admin stub)") == true)

        let json = ["-H", "Content-Type: application/json"]
        let removed = try await ExternalProcess.curl(json + ["-X", "DELETE", admin + "/stubs/1"])
        #expect(removed.output == "{\n  \"removed\": \"1\"\n}")
        let again = try await ExternalProcess.curl(json + ["--include", "-X", "DELETE", admin + "/stubs/1"])
        #expect(again.output.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(again.output.contains(#""error": "no added stub has the id \"1\"; GET /__admin/stubs lists them""#))
        #expect(
            try await ExternalProcess.curl(["-o", "/dev/null", "-w", "%{http_code}", base + "/hello"]).output == "404")
        _ = try await ExternalProcess.curl(json + ["-X", "POST", admin + "/reset"])
        let cleared = try await ExternalProcess.curl([admin + "/requests"])
        #expect(cleared.output == "{\n  \"requests\": []\n}")
        #expect(await serving.interrupt() == 0)
    }

    @Test(arguments: [
        (
            ["-H", "Content-Type: application/json", "-d", "not json", "/stubs"], "400 Bad Request",
            #""error": "the body is not JSON: invalid JSON at byte 0: expected null""#
        ),
        (
            ["-d", #"{"request": {}, "response": {}}"#, "/stubs"], "415 Unsupported Media Type",
            #""error": "an admin call that changes something needs Content-Type: application/json (which a web "#
                + #"page's form can't send), even without a body: curl -X POST "#
                + #"-H 'Content-Type: application/json' …""#
        ),
        (
            ["-H", "Origin: https://evil.test", "-X", "POST", "/reset"], "403 Forbidden",
            #""error": "the admin API answers only its own page: this call comes from the web page at "#
                + #"\"https://evil.test\"""#
        ),
        (
            ["-H", "Host: rebound.evil.test", "/requests"], "403 Forbidden",
            #""error": "without the token the admin API answers only requests to a loopback host "#
                + #"(localhost, 127.0.0.1) or the address it listens on; this one is to rebound.evil.test""#
        ),
        (
            [
                "-H", "Content-Type: application/json", "-d",
                #"{"request": {}, "response": {"bodyFile": "/etc/passwd"}}"#, "/stubs",
            ], "400 Bad Request",
            #""error": "the stub is not valid: at response.bodyFile: \"bodyFile\" is for stubs files; "#
                + #"send the body as \"body\" or \"base64Body\"""#
        ),
        (
            ["-H", "Content-Type: application/json", "-X", "PUT", "/stubs"], "405 Method Not Allowed",
            #""error": "PUT is not allowed here; use GET, POST""#
        ),
        (
            ["/drift"], "404 Not Found",
            #""error": "nothing checks the upstream's traffic: serve with --openapi FILE --upstream URL "#
                + #"--upstream-first""#
        ),
        (
            ["/nothing"], "404 Not Found",
            #""error": "no admin call GET /__admin/nothing; the calls are GET /__admin/stubs, POST /__admin/stubs, "#
                + "DELETE /__admin/stubs/<id>, POST /__admin/reset, GET /__admin/resources, PUT /__admin/resources, "
                + "GET /__admin/drift, GET /__admin/requests, GET /__admin/requests/unmatched, GET /__admin/scenarios, "
                + "PUT /__admin/scenarios/<name>/state, POST /__admin/scenarios/reset, PATCH /__admin/stubs/<id>, "
                + "POST /__admin/resources/reset, GET /__admin/, GET /__admin/events, GET /__admin/exchanges, "
                + #"GET /__admin/exchanges/<id>, GET /__admin/exchanges.har, POST /__admin/exchanges/<id>/mock""#
        ),
    ])
    func adminMistakesAreJSONErrors(arguments: [String], status: String, error: String) async throws {
        let (serving, base) = try await serving(["--admin"])
        var curl = ["--include"] + arguments.dropLast()
        curl.append(base.absoluteString + "/__admin" + (arguments.last ?? ""))
        let answer = try await ExternalProcess.curl(curl)
        #expect(await serving.interrupt() == 0)
        #expect(answer.output.hasPrefix("HTTP/1.1 \(status)\r\n"))
        #expect(answer.output.contains("\r\nContent-Type: application/json\r\n"))
        #expect(answer.output.contains(error), "\(answer.output)")
    }

    @Test func aTokenGuardsTheAdminAPIAndStaysOutOfTheLog() async throws {
        let (serving, baseURL) = try await serving(["--admin", "--admin-token", "s3cret-token"])
        let admin = baseURL.absoluteString + "/__admin/stubs"
        let without = try await ExternalProcess.curl(["--include", admin])
        let wrong = try await ExternalProcess.curl(["--include", "-H", "Authorization: Bearer s3cret-tokeN", admin])
        let with = try await ExternalProcess.curl(["--include", "-H", "Authorization: Bearer s3cret-token", admin])
        #expect(await serving.interrupt() == 0)
        #expect(without.output.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
        #expect(without.output.contains("\r\nWWW-Authenticate: Bearer\r\n"))
        #expect(
            without.output.hasSuffix(
                "{\n  \"error\": \"the admin API needs the header Authorization: Bearer <the server's admin token>\"\n}"
            ))
        #expect(wrong.output.hasPrefix("HTTP/1.1 401 Unauthorized\r\n"))
        #expect(with.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(!serving.log.contains("s3cret-token"))
    }

    @Test(arguments: [
        (
            ["serve", "--admin-token", "t"],
            "request-mocker: --admin-token goes with --admin, which turns the admin API on\n"
        ),
        (
            ["serve", "--admin", "--host", "0.0.0.0"],
            "request-mocker: --admin on 0.0.0.0, which other machines can reach, needs --admin-token TOKEN "
                + "(or REQUEST_MOCKER_ADMIN_TOKEN); or serve on 127.0.0.1\n"
        ),
        (["serve", "--stubs"], "request-mocker: --stubs needs a value, for example --stubs stubs.json\n"),
    ])
    func badAdminAndStubsFlagsExit64(arguments: [String], message: String) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == 64)
        #expect(result.error == message)
    }
}

/// `MockServerClient` in this process driving `request-mocker serve --admin` in another, as an
/// XCUITest drives the server its app talks to.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockServerClientAgainstTheCommandTests {
    @Test func theClientChangesTheAnswersAndSeesTheRequests() async throws {
        let folder = try TemporaryFolder()
        try folder.write("GET|-flags.json", #"{"newCheckout": false}"#)
        let (serving, base) = try await serving([folder.url.path, "--admin", "--admin-token", "t"])
        let client = MockServerClient(baseURL: base, token: "t")
        #expect(try await ExternalProcess.curl([base.absoluteString + "/flags"]).output == #"{"newCheckout": false}"#)

        let id = try await client.register(.get("/flags").respond(with: .json(["newCheckout": true])))
        #expect(try await ExternalProcess.curl([base.absoluteString + "/flags"]).output == #"{"newCheckout":true}"#)
        _ = try await ExternalProcess.curl(["-d", "item=7", base.absoluteString + "/cart"])
        let cart = try await client.waitForRequest(matching: .post("/cart"), timeout: .seconds(60))
        #expect(cart.bodyText == "item=7")
        #expect(try await client.requests(matching: .get("/flags")).count == 2)

        try await client.remove(id)
        #expect(try await ExternalProcess.curl([base.absoluteString + "/flags"]).output == #"{"newCheckout": false}"#)
        #expect(await serving.interrupt() == 0)
        #expect(serving.log.contains("GET /flags -> 200 from filter GET /flags (admin stub)"))
    }
}

/// `request-mocker serve --stubs Examples/stubs.json` serves its events and its WebSocket.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct StreamingStubsThroughTheCommandTests {
    @Test func theExampleStubsStreamEventsAndPlayTheirWebSocket() async throws {
        let example = Command.packageRoot.appendingPathComponent("Examples/stubs.json")
        let (serving, base) = try await serving(["--stubs", example.path])
        // The checkout scenario: the order is paid only once the payment is made.
        let order = base.absoluteString + "/orders/1"
        #expect(try await ExternalProcess.curl(["--write-out", "%{http_code}", order]).output.hasSuffix("404"))
        _ = try await ExternalProcess.curl(["-X", "POST", order + "/pay"])
        #expect(try await ExternalProcess.curl([order]).output == #"{"id":"1","status":"paid"}"#)
        let events = try await ExternalProcess.curl(["-N", base.absoluteString + "/v1/chat"])
        #expect(
            events.output
                == "event: token\nid: 1\ndata: Hel\n\nevent: token\nid: 2\ndata: lo\n\n"
                + "event: done\nid: 3\ndata: [DONE]\n\n")
        let chat = try await ExternalProcess.webSocketClient(
            "ws://\(base.host ?? ""):\(base.port ?? 0)/chat",
            """
            print(await asyncio.wait_for(ws.recv(), 60))
            await ws.send('{"type": "ping"}')
            print(await asyncio.wait_for(ws.recv(), 60))
            await ws.send("anything")
            print(await asyncio.wait_for(ws.recv(), 60))
            await ws.send("bye")
            await print_close(ws)
            """)
        #expect(
            chat.output == "{\"type\": \"welcome\"}\n{\"type\": \"pong\"}\nanything\n1000 see you\n", "\(chat.error)")
        #expect(await serving.interrupt() == 0)
        #expect(serving.log.contains("GET /chat -> 101 WebSocket, 3 messages in, 3 out, closed 1000"))
    }
}
