import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// Scenarios through `MockServer`: a `RequestMocker-Session` header keeps each client's states
/// apart, as parallel UI tests on several simulators against one server need; curl is the client.
@Suite("Scenarios through MockServer", .timeLimit(.minutes(3)), .hangGuard)
struct ScenarioServerTests {
    static func checkout() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(
            .get("/order"), respond: .string("open"), scenario: Scenario("checkout", requiredState: .started))
        registry.register(
            .post("/pay"), respond: .status(204),
            scenario: Scenario("checkout", requiredState: .started, newState: "Paid"))
        registry.register(
            .get("/order"), respond: .string("paid"), scenario: Scenario("checkout", requiredState: "Paid"))
        return registry
    }

    /// The admin API's scenario calls, through `MockServerClient` and curl.
    @Test func theAdminAPIListsSetsAndResetsScenarios() async throws {
        var configuration = MockServer.Configuration()
        configuration.admin = MockServer.Admin(token: nil)
        try await withServer(Self.checkout(), configuration: configuration) { _, base in
            let client = MockServerClient(baseURL: base)
            #expect(
                try await client.scenarios() == [
                    MockRegistry.ScenarioSummary(name: "checkout", state: .started, states: [.started, "Paid"])
                ])
            try await client.setScenarioState("checkout", to: "Paid", session: "iPad")
            let order = base.appendingPathComponent("order").absoluteString
            #expect(try await ExternalProcess.curl(["-H", "RequestMocker-Session: iPad", order]).output == "paid")
            #expect(try await ExternalProcess.curl([order]).output == "open")
            #expect(try await client.scenarios(session: "iPad").first?.state == "Paid")
            #expect(try await client.scenarios().first?.sessions == ["iPad": "Paid"])
            // A state no stub names: 400, naming those it could be.
            do {
                try await client.setScenarioState("checkout", to: "Shipped")
                Issue.record("a state no stub names was set")
            } catch {
                #expect(
                    "\(error)"
                        == "the server refused PUT /__admin/scenarios/checkout/state with 400: no filter of scenario "
                        + #""checkout" names the state "Shipped"; its states are "Started", "Paid""#)
            }
            // An empty body goes back to Started; a reset (of scenarios, or of everything) resets every session.
            let put = try await ExternalProcess.curl([
                "-X", "PUT", "-H", "RequestMocker-Session: iPad", "-H", "Content-Type: application/json",
                "--write-out", " %{http_code}",
                base.appendingPathComponent("__admin/scenarios/checkout/state").absoluteString,
            ])
            #expect(put.output.hasSuffix(" 200"))
            #expect(try await client.scenarios(session: "iPad").first?.state == .started)
            try await client.setScenarioState("checkout", to: "Paid")
            try await client.resetScenarios()
            #expect(try await client.scenarios().first?.state == .started)
            try await client.setScenarioState("checkout", to: "Paid", session: "iPad")
            try await client.reset()
            #expect(try await client.scenarios().first?.sessions == [:])
        }
    }

    /// Of a thousand requests at once (64 of Python's threads, each request on a connection of
    /// its own, so on a server thread of its own) that all match the stub moving `Started` to
    /// `Paid`, exactly one gets its answer; the others go on to the next stub. (Through
    /// `URLSession` in process the requests would take turns on Linux: FoundationNetworking starts
    /// every task's loading on one queue.)
    @Test func theMatchAndTheMoveAreOneStep() async throws {
        let registry = MockRegistry()
        registry.register(
            .post("/pay"), respond: .string("paid"),
            scenario: Scenario("checkout", requiredState: .started, newState: "Paid"))
        registry.register(.post("/pay"), respond: .string("already paid"))
        try await withServer(registry) { _, base in
            let script = """
                import concurrent.futures, http.client, sys
                def pay(_):
                    connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=60)
                    connection.request("POST", "/pay", body=b"", headers={"Connection": "close"})
                    body = connection.getresponse().read().decode()
                    connection.close()
                    return body
                with concurrent.futures.ThreadPoolExecutor(max_workers=64) as pool:
                    bodies = list(pool.map(pay, range(1000)))
                print(bodies.count("paid"), bodies.count("already paid"), len(bodies))
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)], timeout: .seconds(240))
            #expect(result.output == "1 999 1000\n", "\(result.error)")
        }
        #expect(registry.scenarioState("checkout") == "Paid")
    }

    @Test func eachSessionHeaderHasItsOwnStates() async throws {
        let registry = Self.checkout()
        try await withServer(registry) { _, base in
            let order = base.appendingPathComponent("order").absoluteString
            func get(_ session: String?) async throws -> String {
                let header = session.map { ["-H", "RequestMocker-Session: \($0)"] } ?? []
                return try await ExternalProcess.curl(header + [order]).output
            }
            let paid = try await ExternalProcess.curl([
                "-X", "POST", "-H", "RequestMocker-Session: iPhone", "--write-out", "%{http_code}",
                base.appendingPathComponent("pay").absoluteString,
            ])
            #expect(paid.output == "204")
            #expect(try await get("iPhone") == "paid")
            #expect(try await get("iPad") == "open")
            #expect(try await get(nil) == "open")
            #expect(registry.scenarioState("checkout", session: "iPhone") == "Paid")
        }
    }
}
