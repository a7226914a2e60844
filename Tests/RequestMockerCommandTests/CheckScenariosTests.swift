import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `request-mocker check --stubs FILE`: a stubs file's scenarios, alone or beside a contract.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct CheckScenariosTests {
    /// A checkout whose payment moves to a misspelt state, so what requires `Paid` (and what
    /// only `Paid` leads to) never answers; and a login flow that is whole.
    static let stubs = """
        {"stubs": [
          {"request": {"method": "POST", "path": "/pay"}, "response": {"status": 204},
           "scenario": {"name": "checkout", "requiredState": "Started", "newState": "Payed"}},
          {"request": {"method": "GET", "path": "/order"}, "response": {"json": {"status": "paid"}},
           "scenario": {"name": "checkout", "requiredState": "Paid"}},
          {"request": {"method": "POST", "path": "/ship"}, "response": {"status": 204},
           "scenario": {"name": "checkout", "requiredState": "Paid", "newState": "Shipped"}},
          {"request": {"method": "GET", "path": "/order"}, "response": {"json": {"status": "shipped"}},
           "scenario": {"name": "checkout", "requiredState": "Shipped"}},
          {"request": {"method": "POST", "path": "/login"}, "response": {"status": 204},
           "scenario": {"name": "session", "newState": "LoggedIn"}},
          {"request": {"method": "GET", "path": "/me"}, "response": {"json": {"name": "Ada"}},
           "scenario": {"name": "session", "requiredState": "LoggedIn"}},
          {"request": {"method": "GET", "path": "/pets/1"}, "response": {"openapi": {"operation": "getPet"}}}
        ]}
        """

    static let unreachablePaid =
        #"stubs.json:4: warning: scenario "checkout": no stub moves it to "Paid", which this stub requires "#
        + #"(its stubs move it to "Payed" or "Shipped"), so the stub answers only after "#
        + "PUT /__admin/scenarios/checkout/state sets it; correct the state's name, or add "
        + #""newState": "Paid" to the stub that leads there (2 times; also at stubs.json:6)"#
    static let unreachableShipped =
        #"stubs.json:8: warning: scenario "checkout": no request brings it from Started to "Shipped", "#
        + #"which this stub requires: its stubs move it there only from "Paid", which no request reaches; "#
        + "the stub answers only after PUT /__admin/scenarios/checkout/state sets it"

    @Test func statesNoRequestReachesAreWarnings() async throws {
        let folder = try TemporaryFolder()
        try folder.write("stubs.json", Self.stubs)
        let result = try await Command.run(["check", "--stubs", "stubs.json"], in: folder.url)
        #expect(result.status == 0)
        #expect(
            result.output.split(separator: "\n") == [
                Substring(Self.unreachablePaid), Substring(Self.unreachableShipped),
                "checked the scenarios of 6 stubs in stubs.json: 0 errors, 3 warnings",
            ])

        let sarif = try await Command.run(["check", "--stubs", "stubs.json", "--format", "sarif"], in: folder.url)
        let run = try JSONValue(parsing: Data(sarif.output.utf8))["runs"]?[0]
        guard case .array(let rules)? = run?["tool"]?["driver"]?["rules"], case .array(let results)? = run?["results"]
        else {
            Issue.record("not a SARIF run: \(sarif.output)")
            return
        }
        #expect(rules.compactMap { $0["id"]?.stringValue } == ["unreachable-state", "unreachable-from-started"])
        #expect(results.compactMap { $0["ruleId"]?.stringValue } == ["unreachable-state", "unreachable-from-started"])
    }

    @Test func aWholeFlowHasNoFinding() async throws {
        let folder = try TemporaryFolder()
        try folder.write("stubs.json", Self.stubs.replacingOccurrences(of: "\"Payed\"", with: "\"Paid\""))
        let result = try await Command.run(["check", "--stubs", "stubs.json"], in: folder.url)
        #expect(result.status == 0)
        #expect(result.output == "checked the scenarios of 6 stubs in stubs.json: 0 errors, 0 warnings\n")
    }

    @Test func theScenariosAreCheckedBesideAContract() async throws {
        let folder = try TemporaryFolder()
        try folder.write("stubs.json", Self.stubs)
        let result = try await Command.run(
            ["check", "--openapi", ServeOpenAPITests.petshop.path, "--stubs", "stubs.json"], in: folder.url)
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.contains("scenario") } == [Self.unreachablePaid, Self.unreachableShipped])
    }

    @Test func withoutAContractOnlyAStubsFileIsTaken() async throws {
        let folder = try TemporaryFolder()
        try folder.write("stubs.json", Self.stubs)
        let withFolder = try await Command.run(["check", "--stubs", "stubs.json", "Mocks"], in: folder.url)
        #expect(withFolder.status == 64)
        #expect(
            withFolder.error
                == "request-mocker: without a contract, check reads only a stubs file's scenarios "
                + "(`request-mocker check --stubs stubs.json`); folders, a cassette, --base-path and --coverage "
                + "need --openapi FILE or --graphql SCHEMA\n")
        let missing = try await Command.run(["check", "--stubs", "none.json"], in: folder.url)
        #expect(missing.status == 66)
        #expect(missing.error == "request-mocker: no stubs file at none.json\n")
        try folder.write("broken.json", #"{"stubs": [{"scenario": {"requiredState": "Paid"}}]}"#)
        let broken = try await Command.run(["check", "--stubs", "broken.json"], in: folder.url)
        #expect(broken.status == 65)
        #expect(broken.error.contains("broken.json:1:"))
    }
}
