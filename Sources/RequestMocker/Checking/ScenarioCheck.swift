import Foundation

/// What `request-mocker check --stubs FILE` finds in a stubs file's scenarios: a state that stubs
/// require but no stub moves to, and a state that stubs move to only from states no request can
/// reach from ``Scenario/State/started``. Either leaves stubs that answer only after
/// `PUT /__admin/scenarios/{name}/state` (or ``MockRegistry/setScenarioState(_:to:session:)``)
/// puts the scenario there, which is most often a misspelt state; so each is a warning, and the
/// message names the states the scenario's stubs do move to.
package enum ScenarioCheck {
    /// A required state no stub moves to.
    package static let unreachableState = CheckRule(
        rawValue: "unreachable-state", summary: "A scenario state stubs require but no stub moves to")
    /// A required state stubs move to only from states no request reaches.
    package static let unreachableFromStarted = CheckRule(
        rawValue: "unreachable-from-started", summary: "A scenario state no sequence of requests reaches from Started")
    package static let rules = [unreachableState, unreachableFromStarted]

    /// One stub's scenario, and where the stub is.
    package struct Entry: Sendable {
        package let scenario: Scenario
        package let place: String

        package init(scenario: Scenario, place: String) {
            self.scenario = scenario
            self.place = place
        }
    }

    /// Reads `file` as `serve --stubs` reads it (a stub's `"openapi"` answer is another
    /// check's, so any declared response stands in for it) and checks its scenarios; how many
    /// stubs have one.
    package static func check(
        stubsFile file: URL
    ) throws(RequestMockerError) -> (findings: [CheckFinding], checked: Int) {
        let stubs = try Stub.stubs(contentsOf: file, contract: UncheckedStubContract())
        let positions = DocumentPositions((try? Data(contentsOf: file)) ?? Data(), file: file)
        let entries = stubs.enumerated().compactMap { index, stub -> Entry? in
            guard let scenario = stub.filter.scenario else { return nil }
            let line = positions.position(of: [.key("stubs"), .index(index)])?.line ?? 1
            return Entry(scenario: scenario, place: "\(file.relativePath):\(line)")
        }
        return (findings(entries), entries.count)
    }

    /// The findings of `entries`: one per stub that requires a state no request can bring its
    /// scenario to.
    package static func findings(_ entries: [Entry]) -> [CheckFinding] {
        var findings: [CheckFinding] = []
        var names: [String] = []
        var byName: [String: [Entry]] = [:]
        for entry in entries {
            if byName[entry.scenario.name] == nil { names.append(entry.scenario.name) }
            byName[entry.scenario.name, default: []].append(entry)
        }
        for name in names {
            let stubs = byName[name] ?? []
            let movedTo = Set(stubs.compactMap(\.scenario.newState))
            let reachable = reachableStates(stubs.map(\.scenario))
            for stub in stubs {
                guard let required = stub.scenario.requiredState, !reachable.contains(required) else { continue }
                let rule: CheckRule
                let admin = "the stub answers only after PUT /__admin/scenarios/\(name)/state sets it"
                let message: String
                if movedTo.contains(required) {
                    rule = unreachableFromStarted
                    let from = Set(
                        stubs.filter { $0.scenario.newState == required }.compactMap(\.scenario.requiredState))
                    message =
                        "scenario \"\(name)\": no request brings it from Started to \"\(required)\", which this stub "
                        + "requires: its stubs move it there only from " + listed(from.map(\.name).sorted())
                        + ", which no request reaches; " + admin
                } else {
                    rule = unreachableState
                    let known = movedTo.map(\.name).sorted()
                    message =
                        "scenario \"\(name)\": no stub moves it to \"\(required)\", which this stub requires"
                        + (known.isEmpty ? "" : " (its stubs move it to " + listed(known) + ")") + ", so " + admin
                        + "; correct the state's name, or add \"newState\": \"\(required)\" to the stub that "
                        + "leads there"
                }
                var finding = CheckFinding(place: stub.place, isError: false, message: message)
                finding.rule = rule
                finding.operation = "scenario \(name)"
                finding.pointer = required.name
                findings.append(finding)
            }
        }
        return findings
    }

    /// The states requests can bring a scenario to from `Started`: a stub moves it from its
    /// required state (from any, when it has none) to its new state.
    static func reachableStates(_ scenarios: [Scenario]) -> Set<Scenario.State> {
        var reachable: Set<Scenario.State> = [.started]
        var changed = true
        while changed {
            changed = false
            for scenario in scenarios {
                guard let next = scenario.newState, !reachable.contains(next) else { continue }
                if scenario.requiredState.map(reachable.contains) ?? true {
                    reachable.insert(next)
                    changed = true
                }
            }
        }
        return reachable
    }

    /// `"A"`, `"A" or "B"`, `"A", "B" or "C"`.
    private static func listed(_ names: [String]) -> String {
        let quoted = names.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + (quoted.last ?? "")
    }
}

/// Stands in for the contract of a stubs file's `"openapi"` stubs while a check that isn't
/// OpenAPI's reads the file: their responses aren't checked there, and are never served.
package struct UncheckedStubContract: StubContract {
    package init() {}

    package func declaredResponse(operation: String, status: Int?, example: String?) -> MockResponse { .status(200) }
}
