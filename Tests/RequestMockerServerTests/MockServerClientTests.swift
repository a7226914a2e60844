import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// `MockServerClient` against a `MockServer` in this process (its admin API on).
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockServerClientTests {
    func startServer(
        token: String? = nil, onRequest: (@Sendable (ServedRequest) -> Void)? = nil
    ) throws -> (MockServer, URL) {
        var configuration = MockServer.Configuration()
        configuration.admin = MockServer.Admin(token: token)
        let server = MockServer(registry: MockRegistry(), configuration: configuration, onRequest: onRequest)
        return (server, try server.start())
    }

    /// A plain request to the server, as the app under test would send it.
    func send(_ url: URL, method: String = "GET", body: String? = nil) async throws -> (Int, String) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await URLSession(configuration: .ephemeral).data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func registersFiltersAndFindsTheRequestsTheyAnswered() async throws {
        // How many times the journal was read through the admin API (each read logged once answered).
        let journalReads = LockedState(0)
        let (server, base) = try startServer { served in
            if served.request?.method == .get, served.request?.url.path == "/__admin/requests" {
                journalReads.withLock { $0 += 1 }
            }
        }
        defer { server.stop() }
        let client = MockServerClient(baseURL: base)
        let id = try await client.register(
            .get("/users/<id>").query(["expand": nil]).respond(with: .json(["name": "Ada"], status: 203)))
        #expect(id == "1")
        #expect(
            try await send(
                base.appendingPathComponent("users/7").appending(queryItems: [.init(name: "expand", value: nil)])) == (
                    203, #"{"name":"Ada"}"#
                ))
        #expect(try await send(base.appendingPathComponent("users/7")).0 == 404)

        let all = try await client.requests()
        #expect(all.map(\.path) == ["/users/7", "/users/7"])
        let answered = try await client.requests(matching: .get("/users/<id>").query(["expand": nil]))
        #expect(answered.map { $0.url.absoluteString } == [base.absoluteString + "/users/7?expand"])

        // A request that comes later is waited for; one that came before counts at once. The wait
        // has read the journal (the two reads above, then its own) before the request is sent.
        try await waitUntil(waitingFor: "the two reads of the journal above to be logged") {
            journalReads.withLock { $0 } == 2
        }
        async let later = client.waitForRequest(
            matching: .post("/orders").jsonBody(["items": [1]]), timeout: .seconds(60))
        try await waitUntil(waitingFor: "the wait's first read of the journal") { journalReads.withLock { $0 } >= 3 }
        _ = try await send(base.appendingPathComponent("orders"), method: "POST", body: #"{"items": [1]}"#)
        let order = try await later
        #expect(order.bodyText == #"{"items": [1]}"#)
        #expect(try await client.waitForRequest(matching: .get("/users/7"), timeout: .zero).path == "/users/7")

        try await client.remove(id)
        #expect(try await send(base.appendingPathComponent("users/7")).0 == 404)
        try await client.reset()
        #expect(try await client.requests().isEmpty)
        #expect(server.registry.journal.isEmpty)
    }

    @Test func mistakesAreTypedFailures() async throws {
        let (server, base) = try startServer(token: "t0ken")
        defer { server.stop() }
        let anonymous = MockServerClient(baseURL: base)
        let refused = await #expect(throws: MockServerClient.Failure.self) { try await anonymous.reset() }
        #expect(
            refused?.description
                == "the server refused POST /__admin/reset with 401: the admin API needs the header "
                + "Authorization: Bearer <the server's admin token>")
        let client = MockServerClient(baseURL: base, token: "t0ken")
        let block = await #expect(throws: MockServerClient.Failure.self) {
            try await client.register(.get("/x").respond(with: .block { _, _ in .status(200) }))
        }
        #expect(
            block?.description.hasSuffix(
                "can't be sent to the server: at response: a block is Swift code, which can't be sent; "
                    + "describe the response itself") == true)
        let missing = await #expect(throws: MockServerClient.Failure.self) { try await client.remove("nope") }
        #expect(
            missing?.description
                == "the server refused DELETE /__admin/stubs/nope with 404: no added stub has the id \"nope\"; "
                + "GET /__admin/stubs lists them")
        let timedOut = await #expect(throws: MockServerClient.Failure.self) {
            try await client.waitForRequest(matching: .get("/never"), timeout: .milliseconds(200))
        }
        #expect(timedOut?.description.hasPrefix("no request matching GET /never (") == true)
        server.stop()
        let gone = await #expect(throws: MockServerClient.Failure.self) { try await client.reset() }
        #expect(gone?.description.hasPrefix("POST /__admin/reset failed: could not connect to the server") == true)
    }

    @Test(arguments: [
        ("127.0.0.1", true), ("127.1.2.3", true), ("localhost", true), ("LOCALHOST", true), ("::1", true),
        ("[::1]", true), ("127.example.com", false), ("127.0.0.1.nip.io", false), ("0.0.0.0", false),
        ("10.0.0.1", false), ("::", false), ("127.0.0.256", false),
    ])
    func loopbackHosts(_ host: String, _ isLoopback: Bool) {
        #expect(MockServer.isLoopback(host) == isLoopback)
    }

    @Test func theAdminAPIIsOffUnlessAskedForAndNeedsATokenOffLoopback() async throws {
        let registry = MockRegistry()
        registry.register(.get("/__admin/stubs"), respond: .string("a filter of the app's own"))
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        #expect(try await send(base.appendingPathComponent("__admin/stubs")) == (200, "a filter of the app's own"))

        var open = MockServer.Configuration(host: "0.0.0.0")
        open.admin = MockServer.Admin()
        let refused = MockServer(configuration: open)
        defer { refused.stop() }  // were it to start
        let error = #expect(throws: MockServerError.self) { try refused.start() }
        #expect(
            error?.description
                == "the admin API on 0.0.0.0, which other machines can reach, needs a token: set Admin(token:) "
                + "(--admin-token TOKEN), or listen on 127.0.0.1")
    }
}
