import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// `MockResponse.forward(to:)`: the request goes to another server under a base URL, and its
/// answer comes back unchanged, through `MockURLProtocol` and `MockServer` alike.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ForwardTests {
    /// The other server: it says what it received, with a status and a header of its own.
    static func upstream() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(.any("**")) { request, _ in
            let body = request.bodyText ?? ""
            let host = request.header(.host) ?? "-"
            return .string(
                "\(request.method) \(request.url.path(percentEncoded: true))?\(request.url.query ?? "") \(body) \(host)"
            )
            .withStatus(203).withHeader("X-Upstream", "yes")
        }
        return registry
    }

    @Test func aForwardedRequestGetsTheOtherServersAnswerUnchangedThroughBothTransports() async throws {
        try await withServer(Self.upstream()) { _, upstream in
            let registry = MockRegistry()
            registry.register(.any("/api/**"), respond: .forward(to: upstream.appendingPathComponent("base")))
            var request = URLRequest(url: URL(string: "https://app.test/api/users/7?x=1")!)
            request.httpMethod = "POST"
            request.httpBody = Data("hello".utf8)
            let (viaProtocol, protocolResponse) = try await registry.makeSession().data(for: request)
            try await withServer(registry) { _, base in
                request.url = URL(string: base.absoluteString + "/api/users/7?x=1")
                let (viaServer, serverResponse) = try await plainSession().data(for: request)
                for (data, response) in [(viaProtocol, protocolResponse), (viaServer, serverResponse)] {
                    #expect(response.status == 203)
                    #expect(response.header("X-Upstream") == "yes")
                    // The path and query appended to the base; the Host is the other server's.
                    let expected = "POST /base/api/users/7?x=1 hello \(upstream.host ?? ""):\(upstream.port ?? 0)"
                    #expect(String(decoding: data, as: UTF8.self) == expected)
                }
            }
        }
    }

    @Test func aChunkedBodyIsForwardedWhole() async throws {
        try await withServer(Self.upstream()) { _, upstream in
            let registry = MockRegistry()
            registry.register(.any("**"), respond: .forward(to: upstream))
            try await withServer(registry) { _, base in
                // curl sends the body chunked; the server reads it whole, and the forward must not
                // pass the old framing on.
                let result = try await ExternalProcess.curl([
                    "-H", "Transfer-Encoding: chunked", "-H", "Connection: keep-alive", "--data-binary", "hello",
                    base.absoluteString + "/chunked",
                ])
                #expect(result.output == "POST /chunked? hello \(upstream.host ?? ""):\(upstream.port ?? 0)")
            }
        }
    }

    @Test func aForwardBackToTheSameServerIs502() async throws {
        let registry = MockRegistry()
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        registry.register(.any("**"), respond: .forward(to: base))
        let (data, response) = try await plainSession().data(from: base.appendingPathComponent("loop"))
        #expect(response.status == 502)
        #expect(
            String(decoding: data, as: UTF8.self)
                == "forwarding GET \(base.absoluteString)/loop to \(base.absoluteString)/loop would send it back to "
                + "this server; point forward(to:) at the real server\n")
        #expect(registry.journal.count == 1, "the forward never went out")
    }

    @Test func anUnreachableServerIsTheURLErrorOrA502() async throws {
        let registry = MockRegistry()
        registry.register(.any("**"), respond: .forward(to: URL(string: "http://127.0.0.1:1")!))
        let code = try await urlErrorCode {
            _ = try await registry.makeSession().data(from: URL(string: "https://app.test/x")!)
        }
        #expect(code == .cannotConnectToHost)
        try await withServer(registry) { _, base in
            let (data, response) = try await plainSession().data(from: base.appendingPathComponent("x"))
            #expect(response.status == 502)
            #expect(
                String(decoding: data, as: UTF8.self).hasPrefix(
                    "passing GET http://127.0.0.1:1/x through to the network failed: "))
        }
    }

    @Test func aBaseThatIsNotAnHTTPURLIsATypedError() async throws {
        let registry = MockRegistry()
        registry.register(.any("**"), respond: .forward(to: URL(fileURLWithPath: "/tmp")))
        let error = await #expect(throws: RequestMockerError.self) {
            _ = try await registry.makeSession().data(from: URL(string: "https://app.test/x")!)
        }
        #expect(
            error?.description
                == "cannot forward GET https://app.test/x to file:///tmp/: "
                + "forward(to:) needs an absolute http or https URL"
        )
    }
}
