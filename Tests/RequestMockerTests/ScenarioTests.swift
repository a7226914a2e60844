import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Scenarios: stubs that answer by a named state and move it, through real `URLSession` tasks.
@Suite("Scenarios", .timeLimit(.minutes(3)), .hangGuard)
struct ScenarioTests {
    /// A checkout: the order is open until it is paid, paying twice is refused.
    static func checkout() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(
            .get("/order"), respond: .json(["status": "open"]), scenario: Scenario("checkout", requiredState: .started))
        registry.register(
            .post("/pay"), respond: .status(204),
            scenario: Scenario("checkout", requiredState: .started, newState: "Paid"))
        registry.register(
            .get("/order"), respond: .json(["status": "paid"]), scenario: Scenario("checkout", requiredState: "Paid"))
        return registry
    }

    static func send(
        _ session: URLSession, _ method: String, _ path: String, session id: String? = nil
    ) async throws -> (status: Int, body: String) {
        var request = URLRequest(url: url(path))
        request.httpMethod = method
        if let id { request.setValue(id, forHTTPHeaderField: Scenario.sessionHeader) }
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    @Test func aStubAnswersWhileItsScenarioIsInItsStateAndMovesIt() async throws {
        let registry = Self.checkout()
        let session = registry.makeSession()
        #expect(try await Self.send(session, "GET", "/order").body == #"{"status":"open"}"#)
        #expect(registry.scenarioState("checkout") == .started)
        #expect(try await Self.send(session, "POST", "/pay").status == 204)
        #expect(registry.scenarioState("checkout") == "Paid")
        #expect(try await Self.send(session, "GET", "/order").body == #"{"status":"paid"}"#)
        // Paying again matches no stub: the report says which state the scenario is in.
        let error = await #expect(throws: RequestMockerError.self) { try await Self.send(session, "POST", "/pay") }
        guard case .unmatched(let report)? = error else {
            Issue.record("the second payment wasn't unmatched: \(String(describing: error))")
            return
        }
        #expect(
            report.candidates.first?.reason
                == #"matched, but scenario "checkout" is in Paid, not Started"#, "\(report.candidates)")
        registry.resetScenarios()
        #expect(try await Self.send(session, "GET", "/order").body == #"{"status":"open"}"#)
    }

    /// A filter that requires a state stops answering once the scenario moves on, so the next
    /// one for the same requests isn't shadowed by it; one without a requirement still shadows.
    @Test func aFilterThatRequiresAStateShadowsNothing() {
        #expect(Self.checkout().diagnostics == [])
        let registry = MockRegistry()
        registry.register(.get("/order"), respond: .string("any"), scenario: Scenario("checkout", newState: "Seen"))
        registry.register(.get("/order"), respond: .string("never"))
        #expect(registry.shadowedFilters.count == 1)
    }

    @Test func eachRegistryAndEachSessionHasItsOwnStates() async throws {
        let (first, second) = (Self.checkout(), Self.checkout())
        let session = first.makeSession()
        _ = try await Self.send(session, "POST", "/pay")
        #expect(first.scenarioState("checkout") == "Paid")
        #expect(second.scenarioState("checkout") == .started)
        // A `RequestMocker-Session` header: states of its own, apart from the shared ones.
        _ = try await Self.send(session, "POST", "/pay", session: "simulator-2")
        #expect(try await Self.send(session, "GET", "/order", session: "simulator-3").body == #"{"status":"open"}"#)
        #expect(try await Self.send(session, "GET", "/order", session: "simulator-2").body == #"{"status":"paid"}"#)
        #expect(first.scenarioState("checkout", session: "simulator-2") == "Paid")
        #expect(first.scenarioState("checkout", session: "simulator-3") == .started)
        // Reading a state never changes it.
        #expect(first.scenarioState("checkout", session: "simulator-3") == .started)
    }

    /// Sessions are bounded: past 10,000 with states of their own, the oldest is forgotten.
    @Test func theOldestSessionIsForgottenPastTheBound() throws {
        let registry = Self.checkout()
        for n in 0...10_000 { try registry.setScenarioState("checkout", to: "Paid", session: "s\(n)") }
        #expect(registry.scenarioState("checkout", session: "s0") == .started)
        #expect(registry.scenarioState("checkout", session: "s1") == "Paid")
        #expect(registry.scenarioState("checkout", session: "s10000") == "Paid")
        #expect(registry.scenarioState("checkout") == .started)
    }

    @Test func aStateIsSetOnlyToOneItsFiltersName() throws {
        let registry = Self.checkout()
        try registry.setScenarioState("checkout", to: "Paid")
        #expect(registry.scenarioState("checkout") == "Paid")
        #expect(
            registry.scenarioSummaries() == [
                MockRegistry.ScenarioSummary(name: "checkout", state: "Paid", states: [.started, "Paid"])
            ])
        #expect(throws: ScenarioError(scenario: "checkout", state: "Shipped", known: ["Started", "Paid"])) {
            try registry.setScenarioState("checkout", to: "Shipped")
        }
        #expect(
            "\(ScenarioError(scenario: "checkout", state: "Shipped", known: ["Started", "Paid"]))"
                == #"no filter of scenario "checkout" names the state "Shipped"; its states are "Started", "Paid""#)
        #expect(throws: ScenarioError(scenario: "login", state: nil, known: ["checkout"])) {
            try registry.setScenarioState("login", to: .started)
        }
    }

    @Test func stubsCarryTheirScenarioBothWays() async throws {
        let registry = MockRegistry()
        let stub = try Stub(json: [
            "request": ["method": "POST", "path": "/pay"], "response": ["status": 204],
            "scenario": ["name": "checkout", "requiredState": "Started", "newState": "Paid"],
        ])
        registry.register(stub.filter)
        #expect(stub.filter.description.hasPrefix(#"POST /pay scenario "checkout" in Started -> Paid ("#))
        #expect(try await Self.send(registry.makeSession(), "POST", "/pay").status == 204)
        #expect(registry.scenarioState("checkout") == "Paid")
        #expect(try Stub(describing: stub.filter).json["scenario"] == stub.json["scenario"])
        for (scenario, reason) in [
            (JSONValue.object(["newState": "Paid"]), #"at scenario: a scenario has a "name""#),
            (["name": "checkout", "newState": ""], "at scenario.newState: a state has a name"),
            (["name": "checkout", "next": "Paid"], #"at scenario.next: unknown key "next""#),
        ] {
            do {
                _ = try Stub(json: ["request": [:], "response": [:], "scenario": scenario])
                Issue.record("\(scenario) was read")
            } catch {
                #expect(error.description.hasPrefix(reason), "\(error)")
            }
        }
    }
}
