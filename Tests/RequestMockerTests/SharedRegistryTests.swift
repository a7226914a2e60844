import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `MockRegistry.shared` is process-wide, so each test takes its turn at it
/// (`MockRegistry.withSharedTurn`, the lock the `.mockingShared` trait of other targets takes too).
@Suite("MockRegistry.shared", .serialized, .timeLimit(.minutes(3)), .hangGuard)
struct SharedRegistryTests {
    @Test("MockURLProtocol.self in protocolClasses serves the shared registry")
    func sharedRegistry() async throws {
        try await MockRegistry.withSharedTurn {
            let handle = MockURLProtocol.register(
                RequestFilter(host: "shared.test", path: "/user/<id>", method: .get, response: .json(["ok": true])))
            defer { handle.remove() }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.protocolClasses = [MockURLProtocol.self] + (configuration.protocolClasses ?? [])
            let (data, _) = try await URLSession(configuration: configuration).data(
                from: url("https://shared.test/user/1"))
            #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
            #expect(ObjectIdentifier(MockRegistry.shared.protocolClass) == ObjectIdentifier(MockURLProtocol.self))
        }
    }

    @Test("the shared registry passes unmatched requests through to a real server")
    func passThrough() async throws {
        try await MockRegistry.withSharedTurn {
            let server = try await PythonEchoServer()
            defer { server.stop() }
            let session = URLSession(configuration: .mocking(.shared))
            var request = URLRequest(url: URL(string: server.baseURL + "/echo/path?q=1")!)
            request.httpMethod = "POST"
            request.httpBody = Data("sent body".utf8)
            request.setValue("from-test", forHTTPHeaderField: "X-Test")
            let (data, response) = try await session.data(for: request)
            #expect(
                try JSONValue(parsing: data) == [
                    "method": "POST", "path": "/echo/path?q=1", "body": "sent body", "header": "from-test",
                    "authorization": "",
                ])
            #expect(response.status == 200)
            #expect(response.header("X-Served-By") == "python")
            #expect(MockRegistry.shared.journal.last?.request.url == request.url)
            guard case .passedThrough = MockRegistry.shared.journal.last?.disposition else {
                Issue.record("expected a pass-through journal entry")
                return
            }

            // The real server's redirect comes back through the registry, hop by hop; the caller
            // sees the final URL.
            let (redirected, redirectedResponse) = try await session.data(
                from: URL(string: server.baseURL + "/redirect")!)
            #expect(try JSONValue(parsing: redirected)["path"] == "/echo/after-redirect")
            #expect(redirectedResponse.url?.path == "/echo/after-redirect")
        }
    }

    @Test("a per-session registry can pass through too")
    func passThroughOptIn() async throws {
        let server = try await PythonEchoServer()
        defer { server.stop() }
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        registry.register(.get("/mocked"), respond: .string("mocked"))
        let session = registry.makeSession()
        #expect(
            String(decoding: try await session.data(from: URL(string: server.baseURL + "/mocked")!).0, as: UTF8.self)
                == "mocked")
        let (data, _) = try await session.data(from: URL(string: server.baseURL + "/real")!)
        #expect(try JSONValue(parsing: data)["path"] == "/real")
    }

    @Test("a real server's redirect is followed through the registry, so a mocked target answers")
    func passedThroughRedirectsComeBack() async throws {
        let server = try await PythonEchoServer()
        defer { server.stop() }
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        registry.register(.get("/echo/after-redirect"), respond: .string("mocked target"))
        let (body, response) = try await registry.makeSession().data(from: URL(string: server.baseURL + "/redirect")!)
        #expect(String(decoding: body, as: UTF8.self) == "mocked target")
        #expect(response.url?.absoluteString == server.baseURL + "/echo/after-redirect")
        #expect(registry.journal.map { "\($0.disposition)" } == ["passedThrough", "answered"])

        registry.followsRedirects = false
        let (_, redirect) = try await registry.makeSession().data(from: URL(string: server.baseURL + "/redirect")!)
        #expect(redirect.status == 302)
        #expect(redirect.header("Location") == "/echo/after-redirect")
    }
}
