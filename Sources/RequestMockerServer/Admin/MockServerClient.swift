import Foundation
import RequestMocker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A client for the admin API of a ``MockServer`` or of `request-mocker serve --admin`, for a
/// test in another process: an XCUITest, which can't reach the app's URL protocol, changes the
/// server's answers and checks what the app sent. It uses a plain `URLSession` and imports
/// neither XCTest nor Testing.
///
/// ```swift
/// let server = MockServerClient(baseURL: URL(string: "http://127.0.0.1:8080")!)
/// try await server.reset()
/// try await server.register(.get("/feature-flags").respond(with: .json(["newCheckout": true])))
/// app.launch()
/// let order = try await server.waitForRequest(matching: .post("/orders"), timeout: .seconds(10))
/// #expect(order.bodyText?.contains("\"items\"") == true)
/// ```
public struct MockServerClient: Sendable {
    /// What went wrong with an admin call.
    public enum Failure: Error, Sendable, CustomStringConvertible, LocalizedError {
        /// The filter can't be described in JSON (a block, a predicate, ...): why.
        case notDescribable(filter: String, reason: String)
        /// The server answered the call with an error: its status and message.
        case refused(call: String, status: Int, message: String)
        /// The server couldn't be reached, or didn't answer as the admin API does.
        case unreachable(call: String, reason: String)
        /// No matching request arrived in time.
        case timedOut(filter: String, timeout: Duration, received: Int)

        public var description: String {
            switch self {
            case .notDescribable(let filter, let reason):
                "\(filter) can't be sent to the server: \(reason)"
            case .refused(let call, let status, let message):
                "the server refused \(call) with \(status): \(message)"
            case .unreachable(let call, let reason):
                "\(call) failed: \(reason); is the server running, with --admin (or Configuration.admin)?"
            case .timedOut(let filter, let timeout, let received):
                "no request matching \(filter) arrived within \(timeout) (\(received) request"
                    + "\(received == 1 ? "" : "s") arrived in all)"
            }
        }

        public var errorDescription: String? { description }
    }

    /// The server's base URL, such as `http://127.0.0.1:8080`.
    public let baseURL: URL
    private let token: String?
    private let session: URLSession

    /// - Parameters:
    ///   - baseURL: the server, without `/__admin`.
    ///   - token: the server's admin token, when it has one (`--admin-token`).
    public init(baseURL: URL, token: String? = nil) {
        self.baseURL = baseURL
        self.token = token
        session = URLSession(configuration: .ephemeral)
    }

    /// Adds a stub for `filter`, tried before every other; returns its id.
    ///
    /// - Throws: ``Failure/notDescribable(filter:reason:)`` for a filter whose conditions or
    ///   response JSON can't carry (see ``Stub/init(describing:)``), and what a call can throw.
    @discardableResult
    public func register(_ filter: RequestFilter) async throws(Failure) -> String {
        let stub: Stub
        do {
            stub = try Stub(describing: filter)
        } catch {
            throw .notDescribable(filter: filter.description, reason: error.description)
        }
        return try await register(stub)
    }

    /// Adds `stub`, tried before every other; returns its id.
    @discardableResult
    public func register(_ stub: Stub) async throws(Failure) -> String {
        let body = (try? stub.json.serialized()) ?? Data()
        let answer = try await call("POST", "stubs", body: body)
        guard let id = answer["id"]?.stringValue else {
            throw .unreachable(call: "POST /__admin/stubs", reason: "the answer has no id: \(answer)")
        }
        return id
    }

    /// Removes the stub `id` that ``register(_:)-(RequestFilter)`` added.
    public func remove(_ id: String) async throws(Failure) {
        _ = try await call("DELETE", "stubs/\(Self.segment(id))")
    }

    /// Turns the stub `id` off (it stays listed, and matches nothing) or on again, where it was:
    /// an added stub, or a stubs file's (`file-1` for its first, unless it has an `"id"`).
    ///
    /// ```swift
    /// try await server.setStubEnabled("checkout-paid", false)
    /// ```
    ///
    /// - Throws: ``Failure/refused(call:status:message:)`` (404) when no stub has the id.
    public func setStubEnabled(_ id: String, _ enabled: Bool) async throws(Failure) {
        let body = (try? JSONValue.object(["enabled": .bool(enabled)]).serialized()) ?? Data()
        _ = try await call("PATCH", "stubs/\(Self.segment(id))", body: body)
    }

    /// Removes every stub added through the admin API and clears the server's journal and its
    /// drift report; a contract's resources that remember go back to their seed (`--data`, else
    /// the examples), and every scenario to `Started`.
    public func reset() async throws(Failure) {
        _ = try await call("POST", "reset")
    }

    /// The scenarios the server's stubs name, each with its states and the one it is in (for
    /// `session`, a `RequestMocker-Session` value, or the shared states).
    ///
    /// ```swift
    /// let checkout = try await server.scenarios().first { $0.name == "checkout" }
    /// #expect(checkout?.state == "Paid")
    /// ```
    public func scenarios(session: String? = nil) async throws(Failure) -> [MockRegistry.ScenarioSummary] {
        let answer = try await call("GET", "scenarios")
        guard case .array(let listed)? = answer["scenarios"] else {
            throw .unreachable(call: "GET /__admin/scenarios", reason: "the answer has no scenarios: \(answer)")
        }
        return listed.compactMap { item in
            guard let name = item["name"]?.stringValue, let shared = item["state"]?.stringValue,
                case .array(let states)? = item["states"], case .object(let sessions)? = item["sessions"]
            else { return nil }
            let bySession = sessions.compactMapValues { $0.stringValue.map { Scenario.State($0) } }
            return MockRegistry.ScenarioSummary(
                name: name, state: session.flatMap { bySession[$0] } ?? Scenario.State(shared),
                states: states.compactMap { $0.stringValue.map { Scenario.State($0) } }, sessions: bySession)
        }
    }

