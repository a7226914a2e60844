import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// Hostile and broken clients get the right status, and never take the server down: after each,
/// a good request on a new connection is still answered.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockServerLimitTests {
    /// A body limit of 1,000 bytes, and the timeouts given: a test sets short only the one it is
    /// about. The others are long, so a client the machine holds up between its connect and its
    /// request (or between two requests) is never cut off; they cost nothing, as every test ends
    /// its connections.
    static func configuration(
        head: Duration = .seconds(60), request: Duration = .seconds(60), idle: Duration = .seconds(60)
    ) -> MockServer.Configuration {
        var configuration = MockServer.Configuration()
        configuration.maximumBodySize = 1_000
        configuration.requestHeadTimeout = head
        configuration.requestTimeout = request
        configuration.idleTimeout = idle
        return configuration
    }

    static func registry() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(.get("/fine"), respond: .string("fine"))
        registry.register(.post("/upload"), respond: .status(204))
        // Never ready in any test's time: it holds its connection busy until the server's response
        // timeout, or `stop()`, cancels it.
        registry.register(.get("/slow")) { _, _ in
            try await Task.sleep(for: .seconds(600))
            return .string("slow")
        }
        return registry
    }

    static let good = "GET /fine HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"

    /// A request no well-behaved client sends, named for the test report.
    struct BadRequest: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: String
        let status: Int
        /// The body's message, when the case pins it.
        var reason: String?

        var testDescription: String { "\(name) -> \(status)" }
    }

    static let badRequests = [
        BadRequest(
            name: "request line of 9 KB",
            bytes: "GET /\(String(repeating: "a", count: 9_000)) HTTP/1.1\r\nHost: x\r\n\r\n", status: 414),
        BadRequest(
            name: "70 KB of headers",
            bytes: "GET / HTTP/1.1\r\nHost: x\r\n"
                + String(repeating: "X-Filler: \(String(repeating: "f", count: 1_000))\r\n", count: 70) + "\r\n",
            status: 431
        ),
        BadRequest(
            name: "Content-Length over the limit",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n", status: 413),
        BadRequest(
            name: "chunked body over the limit",
            bytes:
                "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "800\r\n\(String(repeating: "z", count: 2048))\r\n0\r\n\r\n",
            status: 413
        ),
        BadRequest(
            name: "header line without a colon", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\nBroken header line\r\n\r\n",
            status: 400, reason: #"a header line has no colon: "Broken header line""#),
        BadRequest(
            name: "folded header", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\n Folded: value\r\n\r\n", status: 400,
            reason: "a header line starts with whitespace (line folding is not accepted)"),
        BadRequest(
            name: "space before a header's colon", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\nX-A : 1\r\n\r\n",
            status: 400, reason: #"the header name "X-A " is not a token"#),
        BadRequest(
            name: "header without a name", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\n: value\r\n\r\n", status: 400,
            reason: #"the header name "" is not a token"#),
        BadRequest(
            name: "carriage return inside a value", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\nX-A: 1\r2\r\n\r\n",
            status: 400, reason: "the value of X-A contains a control character"),
        BadRequest(
            name: "NUL inside a value", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\nX-A: 1\u{0}2\r\n\r\n",
            status: 400, reason: "the value of X-A contains a control character"),
        BadRequest(
            name: "request line with three spaces", bytes: "GET /fine  HTTP/1.1\r\nHost: x\r\n\r\n", status: 400,
            reason: "the request line is not `METHOD target HTTP/1.1`"),
        BadRequest(name: "not a request line", bytes: "NOT A REQUEST\r\n\r\n", status: 400),
        BadRequest(name: "HTTP/1.1 without Host", bytes: "GET /fine HTTP/1.1\r\n\r\n", status: 400),
        BadRequest(
            name: "Content-Length and Transfer-Encoding",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n",
            status: 400
        ),
        BadRequest(
            name: "conflicting lengths", bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 3, 4\r\n\r\nabcd",
            status: 400),
        BadRequest(
            name: "bad chunk size",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", status: 400),
        BadRequest(
            name: "negative chunk size",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\nA",
            status: 400
        ),
        BadRequest(name: "HTTP/2.0 request line", bytes: "GET /fine HTTP/2.0\r\nHost: x\r\n\r\n", status: 505),
        BadRequest(
            name: "unknown expectation", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\nExpect: something-else\r\n\r\n",
            status: 417),
        // Before: read as "no body", so the body was answered as a second request.
        BadRequest(
            name: "empty Content-Length, then a body that looks like a request",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: \r\n\r\nGET /fine HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400),
        BadRequest(
            name: "Content-Length of a lone comma",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: ,\r\n\r\nGET /fine HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400),
        // Before: the Host was pasted in front of the target, so this answered /fine.
        BadRequest(
            name: "Host with a path and a fragment", bytes: "GET /nothing HTTP/1.1\r\nHost: x/fine#\r\n\r\n",
            status: 400),
        BadRequest(name: "Host with a user", bytes: "GET /fine HTTP/1.1\r\nHost: evil@x\r\n\r\n", status: 400),
        BadRequest(name: "Host with a space", bytes: "GET /fine HTTP/1.1\r\nHost: x y\r\n\r\n", status: 400),
        BadRequest(name: "two Host headers", bytes: "GET /fine HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", status: 400),
        BadRequest(name: "target with a fragment", bytes: "GET /fine#top HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        BadRequest(name: "target with a broken escape", bytes: "GET /fine%zz HTTP/1.1\r\nHost: x\r\n\r\n", status: 400),
        BadRequest(
            name: "absolute target with a user", bytes: "GET http://evil@x/fine HTTP/1.1\r\nHost: x\r\n\r\n",
            status: 400),
        // Before: the space was dropped and the size read as 0x14.
        BadRequest(
            name: "chunk size with a space inside",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1 4\r\n"
                + String(repeating: "z", count: 20) + "\r\n0\r\n\r\n",
            status: 400),
        // Before: accepted when the whole line arrived in one read.
        BadRequest(
            name: "chunk line over 8 KiB, arriving whole",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2;"
                + String(repeating: "e", count: 9_000) + "\r\nzz\r\n0\r\n\r\n",
            status: 400),
        BadRequest(
            name: "trailers over 8 KiB",
            bytes: "POST /upload HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n"
                + String(repeating: "X-Trailer: \(String(repeating: "t", count: 1_000))\r\n", count: 9) + "\r\n",
            status: 400),
    ]

    @Test(arguments: badRequests)
    func refusesWithTheRightStatusAndKeepsServing(_ bad: BadRequest) async throws {
        try await withServer(Self.registry(), configuration: Self.configuration()) { _, base in
            let port = UInt16(base.port ?? 0)
            let reply = try await RawClient.exchange(port: port, [bad.bytes])
            #expect(reply.response.hasPrefix("HTTP/1.1 \(bad.status) "), "\(reply.response.prefix(200))")
            if let reason = bad.reason {
                #expect(reply.response.hasSuffix("\r\n\r\n\(reason)\n"), "\(reply.response)")
            }
            let statusLines = reply.response.components(separatedBy: "\r\n").filter { $0.hasPrefix("HTTP/1.1 ") }
            #expect(statusLines.count == 1, "one answer, then the close: \(statusLines)")
            #expect(reply.response.contains("Connection: close"))
            #expect(reply.ending == "closed")
            let next = try await RawClient.exchange(port: port, [Self.good])
            #expect(next.response.hasSuffix("\r\n\r\nfine"))
        }
    }

    @Test func slowClientGets408() async throws {
        try await withServer(Self.registry(), configuration: Self.configuration(head: .milliseconds(400))) { _, base in
            // Half a request, then nothing: the head timeout ends it, long before the client's 60 s.
            let reply = try await RawClient.exchange(port: UInt16(base.port ?? 0), ["GET /fine HTTP/1.1\r\nHo"])
            #expect(reply.response.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            #expect(reply.ending == "closed")
            #expect(
                try await RawClient.exchange(port: UInt16(base.port ?? 0), [Self.good]).response.hasSuffix(
                    "\r\n\r\nfine"))
        }
    }

    @Test func slowLorisTricklingBytesIsCutOffToo() async throws {
        try await withServer(Self.registry(), configuration: Self.configuration(head: .milliseconds(400))) { _, base in
            // A byte every 100 ms (or later) never lets a read time out, but the head as a whole
            // does: its 38 bytes take at least 3.7 s.
            let parts = "GET /fine HTTP/1.1\r\nHost: localhost\r\n".map(String.init)
            let reply = try await RawClient.exchange(port: UInt16(base.port ?? 0), parts, pause: 0.1)
            #expect(reply.response.hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
            #expect(
                try await RawClient.exchange(port: UInt16(base.port ?? 0), [Self.good]).response.hasSuffix(
                    "\r\n\r\nfine"))
        }
    }

    @Test func idleConnectionIsClosedWithoutAWord() async throws {
        // A few seconds: the good request after it must not meet the idle timeout between its
        // client's connect and its request, however busy the machine.
        try await withServer(Self.registry(), configuration: Self.configuration(idle: .seconds(3))) { _, base in
            // Nothing sent: the idle timeout closes it, long before the client's 60 s.
            let reply = try await RawClient.exchange(port: UInt16(base.port ?? 0), [])
            #expect(reply.response == "")
            #expect(reply.ending == "closed")
            #expect(
                try await RawClient.exchange(port: UInt16(base.port ?? 0), [Self.good]).response.hasSuffix(
                    "\r\n\r\nfine"))
        }
    }

    @Test func keepAliveThenIdleTimeout() async throws {
        // Far longer than the client's 0.1 s between its two requests, so the first's connection is
        // still there for the second however late the client sends it.
        try await withServer(Self.registry(), configuration: Self.configuration(idle: .seconds(5))) { _, base in
            let request = "GET /fine HTTP/1.1\r\nHost: localhost\r\n\r\n"
            let reply = try await RawClient.exchange(port: UInt16(base.port ?? 0), [request, request], pause: 0.1)
            #expect(reply.response.components(separatedBy: "HTTP/1.1 200 OK").count == 3)
            #expect(reply.ending == "closed")
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await withServer(Self.registry(), configuration: Self.configuration()) { _, base in
            let first = "GET /fine HTTP/1.1\r\nHost: localhost\r\n\r\n"
            let reply = try await RawClient.exchange(port: UInt16(base.port ?? 0), [first + first + Self.good])
            #expect(reply.response.components(separatedBy: "\r\n\r\nfine").count == 4)
            #expect(reply.ending == "closed")
        }
    }

    @Test func oneBadConnectionNeverDisturbsTheOthers() async throws {
        // Longer than any test: only `stop()` ends the stuck client's connection.
        let configuration = Self.configuration(head: .seconds(600), request: .seconds(600))
        try await withServer(Self.registry(), configuration: configuration) { server, base in
            // A client that sends half a head and then waits, holding its connection.
            let stuck = Task {
                try await RawClient.exchange(port: UInt16(base.port ?? 0), ["GET /fine HTTP/1.1\r\n"], timeout: 600)
            }
            try await waitUntil(waitingFor: "the stuck client's half a head to arrive") {
                server.connectionsGivingWay.readingHead == 1
            }
            let session = plainSession()
            try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        String(
                            decoding: try await session.data(from: base.appendingPathComponent("fine")).0, as: UTF8.self
                        )
                    }
                }
                for try await body in group { #expect(body == "fine") }
            }
            #expect(server.connectionsGivingWay.readingHead == 1, "the stuck client still holds its connection")
            server.stop()
            // Closed by `stop()`, not answered (a 408 would say a timeout ended it).
            let reply = try await stuck.valueOrCancel
            #expect(reply.ending == "closed")
            #expect(reply.response == "")
        }
    }

    @Test func aTargetWithAnEscapeAndARawPipeIsEncodedOnce() async throws {
        let registry = MockRegistry()
        registry.register(.get("/x y|z^"), respond: .string("found"))
        registry.register(.get("/echo/<value>"), respond: { _, captures in .string(captures["value"] ?? "") })
        try await withServer(registry) { _, base in
            let port = UInt16(base.port ?? 0)
            func get(_ target: String) async throws -> String {
                try await RawClient.exchange(
                    port: port, ["GET \(target) HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"]
                ).response
            }
            // Before: the raw bytes made Foundation encode the whole target, %20 included.
            for target in ["/x%20y|z^", "/x%20y%7Cz%5E", "/x%20y%7cz^"] {
                let reply = try await get(target)
                #expect(reply.hasPrefix("HTTP/1.1 200 "), "\(target): \(reply.prefix(120))")
            }
            for target in ["/echo/a%20b{c}", "/echo/a%20b%7Bc%7D"] {
                let reply = try await get(target)
                #expect(reply.hasSuffix("\r\n\r\na b{c}"), "\(target): \(reply.prefix(120))")
            }
        }
    }

    @Test func anAbsoluteTargetWithAnIPv6HostKeepsItsBrackets() async throws {
        let registry = MockRegistry()
        registry.register(RequestFilter(host: "::1", path: "/six"), respond: .string("over IPv6"))
        try await withServer(registry) { _, base in
            let reply = try await RawClient.exchange(
                port: UInt16(base.port ?? 0),
                ["GET http://[::1]:8080/six HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
            #expect(reply.response.hasSuffix("\r\n\r\nover IPv6"), "\(reply.response.prefix(120))")
        }
    }

    @Test func aLineBreakAfterARequestIsNotTheStartOfAnother() async throws {
        // Had the line break started a request, its head timeout would answer 408 before the idle
        // timeout closes the connection without a word.
        let configuration = Self.configuration(head: .milliseconds(400), idle: .seconds(3))
        try await withServer(Self.registry(), configuration: configuration) { _, base in
            let request = "POST /upload HTTP/1.1\r\nHost: localhost\r\nContent-Length: 2\r\n\r\nab\r\n"
            let reply = try await RawClient.exchange(port: UInt16(base.port ?? 0), [request])
            #expect(reply.response.hasPrefix("HTTP/1.1 204 No Content\r\n"))
            #expect(!reply.response.contains("408"))
            #expect(reply.ending == "closed")
        }
    }

    @Test func passThroughBackToItselfIs502() async throws {
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.curl(["--include", base.absoluteString + "/anything"])
            #expect(result.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
            #expect(result.output.contains("would send it back to this server"))
        }
        // Listening on every address, 127.0.0.2 is this server under another name: the request
        // is forwarded there, comes back marked, and is refused.
        try await withServer(registry, configuration: .init(host: "0.0.0.0")) { _, base in
            let port = base.port ?? 0
            let renamed = try await ExternalProcess.curl([
                "--include", "-H", "Host: 127.0.0.2:\(port)", "http://127.0.0.1:\(port)/anything",
            ])
            #expect(renamed.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
            #expect(renamed.output.contains("passing GET http://127.0.0.2:\(port)/anything through would send it back"))
        }
    }

    @Test func passesThroughToARealServerAsAProxy() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-proxy-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("from the real server\n".utf8).write(to: folder.appendingPathComponent("real.txt"))
        let script = """
            import http.server, os, signal, sys, threading, time
            # Started from a Swift concurrency thread, this process inherits that thread's
            # blocked signals: unblock them, or SIGTERM never ends it.
            signal.pthread_sigmask(signal.SIG_SETMASK, [])
            os.chdir(sys.argv[1])
            parent = os.getppid()
            def leave_with_parent():
                while os.getppid() == parent:
                    time.sleep(0.5)
                os._exit(0)
            threading.Thread(target=leave_with_parent, daemon=True).start()
            class Server(http.server.ThreadingHTTPServer):
                # socketserver's backlog of 5 overflows when the whole suite runs at once.
                request_queue_size = 1024
            server = Server(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
            print("listening on", server.server_address[1], flush=True)
            server.serve_forever()
            """
        let python = try await BackgroundProcess.python(["-c", script, folder.path], ready: #"listening on \d+(?=\n)"#)
        let realPort = try #require(python.announced.split(separator: " ").last.map(String.init))
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        registry.register(.get("/mocked.txt"), respond: .string("from the mock\n"))
        try await withServer(registry) { _, base in
            // curl sends the absolute URL to a proxy; the mock answers what it knows.
            let real = try await ExternalProcess.curl([
                "--proxy", base.absoluteString, "http://127.0.0.1:\(realPort)/real.txt",
            ])
            #expect(real.output == "from the real server\n")
            let mocked = try await ExternalProcess.curl([
                "--proxy", base.absoluteString, "http://127.0.0.1:\(realPort)/mocked.txt",
            ])
            #expect(mocked.output == "from the mock\n")
            #expect(registry.journal.map(\.isUnmatched) == [true, false])
        }
        await python.stop()
    }

    @Test func anUnreachableServerIs502WithTheReason() async throws {
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        try await withServer(registry) { _, base in
            // Nothing listens on port 1, so the connection is refused at once.
            let result = try await ExternalProcess.curl([
                "--include", "-H", "Host: 127.0.0.1:1", base.absoluteString + "/x",
            ])
            #expect(result.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
            #expect(result.output.contains("passing GET http://127.0.0.1:1/x through to the network failed: "))
        }
    }
}
