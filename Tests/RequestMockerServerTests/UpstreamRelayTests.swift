import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// A `MockServer` in front of another (`Configuration.upstream`): what it passes through goes
/// over its own relay, on kept connections, and comes back as the upstream sent it.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct UpstreamRelayTests {
    /// The front server passes everything through to `upstream`.
    func front(of upstream: URL) throws -> (MockServer, URL) {
        var configuration = MockServer.Configuration()
        configuration.upstream = upstream
        let server = MockServer(registry: MockRegistry(unmatchedPolicy: .passThrough), configuration: configuration)
        return (server, try server.start())
    }

    @Test func responsesComeBackAsTheUpstreamSentThemOverKeptConnections() async throws {
        let registry = MockRegistry()
        registry.register(
            .any("/gzip"), respond: .data(Data([0x1f, 0x8b, 1, 2]), headers: ["Content-Encoding": "gzip"]))
        registry.register(.any("/echo")) { request, _ in
            .string("\(request.method.rawValue) \(request.bodyText ?? "-")")
        }
        registry.register(.get("/close"), respond: .string("bye", headers: ["Connection": "close"]))
        var upstreamConfiguration = MockServer.Configuration()
        // Long enough that no kept connection closes between one curl's requests, however busy
        // the machine; short enough to wait out below.
        upstreamConfiguration.idleTimeout = .seconds(3)
        let upstream = MockServer(registry: registry, configuration: upstreamConfiguration)
        let upstreamURL = try upstream.start()
        defer { upstream.stop() }
        let (server, base) = try front(of: upstreamURL)
        defer { server.stop() }

        // The encoded body is relayed as it came, with its Content-Encoding.
        let folder = try TemporaryFolder()
        let bodyFile = folder.url.appendingPathComponent("body")
        let gzip = try await ExternalProcess.curl([
            "--dump-header", "-", "--output", bodyFile.path, base.absoluteString + "/gzip",
        ])
        #expect(gzip.output.contains("\r\nContent-Encoding: gzip\r\n"))
        #expect(gzip.output.contains("\r\nContent-Length: 4\r\n"))
        #expect(try Data(contentsOf: bodyFile) == Data([0x1f, 0x8b, 1, 2]))
        // A HEAD's kept connection serves the next request, a POST, which isn't retried.
        let head = try await ExternalProcess.curl([
            "--head", base.absoluteString + "/gzip", "--next", "-d", "after", base.absoluteString + "/echo",
        ])
        #expect(head.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.output.contains("\r\nContent-Length: 4\r\n"))
        #expect(head.output.hasSuffix("POST after"))
        // One curl, several requests on one connection to the front: each is relayed whole,
        // including after the upstream closed its side of a kept connection.
        let sequence = try await ExternalProcess.curl([
            base.absoluteString + "/echo", "-d", "one", "--next", base.absoluteString + "/close", "--next",
            base.absoluteString + "/echo",
        ])
        #expect(sequence.output == "POST onebyeGET -")
        // The upstream closes the relay's kept connections once they are idle.
        try await waitUntil(waitingFor: "the upstream to close its idle connections") {
            upstream.connectionCount == 0
        }
        #expect(try await ExternalProcess.curl([base.absoluteString + "/echo"]).output == "GET -")
        // Each relayed request reached the upstream once.
        #expect(
            upstream.registry.journal.map(\.request.path) == [
                "/gzip", "/gzip", "/echo", "/echo", "/close", "/echo", "/echo",
            ])
    }

    @Test func anUpstreamThatIsNotHTTPIs502WithTheReason() async throws {
        let registry = MockRegistry()
        registry.register(.get("/garbled"), respond: .fault(.malformedStatusLine))
        registry.register(.get("/silent"), respond: .fault(.closeBeforeResponding))
        let upstream = MockServer(registry: registry)
        let upstreamURL = try upstream.start()
        defer { upstream.stop() }
        let (server, base) = try front(of: upstreamURL)
        defer { server.stop() }
        let garbled = try await ExternalProcess.curl(["--include", base.absoluteString + "/garbled"])
        #expect(garbled.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(
            garbled.output.hasSuffix(
                "passing GET \(upstreamURL.absoluteString)/garbled through to the network failed: the server's "
                    + "response was not HTTP: its status line \"HTTP/1.1 TWO-HUNDRED OK\" is not HTTP/1.x\n"))
        let silent = try await ExternalProcess.curl(["--include", base.absoluteString + "/silent"])
        #expect(silent.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(silent.output.hasSuffix("the server closed the connection before it answered\n"))
    }

    /// Runs `body` with the base URL of a server in front of a scripted upstream that answers
    /// `GET path` with `response`, written as given.
    func withScriptedUpstream(
        _ replies: [(path: String, response: String)], _ body: (URL) async throws -> Void
    ) async throws {
        let rules = try replies.map { try ScriptedServer.Rule("^GET \($0.path) ", [.text($0.response)]) }
        let upstream = ScriptedServer(script: .init(rules: rules, framing: .delimiter("\r\n\r\n")))
        let port = try upstream.start()
        defer { upstream.stop() }
        let (server, base) = try front(of: try #require(URL(string: "http://127.0.0.1:\(port)")))
        defer { server.stop() }
        try await body(base)
    }

    @Test func anUpstreamContentLengthMustBeOneNumber() async throws {
        let replies = [
            ("/same", "HTTP/1.1 200 OK\r\nContent-Length: 5, 5\r\nContent-Length: 5\r\n\r\nhello"),
            ("/two", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello"),
        ]
        try await withScriptedUpstream(replies) { base in
            let same = try await ExternalProcess.curl(["--include", base.absoluteString + "/same"])
            #expect(same.output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(same.output)")
            #expect(same.output.hasSuffix("\r\n\r\nhello"))
            let two = try await ExternalProcess.curl(["--include", base.absoluteString + "/two"])
            #expect(two.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(two.output)")
            #expect(
                two.output.hasSuffix(
                    "the server's response was not HTTP: its Content-Length 5, 6 is not one number\n"))
        }
    }

    @Test func anUpstreamHeadIsReadStrictlyButForBareLineFeeds() async throws {
        let replies: [(path: String, response: String)] = [
            ("/bare", "HTTP/1.1 200 OK\nContent-Length: 5\nX-Kind: bare\n\nhello"),
            ("/folded", "HTTP/1.1 200 OK\r\nX-A: 1\r\n  more\r\nContent-Length: 0\r\n\r\n"),
            ("/spaced", "HTTP/1.1 200 OK\r\nX-A : 1\r\nContent-Length: 0\r\n\r\n"),
            ("/carriage", "HTTP/1.1 200 OK\r\nX-A: 1\r2\r\nContent-Length: 0\r\n\r\n"),
            ("/short", "HTTP/1.1 20 OK\r\nContent-Length: 0\r\n\r\n"),
        ]
        try await withScriptedUpstream(replies) { base in
            let bare = try await ExternalProcess.curl(["--include", base.absoluteString + "/bare"])
            #expect(bare.output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(bare.output)")
            #expect(bare.output.contains("\r\nX-Kind: bare\r\n"))
            #expect(bare.output.hasSuffix("\r\n\r\nhello"))
            let refused = [
                "/folded": "a header line starts with whitespace (line folding is not accepted)",
                "/spaced": #"the header name "X-A " is not a token"#,
                "/carriage": "the value of X-A contains a control character",
                "/short": #"its status line "HTTP/1.1 20 OK" is not HTTP/1.x"#,
            ]
            for (path, reason) in refused.sorted(by: { $0.key < $1.key }) {
                let reply = try await ExternalProcess.curl(["--include", base.absoluteString + path])
                #expect(reply.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(path): \(reply.output)")
                #expect(reply.output.hasSuffix("the server's response was not HTTP: \(reason)\n"), "\(reply.output)")
            }
        }
    }

    @Test func aRedirectForwardedThroughTheSessionArrivesWhole() async throws {
        let registry = MockRegistry()
        registry.register(.get("/old"), respond: .redirect(to: "/new").withHeader("Content-Type", "text/plain"))
        let upstream = MockServer(registry: registry)
        let upstreamURL = try upstream.start()
        defer { upstream.stop() }
        // Another host name for the same server: forward(to:) goes through URLSession, which
        // refuses the redirect and (on Linux) drops its body.
        let other = try #require(URL(string: "http://localhost:\(upstreamURL.port ?? 0)"))
        let front = MockRegistry()
        front.register(.any("**"), respond: .forward(to: other))
        let server = MockServer(registry: front)
        let base = try server.start()
        defer { server.stop() }
        let answer = try await ExternalProcess.curl([
            "--include", base.absoluteString + "/old", "--next", "--include", base.absoluteString + "/old",
        ])
        let responses = answer.output.components(separatedBy: "HTTP/1.1 302 Found\r\n")
        #expect(responses.count == 3, "\(answer.output)")
        #expect(answer.output.contains("\r\nLocation: /new\r\n"))
        #expect(answer.status == 0)
    }
}
