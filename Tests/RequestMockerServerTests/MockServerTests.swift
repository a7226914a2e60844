import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockServerTests {
    @Test func curlGetsTheResponseByteForByte() async throws {
        let registry = MockRegistry()
        registry.register(.get("/users/<id>")) { _, captures in
            .json(["id": .string(captures["id"] ?? "")]).withHeader("X-Served-By", "mock")
        }
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.curl(["--include", base.absoluteString + "/users/7"])
            #expect(result.status == 0)
            #expect(
                result.output
                    == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-Served-By: mock\r\n"
                    + "Content-Length: 10\r\n\r\n{\"id\":\"7\"}"
            )
            #expect(registry.journal.count == 1)
            #expect(registry.journal.first?.request.url.absoluteString == base.absoluteString + "/users/7")
            #expect(registry.journal.first?.request.headers["User-Agent"]?.hasPrefix("curl/") == true)
        }
    }

    @Test func unmatchedRequestGets404WithTheReport() async throws {
        let registry = MockRegistry()
        registry.register(.get("/users"), respond: .json([]))
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.curl(["--include", base.absoluteString + "/orders"])
            #expect(result.output.hasPrefix("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain; charset=utf-8\r\n"))
            #expect(result.output.contains("no filter matched GET \(base.absoluteString)/orders"))
            #expect(result.output.contains("GET /users"))
            #expect(registry.unmatchedRequests.count == 1)
        }
    }

    @Test func aMistakeInTheMocksGets500WithTheReason() async throws {
        let registry = MockRegistry()
        registry.register(.get("/file"), respond: .file(URL(fileURLWithPath: "/nonexistent/answer.json")))
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.curl(["--include", base.absoluteString + "/file"])
            #expect(result.output.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
            #expect(result.output.contains("/nonexistent/answer.json"))
        }
    }

    @Test func pythonKeepsOneConnectionForSeveralRequests() async throws {
        let registry = MockRegistry()
        registry.register(.get("/n/<n>")) { _, captures in .string("n=\(captures["n"] ?? "")") }
        try await withServer(registry) { _, base in
            let script = """
                import http.client, sys
                conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
                ports = set()
                for n in range(5):
                    conn.request("GET", "/n/%d" % n)
                    response = conn.getresponse()
                    print(response.status, response.read().decode())
                    ports.add(conn.sock.getsockname()[1])
                print("connections", len(ports))
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)])
            #expect(result.output == "200 n=0\n200 n=1\n200 n=2\n200 n=3\n200 n=4\nconnections 1\n")
        }
    }

    @Test func chunkedBodyAfterExpectContinue() async throws {
        let registry = MockRegistry()
        registry.register(.post("/echo")) { request, _ in .data(request.body ?? Data()) }
        try await withServer(registry) { _, base in
            let body = String(repeating: "0123456789", count: 500)
            let result = try await ExternalProcess.curl(
                [
                    "--verbose", "-H", "Transfer-Encoding: chunked", "-H", "Expect: 100-continue", "--data-binary",
                    "@-", base.absoluteString + "/echo",
                ],
                input: Data(body.utf8)
            )
            #expect(result.output == body)
            #expect(result.error.contains("< HTTP/1.1 100 Continue"))
            #expect(registry.journal.first?.request.body == Data(body.utf8))
        }
    }

    @Test func contentLengthBodyAndHeadRequest() async throws {
        let registry = MockRegistry()
        registry.register(.post("/echo")) { request, _ in .data(request.body ?? Data()) }
        registry.register(.head("/greeting"), respond: .string("Hello, world!"))
        try await withServer(registry) { _, base in
            let script = """
                import http.client, sys
                conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
                conn.request("POST", "/echo", body=b"a=1&b=2",
                             headers={"Content-Type": "application/x-www-form-urlencoded"})
                response = conn.getresponse()
                print(response.status, response.read())
                conn.request("HEAD", "/greeting")
                response = conn.getresponse()
                print(response.status, response.getheader("Content-Length"), response.read())
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)])
            #expect(result.output == "200 b'a=1&b=2'\n200 13 b''\n")
        }
    }

    @Test func delaysAndBandwidthLimitsHappenOnTheWire() async throws {
        let registry = MockRegistry()
        registry.register(.get("/slow"), respond: .string("late").delayed(by: .milliseconds(300)))
        registry.register(
            .get("/dribble"), respond: .data(Data(repeating: 65, count: 4_000)).throttled(bytesPerSecond: 16_000))
        try await withServer(registry) { _, base in
            let script = """
                import http.client, sys, time
                conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
                start = time.monotonic()
                conn.request("GET", "/slow")
                response = conn.getresponse()
                print(response.read().decode(), time.monotonic() - start >= 0.3)
                start = time.monotonic()
                conn.request("GET", "/dribble")
                response = conn.getresponse()
                # The server can't have sent more than its first piece plus the rate's worth of
                # the time since the request went out (one piece more for rounding in the pauses);
                # a late read only meets the bound later. Sent unpaced, all would come at once.
                total, paced = 0, True
                while total < 4000:
                    chunk = response.read1(65536)
                    if not chunk:
                        break
                    total += len(chunk)
                    paced = paced and total <= 1600 + 16000 * (time.monotonic() - start)
                print(total, paced, time.monotonic() - start >= 0.2)
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)])
            // 4,000 bytes at 16,000 B/s: 5 pieces of 800 bytes, 50 ms apart, the last at 0.2 s.
            #expect(result.output == "late True\n4000 True True\n")
        }
    }

    @Test func streamsAFileAndCutsABodyShort() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        let bytes = Data((0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        try bytes.write(to: file)
        let registry = MockRegistry()
        registry.register(.get("/big"), respond: .file(file))
        registry.register(.get("/cut"), respond: .file(file).truncated(afterBytes: 100_000))
        try await withServer(registry) { _, base in
            let copy = folder.appendingPathComponent("copy.bin")
            let result = try await ExternalProcess.curl(["--output", copy.path, base.absoluteString + "/big"])
            #expect(result.status == 0)
            #expect(try Data(contentsOf: copy) == bytes)
            let cut = try await ExternalProcess.curl(["--output", copy.path, base.absoluteString + "/cut"])
            // curl's exit status 18: "Partial file. Only a part of the file was transferred."
            #expect(cut.status == 18)
            #expect(try Data(contentsOf: copy) == bytes.prefix(100_000))
        }
    }

    @Test func http10ResponseClosesTheConnection() async throws {
        let registry = MockRegistry()
        registry.register(.get("/old"), respond: .string("old").withHTTPVersion("HTTP/1.0"))
        registry.register(.get("/new"), respond: .string("new").withHTTPVersion("HTTP/2"))
        try await withServer(registry) { _, base in
            let old = try await ExternalProcess.curl(["--include", base.absoluteString + "/old"])
            #expect(
                old.output
                    == "HTTP/1.0 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\n"
                    + "Content-Length: 3\r\nConnection: close\r\n\r\nold"
            )
            let new = try await ExternalProcess.curl(["--include", base.absoluteString + "/new"])
            #expect(new.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }

    @Test func redirectsGoToTheClient() async throws {
        let registry = MockRegistry()
        registry.register(.get("/old"), respond: .redirect(to: "/new", status: 301))
        registry.register(.get("/new"), respond: .string("moved here"))
        try await withServer(registry) { _, base in
            let plain = try await ExternalProcess.curl(["--include", base.absoluteString + "/old"])
            #expect(plain.output.hasPrefix("HTTP/1.1 301 Moved Permanently\r\nLocation: /new\r\n"))
            let followed = try await ExternalProcess.curl(["--location", base.absoluteString + "/old"])
            #expect(followed.output == "moved here")
        }
    }

    @Test func manyConnectionsAtOnce() async throws {
        let registry = MockRegistry()
        registry.register(.get("/n/<n>")) { _, captures in .string(captures["n"] ?? "") }
        try await withServer(registry) { _, base in
            let script = """
                import http.client, sys, threading
                port, results = int(sys.argv[1]), {}
                barrier = threading.Barrier(64)
                def fetch(n):
                    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
                    conn.connect()
                    barrier.wait()
                    conn.request("GET", "/n/%d" % n)
                    results[n] = conn.getresponse().read().decode()
                threads = [threading.Thread(target=fetch, args=(n,)) for n in range(64)]
                for t in threads: t.start()
                for t in threads: t.join()
                print(all(results[n] == str(n) for n in range(64)), len(results))
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)])
            #expect(result.output == "True 64\n")
            #expect(registry.journal.count == 64)
        }
    }

    @Test func urlSessionTalksToIt() async throws {
        let registry = MockRegistry()
        registry.register(.post("/users"), respond: .json(["id": 3], status: 201).withHeader("Location", "/users/3"))
        try await withServer(registry) { _, base in
            var request = URLRequest(url: base.appendingPathComponent("users"))
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"name":"Ada"}"#.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let (data, response) = try await plainSession().data(for: request)
            #expect(response.status == 201)
            #expect(String(decoding: data, as: UTF8.self) == #"{"id":3}"#)
            #expect(registry.journal.first?.request.body == Data(#"{"name":"Ada"}"#.utf8))
        }
    }

    @Test func stopEndsConnectionsAndReturns() async throws {
        let registry = MockRegistry()
        registry.register(.get("/stall"), respond: .fault(.stall))
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        let session = plainSession(timeout: 60)
        let waiting = Task {
            try await urlErrorCode { _ = try await session.data(from: base.appendingPathComponent("stall")) }
        }
        _ = try await registry.waitForRequests(count: 1, timeout: .seconds(60))
        server.stop()
        #expect(server.baseURL == nil)
        #expect(server.connectionCount == 0)
        // The stalled request ends with the connection, long before its 60-second timeout.
        let code = try await waiting.valueOrCancel
        #if os(Linux)
            // Measured with FoundationNetworking 6.3.1: either, by whether libcurl saw the
            // shutdown before or after its request went out.
            #expect(code == .badServerResponse || code == .networkConnectionLost)
        #else
            // Expected on Apple platforms: .networkConnectionLost; unmeasured, so only the
            // failure is checked.
            #expect(code != nil)
        #endif
        let refused = try await ExternalProcess.curl([base.absoluteString + "/stall"])
        #expect(refused.status == 7)  // curl: "Failed to connect to host."
    }

    @Test func startTwiceAndBindingATakenPortAreTypedErrors() throws {
        let first = MockServer()
        let base = try first.start()
        defer { first.stop() }
        #expect(throws: MockServerError.alreadyStarted) { try first.start() }
        let second = MockServer(configuration: .init(port: UInt16(base.port ?? 0)))
        defer { second.stop() }  // were it to start
        #expect {
            try second.start()
        } throws: { error in
            guard case .cannotListen(_, let port, let reason) = error as? MockServerError else { return false }
            return port == UInt16(base.port ?? 0) && reason.contains("Address already in use")
        }
    }
}

