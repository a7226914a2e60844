extension HTTPHeaders.Name {
    /// `RequestMocker-Session`: a session with scenario states of its own (see ``Scenario``).
    public static let scenarioSession = HTTPHeaders.Name(Scenario.sessionHeader)
}

extension MockRegistry {
    /// A scenario the registry's filters name: the states they name, and the one it is in.
    public struct ScenarioSummary: Sendable, Hashable {
        public let name: String
        /// The state it is in (for the session asked about).
        public let state: Scenario.State
        /// `Started`, then every state its filters require or move to, in the order they are
        /// registered.
        public let states: [Scenario.State]
        /// The state of each `RequestMocker-Session` that set or moved it.
        public let sessions: [String: Scenario.State]

        package init(
            name: String, state: Scenario.State, states: [Scenario.State], sessions: [String: Scenario.State] = [:]
        ) {
            self.name = name
            self.state = state
            self.states = states
            self.sessions = sessions
        }
    }

    /// The state scenario `name` is in: ``Scenario/State/started`` until a filter moves it.
    ///
    /// ```swift
    /// #expect(registry.scenarioState("checkout") == "Paid")
    /// ```
    ///
    /// - Parameters:
    ///   - name: the scenario's name.
    ///   - session: a `RequestMocker-Session` value, for that session's state; `nil` for the
    ///     state of requests without one.
    public func scenarioState(_ name: String, session: String? = nil) -> Scenario.State {
        scenarios.state(of: name, session: session)
    }

    /// Every scenario the registry's filters name, by name, with its states.
    public func scenarioSummaries(session: String? = nil) -> [ScenarioSummary] {
        namedStates().map { name, states in
            ScenarioSummary(
                name: name, state: scenarios.state(of: name, session: session), states: states,
                sessions: scenarios.sessions(of: name))
        }
    }

    /// Puts scenario `name` in `state`, as a test's setup does to start in the middle of a flow.
    ///
    /// ```swift
    /// try registry.setScenarioState("checkout", to: "Paid")
    /// ```
    ///
    /// - Throws: ``ScenarioError`` when no filter names the scenario, or the state is neither
    ///   `Started` nor one its filters name (the error lists those).
    public func setScenarioState(
        _ name: String, to state: Scenario.State, session: String? = nil
    ) throws(ScenarioError) {
        let named = namedStates()
        guard let states = named.first(where: { $0.name == name })?.states else {
            throw ScenarioError(scenario: name, state: nil, known: named.map(\.name))
        }
        guard states.contains(state) else {
            throw ScenarioError(scenario: name, state: state.name, known: states.map(\.name))
        }
        scenarios.set(name, to: state, session: session)
    }

    /// Every scenario back to ``Scenario/State/started``, in every session.
    public func resetScenarios() {
        scenarios.reset()
    }

    /// The scenarios the filters name, each with `Started` and the states its filters name.
    private func namedStates() -> [(name: String, states: [Scenario.State])] {
        let filters = state.withLock { $0.index.ordered.compactMap(\.filter) }
        var states: [String: [Scenario.State]] = [:]
        for scenario in filters.compactMap(\.scenario) {
            var named = states[scenario.name] ?? [.started]
            for state in [scenario.requiredState, scenario.newState].compactMap({ $0 }) where !named.contains(state) {
                named.append(state)
            }
            states[scenario.name] = named
        }
        return states.sorted { $0.key < $1.key }.map { (name: $0.key, states: $0.value) }
    }
}

/// A scenario no filter names, or a state none of its filters names.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public let scenario: String
    /// The state asked for, when the scenario is known.
    public let state: String?
    /// The scenarios there are, or the scenario's states.
    public let known: [String]

    public init(scenario: String, state: String?, known: [String]) {
        self.scenario = scenario
        self.state = state
        self.known = known
    }

    public var description: String {
        let list = known.map { "\"\($0)\"" }.joined(separator: ", ")
        guard let state else {
            return "no filter names scenario \"\(scenario)\"; "
                + (known.isEmpty ? "no filter has a scenario" : "the scenarios are \(list)")
        }
        return "no filter of scenario \"\(scenario)\" names the state \"\(state)\"; its states are \(list)"
    }
}
