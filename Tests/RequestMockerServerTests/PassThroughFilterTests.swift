import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// `respond: .passThrough`: one filter's requests reach the real
/// server while everything else is mocked and a miss fails. Another `MockServer` plays the
/// real server.
@Suite("Per-filter pass-through", .timeLimit(.minutes(3)), .hangGuard)
struct PassThroughFilterTests {
    /// The "real" server: it answers `/cdn/<file>` with the file's name.
    static func origin() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(.get("/cdn/<file>")) { _, captures in
            .string("real \(captures["file"] ?? "")", headers: ["X-Origin": "yes"])
        }
        return registry
    }

    @Test("through MockURLProtocol the request goes to its own URL; the journal marks it; a miss still fails")
    func throughTheURLProtocol() async throws {
        let origin = Self.origin()
        try await withServer(origin) { _, real in
            let registry = MockRegistry()
            let cdn = registry.register(.get(real.absoluteString + "/cdn/**"), respond: .passThrough)
            registry.register(.get("https://api.test/users/<id>"), respond: .json(["id": 7]))
            let session = registry.makeSession()

            let (data, response) = try await session.data(from: real.appendingPathComponent("cdn/logo.png"))
            #expect(String(decoding: data, as: UTF8.self) == "real logo.png")
            #expect(response.status == 200)
            #expect(response.header("X-Origin") == "yes")
            #expect(try await session.data(from: url("https://api.test/users/7")).0 == Data(#"{"id":7}"#.utf8))
            await #expect(throws: RequestMockerError.self) {
                _ = try await session.data(from: real.appendingPathComponent("other"))
            }

            #expect(origin.journal.map(\.request.url.path) == ["/cdn/logo.png"])
            let entry = try #require(registry.journal.first)
            guard case .passedThrough = entry.disposition else {
                Issue.record("\(entry.disposition)")
                return
            }
            #expect(entry.filter?.path?.rawValue == "/cdn/**")
            #expect(!entry.isUnmatched)
            #expect(cdn.requestCount == 1)
            #expect(
                entry.description.hasPrefix(
                    "GET \(real.absoluteString)/cdn/logo.png -> passed through to the network by GET "))
            #expect(registry.unmatchedRequests.map(\.url.path) == ["/other"])
        }
    }

    @Test("a pass-through taking its turn in a sequence is journaled as passed through")
    func inASequence() async throws {
        try await withServer(Self.origin()) { _, real in
            let registry = MockRegistry()
            registry.register(
                .get(real.absoluteString + "/cdn/**"), respond: .sequence([.passThrough, .string("mocked")]))
            let session = registry.makeSession()
            let first = try await session.data(from: real.appendingPathComponent("cdn/a.js")).0
            let second = try await session.data(from: real.appendingPathComponent("cdn/a.js")).0
            #expect(String(decoding: first, as: UTF8.self) == "real a.js")
            #expect(String(decoding: second, as: UTF8.self) == "mocked")
            #expect(registry.journal.map { "\($0.disposition)" } == ["passedThrough", "answered"])
        }
    }

    @Test("a delayed pass-through whose body streams waits out its delay, then relays the whole body")
    func delayedStreamedBody() async throws {
        // The real server sends the head and the first piece at once, the rest a moment later:
        // a scripted one, on threads of its own, so a busy test run can't hold it up.
        let origin = ScriptedServer(
            script: try .init(
                rules: [
                    .init(
                        "^GET /feed ",
                        [
                            .text("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n6\r\nfirst \r\n"),
                            .pause(.milliseconds(50)), .text("6\r\nsecond\r\n0\r\n\r\n"),
                        ])
                ],
                framing: .delimiter("\r\n\r\n")))
        _ = try origin.start()
        defer { origin.stop() }
        let registry = MockRegistry()
        registry.register(.get("/feed"), respond: MockResponse.passThrough.delayed(by: .milliseconds(6_500)))
        var configuration = MockServer.Configuration()
        configuration.upstream = origin.url()
        // Shorter than the delay: the body's idle time counts from when it is asked for, not from
        // when the head came. Long enough for the head to come in time on a busy machine.
        configuration.forwardingTimeout = 5
        try await withServer(registry, configuration: configuration) { _, front in
            let fed = try await ExternalProcess.curl([front.absoluteString + "/feed"])
            #expect(fed.status == 0, "\(fed.error) \(String(describing: registry.journal.last?.completion))")
            #expect(fed.output == "first second")
        }
    }

    @Test("through MockServer it goes to the upstream; with none, 502 says why")
    func throughTheServer() async throws {
        let origin = Self.origin()
        try await withServer(origin) { _, real in
            let registry = MockRegistry()
            registry.register(.get("/cdn/**"), respond: .passThrough)
            registry.register(.get("/users/<id>"), respond: .json(["id": 7]))

            var configuration = MockServer.Configuration()
            configuration.upstream = real
            try await withServer(registry, configuration: configuration) { _, front in
                let passed = try await ExternalProcess.curl(["-i", front.absoluteString + "/cdn/app.js"])
                #expect(passed.output.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(passed.output)")
                #expect(passed.output.contains("X-Origin: yes\r\n"))
                #expect(passed.output.hasSuffix("\r\n\r\nreal app.js"))
                let mocked = try await ExternalProcess.curl([front.absoluteString + "/users/7"])
                #expect(mocked.output == #"{"id":7}"#)
            }
            #expect(origin.journal.map(\.request.url.path) == ["/cdn/app.js"])

            try await withServer(registry) { _, alone in
                let refused = try await ExternalProcess.curl(["-i", alone.absoluteString + "/cdn/app.js"])
                #expect(refused.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(refused.output)")
                #expect(
                    refused.output.hasSuffix(
                        "\r\n\r\npassing GET \(alone.absoluteString)/cdn/app.js through would send it back to this "
                            + "server; give the server an upstream (request-mocker serve --upstream URL, or "
                            + "MockServer.Configuration.upstream), or send a Host header naming the real server, "
                            + "or the absolute URL as to a proxy\n"))
            }
            #expect(origin.journal.count == 1)
        }
    }
}
