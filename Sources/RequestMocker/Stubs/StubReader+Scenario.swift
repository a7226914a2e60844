extension StubReader {
    /// `"scenario": {"name": "checkout", "requiredState": "Started", "newState": "Paid"}`: either
    /// state may be left out.
    func scenario(_ json: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> Scenario {
        let members = try object(json, at: steps, allowed: ["name", "requiredState", "newState"])
        guard let nameValue = members["name"] else {
            throw invalid(steps, "a scenario has a \"name\": {\"name\": \"checkout\", \"newState\": \"Paid\"}")
        }
        let name = try string(nameValue, at: steps + [.key("name")])
        var states: [Scenario.State?] = []
        for key in ["requiredState", "newState"] {
            guard let value = members[key] else {
                states.append(nil)
                continue
            }
            let state = try string(value, at: steps + [.key(key)])
            guard !state.isEmpty else { throw invalid(steps + [.key(key)], "a state has a name, such as \"Paid\"") }
            states.append(Scenario.State(state))
        }
        guard !name.isEmpty else {
            throw invalid(steps + [.key("name")], "a scenario has a name, such as \"checkout\"")
        }
        return Scenario(name, requiredState: states[0], newState: states[1])
    }
}
