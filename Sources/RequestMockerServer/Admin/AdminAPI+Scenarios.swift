import Foundation
import RequestMocker

extension AdminAPI {
    /// `GET /__admin/scenarios`, `PUT /__admin/scenarios/{name}/state`, `POST
    /// /__admin/scenarios/reset`; `nil` for any other call.
    static func scenarios(_ request: MockRequest, route: [String], in registry: MockRegistry) -> ResolvedResponse? {
        guard route.first == "scenarios" else { return nil }
        switch (request.method, route.count) {
        case (.get, 1):
            let listed: [JSONValue] = registry.scenarioSummaries().map { summary in
                [
                    "name": .string(summary.name), "state": .string(summary.state.name),
                    "states": .array(summary.states.map { .string($0.name) }),
                    "sessions": .object(summary.sessions.mapValues { .string($0.name) }),
                ]
            }
            return json(.ok, ["scenarios": .array(listed)])
        case (.post, 2) where route[1] == "reset":
            registry.resetScenarios()
            return json(.ok, [:])
        case (.put, 3) where route[2] == "state":
            return setState(request, of: route[1].removingPercentEncoding ?? route[1], in: registry)
        default:
            return nil
        }
    }

    /// `{"state": "Paid"}`, or an empty body for `Started`; for the session the call's
    /// `RequestMocker-Session` names, else the shared states.
    private static func setState(_ request: MockRequest, of name: String, in registry: MockRegistry) -> ResolvedResponse
    {
        var state = Scenario.State.started
        if let body = request.body, !body.isEmpty {
            guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
                return error(.unsupportedMediaType, "send the state as JSON, with Content-Type: application/json")
            }
            guard let value = try? JSONValue(parsing: body), let text = value["state"]?.stringValue, !text.isEmpty
            else {
                return error(.badRequest, "send {\"state\": \"Paid\"}, or no body to go back to Started")
            }
            state = Scenario.State(text)
        }
        let session = request.header(.scenarioSession)
        do {
            try registry.setScenarioState(name, to: state, session: session)
        } catch {
            return Self.error(error.state == nil ? .notFound : .badRequest, error.description)
        }
        var answer: [String: JSONValue] = ["name": .string(name), "state": .string(state.name)]
        if let session { answer["session"] = .string(session) }
        return json(.ok, .object(answer))
    }
}