/// The server's log lines hide what `SecretNames` lists.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ServedRequestLogTests {
    // Before: `request-mocker serve` printed full URLs, query secrets included.
    @Test func theLogLineHidesSecretsInTheQuery() async throws {
        let lines = LockedState<[String]>([])
        let registry = MockRegistry()
        registry.register(.get("/items"), respond: .string("ok"))
        let server = MockServer(
            registry: registry, onRequest: { served in lines.withLock { $0.append(served.description) } })
        let base = try server.start()
        defer { server.stop() }
        let result = try await ExternalProcess.curl([base.absoluteString + "/items?api_key=K1&page=2&access_token=T1"])
        #expect(result.output == "ok")
        // Logged once the answer is written: maybe after curl has it.
        try await waitUntil(waitingFor: "the first request's log line") { !lines.withLock { $0.isEmpty } }
        let line = try #require(lines.withLock { $0.first })
        #expect(
            line.hasPrefix("GET /items?api_key=REDACTED&page=2&access_token=REDACTED -> 200 from filter "), "\(line)")
        let refused = try await RawClient.exchange(
            port: UInt16(base.port ?? 0), ["GET http://admin:s3cret@api.test/x HTTP/1.1\r\nHost: x\r\n\r\n"])
        #expect(refused.response.hasPrefix("HTTP/1.1 400 "))
        try await waitUntil(waitingFor: "the refused request's log line") { lines.withLock { $0.count >= 2 } }
        let logged = lines.withLock { $0 }
        #expect(logged.count == 2)
        #expect(!refused.response.contains("s3cret") && !logged.contains { $0.contains("s3cret") }, "\(logged)")
    }
}