    /// Puts scenario `name` in `state` (for `session`, or the shared states).
    ///
    /// - Throws: ``Failure/refused(call:status:message:)`` when no stub names the scenario (404)
    ///   or the state (400, naming the states it could be).
    public func setScenarioState(
        _ name: String, to state: Scenario.State, session: String? = nil
    ) async throws(Failure) {
        let body = (try? JSONValue.object(["state": .string(state.name)]).serialized()) ?? Data()
        _ = try await call(
            "PUT", "scenarios/\(Self.segment(name))/state", body: body,
            headers: session.map { [Scenario.sessionHeader: $0] } ?? [:])
    }

    /// Every scenario back to `Started`, in every session.
    public func resetScenarios() async throws(Failure) {
        _ = try await call("POST", "scenarios/reset")
    }

    /// What the upstream's exchanges broke of the contract since the server started (or was
    /// reset), under `serve --openapi FILE --upstream URL --upstream-first`: the JSON of
    /// `request-mocker check --format json`, `{"findings": [...], "coverage": {...}}`.
    ///
    /// ```swift
    /// let drift = try await server.drift()
    /// #expect(drift["findings"] == [])
    /// ```
    public func drift() async throws(Failure) -> JSONValue {
        try await call("GET", "drift")
    }

    /// What the server's remembering contract holds now (`serve --stateful`): an object keyed by
    /// the concrete paths of its collections (each an array of items) and singletons.
    ///
    /// ```swift
    /// let state = try await server.resources()
    /// #expect(state["/pets"]?[0]?["name"] == "Rex")
    /// ```
    public func resources() async throws(Failure) -> JSONValue {
        try await call("GET", "resources")
    }

    /// Replaces what the server's remembering contract holds with `value`, in the format
    /// ``resources()`` gives; checked against the contract first (a mistake is
    /// ``Failure/refused(call:status:message:)`` and changes nothing). A reset still puts back
    /// the seed.
    ///
    /// ```swift
    /// try await server.replaceResources(with: ["/pets": [["id": 1, "name": "Rex"]]])
    /// ```
    public func replaceResources(with value: JSONValue) async throws(Failure) {
        let body: Data
        do {
            body = try value.serialized()
        } catch {
            throw .notDescribable(filter: "the resources", reason: "\(error)")
        }
        _ = try await call("PUT", "resources", body: body)
    }

    /// The requests the server received, oldest first (as far back as its journal keeps),
    /// that `filter` matches; all of them when it is `nil`.
    public func requests(matching filter: RequestFilter? = nil) async throws(Failure) -> [MockRequest] {
        let answer = try await call("GET", "requests")
        guard case .array(let entries)? = answer["requests"] else {
            throw .unreachable(call: "GET /__admin/requests", reason: "the answer has no requests: \(answer)")
        }
        let requests = entries.compactMap(AdminJSON.request(from:))
        guard let filter else { return requests }
        return requests.filter { filter.match($0) != nil }
    }

    /// The first request `filter` matches, waiting until one arrives (one that arrived before
    /// the call counts).
    ///
    /// - Throws: ``Failure/timedOut(filter:timeout:received:)`` when none arrives within
    ///   `timeout`.
    public func waitForRequest(
        matching filter: RequestFilter, timeout: Duration = .seconds(5)
    ) async throws(Failure) -> MockRequest {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var received = 0
        while true {
            let all = try await requests()
            received = all.count
            if let found = all.first(where: { filter.match($0) != nil }) { return found }
            guard clock.now < deadline else {
                throw .timedOut(filter: filter.description, timeout: timeout, received: received)
            }
            try? await Task.sleep(for: min(.milliseconds(100), clock.now.duration(to: deadline)))
        }
    }

    /// `text` as one segment of a path, percent-encoded (a `/` in it too).
    private static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? text
    }

    /// One admin call: its JSON answer, or the failure.
    private func call(
        _ method: String, _ path: String, body: Data? = nil, headers: [String: String] = [:]
    ) async throws(Failure) -> JSONValue {
        let name = "\(method) /__admin/\(path)"
        let base =
            baseURL.absoluteString.hasSuffix("/") ? String(baseURL.absoluteString.dropLast()) : baseURL.absoluteString
        guard let url = URL(string: base + "/__admin/" + path) else {
            throw .unreachable(call: name, reason: "\(baseURL) is not a base URL a path can follow")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.httpBody = body
        // A call that changes something is JSON even without a body: the server refuses others
        // (a web page's form can't send JSON).
        if body != nil || method != "GET" {
            request.setValue("application/json", forHTTPHeaderField: HTTPHeaders.Name.contentType.rawValue)
        }
        if let token {
            request.setValue("Bearer \(token)", forHTTPHeaderField: HTTPHeaders.Name.authorization.rawValue)
        }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await session.data(for: request)
        } catch {
            throw .unreachable(call: name, reason: (error as? URLError)?.reason ?? "\(error)")
        }
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        let json = try? JSONValue(parsing: data)
        guard (200..<300).contains(status) else {
            let message = json?["error"]?.stringValue ?? String(decoding: data.prefix(500), as: UTF8.self)
            throw .refused(call: name, status: status, message: message)
        }
        guard let json else {
            throw .unreachable(
                call: name, reason: "the answer is not JSON: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return json
    }
}
