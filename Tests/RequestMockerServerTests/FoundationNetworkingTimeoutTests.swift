import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

#if canImport(FoundationNetworking)
    /// How FoundationNetworking 6.3.1's HTTP loader takes a request's timeout, which decides how
    /// RequestMocker sets the timeout of the requests it forwards. Measured against a server that
    /// never answers.
    @Suite struct FoundationNetworkingTimeoutTests {
        static func elapsed(_ request: URLRequest, in session: URLSession) async throws -> (URLError.Code?, Duration) {
            let clock = ContinuousClock()
            let start = clock.now
            let code = try await urlErrorCode { _ = try await session.data(for: request) }
            return (code, start.duration(to: clock.now))
        }

        /// Only which timeout applies is pinned, against a session timeout of 3 s. (Run alone, a
        /// property of 0.5 s also timed out at once and 1.5 s after 1 s, as if cut to whole seconds;
        /// under load that did not hold, so it is not pinned.)
        @Test func theInitializersTimeoutIsIgnoredAndAPropertysApplies() async throws {
            let registry = MockRegistry()
            registry.register(.get("/stall"), respond: .fault(.stall))
            try await withServer(registry) { _, base in
                let session = plainSession(timeout: 3)
                let url = base.appendingPathComponent("stall")

                let (initCode, byInitializer) = try await Self.elapsed(
                    URLRequest(url: url, timeoutInterval: 1.5), in: session)
                #expect(initCode == .timedOut)
                #expect(byInitializer >= .milliseconds(2_900), "the session's 3 s apply, not the request's 1.5 s")

                var request = URLRequest(url: url)
                request.timeoutInterval = 1.5
                let (code, byProperty) = try await Self.elapsed(request, in: session)
                #expect(code == .timedOut)
                #expect(byProperty < .milliseconds(2_900), "the request's 1.5 s apply")
            }
        }
    }
#endif

/// The server's forwarding timeout reaches the forwarded request.
@Suite struct ForwardingTimeoutTests {
    @Test func aForwardToAServerThatNeverAnswersEndsAtTheForwardingTimeout() async throws {
        let upstreamRegistry = MockRegistry()
        upstreamRegistry.register(.get("/stall"), respond: .fault(.stall))
        try await withServer(upstreamRegistry) { _, upstream in
            var configuration = MockServer.Configuration()
            configuration.forwardingTimeout = 1
            let clock = ContinuousClock()
            let start = clock.now
            try await withServer(MockRegistry(unmatchedPolicy: .passThrough), configuration: configuration) { _, base in
                var request = URLRequest(url: base.appendingPathComponent("stall"))
                request.setValue("\(upstream.host ?? ""):\(upstream.port ?? 0)", forHTTPHeaderField: "Host")
                let (data, response) = try await plainSession(timeout: 30).data(for: request)
                #expect(response.status == 502)
                #expect(
                    String(decoding: data, as: UTF8.self).contains(
                        "through to the network failed: the request timed out (URLError -1001)"))
            }
            #expect(start.duration(to: clock.now) < .seconds(10), "1 s, not the inner session's 60 s")
        }
    }
}
