/// A named state that stubs share, for flows that aren't a resource: "log in, then the account
/// answers differently; pay, then the order is paid". Every scenario starts in
/// ``State/started``. A filter with a scenario matches only while the scenario is in its
/// ``requiredState`` (any state when it has none), and answering moves the scenario to its
/// ``newState`` (nowhere when it has none).
///
/// ```swift
/// registry.register(.get("/order"), respond: .json(["status": "open"]),
///                   scenario: Scenario("checkout", requiredState: .started))
/// registry.register(.post("/pay"), respond: .status(204),
///                   scenario: Scenario("checkout", requiredState: .started, newState: "Paid"))
/// registry.register(.get("/order"), respond: .json(["status": "paid"]),
///                   scenario: Scenario("checkout", requiredState: "Paid"))
/// ```
///
/// The match and the move are one step: of many requests at once that all match a filter
/// moving `Started` to `Paid`, exactly one gets its answer. Each registry has its own states;
/// a request with a `RequestMocker-Session` header has states of its own too, so parallel UI
/// tests against one server never share them.
public struct Scenario: Sendable, Hashable, CustomStringConvertible {
    /// A scenario's state, by name.
    public struct State: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
        public let name: String

        public init(_ name: String) {
            self.name = name
        }

        public init(stringLiteral name: String) {
            self.init(name)
        }

        /// The state every scenario starts in, and goes back to when it is reset.
        public static let started = State("Started")

        public var description: String { name }
    }

    public var name: String
    /// The state the scenario must be in for the filter to match; `nil` for any.
    public var requiredState: State?
    /// The state answering moves the scenario to; `nil` leaves it where it is.
    public var newState: State?

    public init(_ name: String, requiredState: State? = nil, newState: State? = nil) {
        self.name = name
        self.requiredState = requiredState
        self.newState = newState
    }

    /// `scenario "checkout" in Started -> Paid`.
    public var description: String {
        "scenario \"\(name)\"" + (requiredState.map { " in \($0)" } ?? "") + (newState.map { " -> \($0)" } ?? "")
    }

    /// The request header whose value names a session with states of its own.
    public static let sessionHeader = "RequestMocker-Session"
}

/// A registry's scenario states: per session (a request's `RequestMocker-Session`), else one
/// shared set. Reading a state never changes it; a filter's match and its move happen under one
/// lock (``advance(_:session:claiming:)``).
package final class ScenarioStates: Sendable {
    /// By session (`""` for requests without one), then by scenario name; a scenario not here
    /// is in ``Scenario/State/started``.
    private let states = LockedState<[String: [String: Scenario.State]]>([:])
    /// The sessions in the order their states were first set, for the bound.
    private let sessionOrder = LockedState<[String]>([])

    /// The most sessions with states of their own; past it the oldest session's are forgotten
    /// (its scenarios back to `Started`), so clients that make up a session per request can't
    /// grow the server without end.
    package static let maximumSessions = 10_000

    package init() {}

    package func state(of name: String, session: String?) -> Scenario.State {
        states.withLock { $0[session ?? ""]?[name] } ?? .started
    }

    /// When `scenario` is in its required state, takes `claim`'s value (a response; `nil` when a
    /// sequence is used up) and, with one, moves the scenario: both under the lock, so no other
    /// request sees the state between them.
    package func advance<Value>(
        _ scenario: Scenario, session: String?, claiming claim: () -> Value?
    ) -> Value? {
        states.withLock { states in
            let key = session ?? ""
            let current = states[key]?[scenario.name] ?? .started
            if let required = scenario.requiredState, required != current { return nil }
            guard let value = claim() else { return nil }
            if let next = scenario.newState { put(next, for: scenario.name, session: key, in: &states) }
            return value
        }
    }

    package func set(_ name: String, to state: Scenario.State, session: String?) {
        states.withLock { put(state, for: name, session: session ?? "", in: &$0) }
    }

    /// Puts `state` in `states`, forgetting the oldest session's when a new one is one too many.
    private func put(
        _ state: Scenario.State, for name: String, session: String, in states: inout [String: [String: Scenario.State]]
    ) {
        if states[session] == nil, !session.isEmpty {
            let forgotten = sessionOrder.withLock { order -> String? in
                order.append(session)
                return order.count > Self.maximumSessions ? order.removeFirst() : nil
            }
            if let forgotten { states[forgotten] = nil }
        }
        states[session, default: [:]][name] = state
    }

    /// Every scenario back to ``Scenario/State/started``, in every session.
    package func reset() {
        states.withLock { states in
            states = [:]
            sessionOrder.withLock { $0 = [] }
        }
    }

    /// The sessions whose state of scenario `name` has been set or moved, with it.
    package func sessions(of name: String) -> [String: Scenario.State] {
        states.withLock { states in
            var found: [String: Scenario.State] = [:]
            for (session, byName) in states where !session.isEmpty {
                if let state = byName[name] { found[session] = state }
            }
            return found
        }
    }
}
