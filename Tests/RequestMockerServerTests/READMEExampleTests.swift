import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The README's server examples, as written there, run against real clients.
@Suite struct READMEExampleTests {
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
}
