import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// The admin API a ``MockServer`` answers under `/__admin/` when
/// ``MockServer/Configuration/admin`` is set: stubs added and removed at run time, and the
/// journal as JSON, for a test in another process (an XCUITest) that can't reach the registry.
///
/// | Call | Does |
/// |---|---|
/// | `GET /__admin/stubs` | `{"stubs": [...]}`: the added stubs (newest first, with `id`), then a stubs file's |
/// | `POST /__admin/stubs` | adds one stub (``Stub``'s schema), tried before all others; `201 {"id": …}` |
/// | `DELETE /__admin/stubs/{id}` | removes an added stub |
/// | `POST /__admin/reset` | removes the added stubs, clears the journal and drift, resets the resources |
/// | `GET /__admin/resources` | a remembering contract's resources: `{"/pets": [...], "/users/7/settings": {...}}` |
/// | `PUT /__admin/resources` | replaces them with the body, in that format, checked against the contract |
/// | `GET /__admin/drift` | the upstream's drift from the contract (`--upstream-first`), as `check --format json` |
/// | `GET /__admin/requests` | `{"requests": [...]}`: the journal, oldest first |
/// | `GET /__admin/requests/unmatched` | the unmatched requests, each with its near-miss report |
///
/// Errors are `{"error": "…"}` with a 4xx status. Admin calls are not journaled.
enum AdminAPI {
    static let prefix = "/__admin"

    static func handles(_ request: MockRequest) -> Bool {
        request.path == prefix || request.path.hasPrefix(prefix + "/")
    }

    static func answer(_ request: MockRequest, server: MockServer, admin: MockServer.Admin) -> ResolvedResponse {
        let route = request.path.dropFirst(prefix.count).split(separator: "/", omittingEmptySubsequences: true)
            .map(String.init)
        if request.method == .get, route.isEmpty, !request.path.hasSuffix("/") {
            var headers = HTTPHeaders()
            headers.add(.location, prefix + "/")
            headers.add(.contentLength, "0")
            return ResolvedResponse(status: .permanentRedirect, httpVersion: "HTTP/1.1", headers: headers, body: Data())
        }
        // The page holds nothing secret (it asks for the token, and everything else it fetches),
        // so a browser may open it without one; every other call is checked.
        let isPage = request.method == .get && route.isEmpty && server.dashboard != nil
        if let refusal = refusal(of: request, server: server, admin: admin, isPage: isPage) { return refusal }
        let store = server.stubStore
        if request.method == .delete, route.count == 2, route[0] == "stubs" {
            let id = route[1].removingPercentEncoding ?? route[1]
            guard store.remove(id) else {
                return error(
                    .notFound, "no added stub has the id \(id.debugDescription); GET /__admin/stubs lists them")
            }
            return json(.ok, ["removed": .string(id)])
        }
        if let answer = scenarios(request, route: route, in: server.registry) { return answer }
        if let answer = dashboardCall(request, route: route, server: server) { return answer }
        switch (request.method, route) {
        case (.get, ["stubs"]):
            let (added, file) = store.stubs
            let listed =
                added.map {
                    Self.object(
                        $0.stub.json, adding: ["id": .string($0.id), "source": "admin", "enabled": .bool($0.isEnabled)])
                }
                + file.map {
                    Self.object(
                        $0.stub.json,
                        adding: [
                            "id": .string($0.id), "source": .string($0.stub.filter.location),
                            "enabled": .bool($0.isEnabled),
                        ])
                }
            return json(.ok, ["stubs": .array(listed)])
        case (.post, ["stubs"]):
            return add(
                request, to: store, contract: server.registry.contracts.first,
                graphQL: server.registry.stubGraphQLSchema)
        case (.post, ["reset"]):
            store.removeAdded()
            server.dashboard?.clear()
            // The report first: an exchange checked meanwhile belongs to neither.
            server.registry.resetDrift()
            server.registry.clearJournal()
            server.registry.resetScenarios()
            do {
                try server.registry.resetResourcesReporting()
            } catch {
                return Self.error(.internalServerError, "the stubs and the journal were reset, but \(error)")
            }
            return json(.ok, [:])
        case (.get, ["resources"]):
            return document(.ok, server.registry.resourcesDocument)
        case (.put, ["resources"]):
            return replaceResources(request, in: server.registry)
        case (.get, ["drift"]):
            guard let report = server.registry.driftReport else {
                return error(
                    .notFound,
                    "nothing checks the upstream's traffic: serve with --openapi FILE --upstream URL --upstream-first")
            }
            return json(.ok, report.json)
        case (.get, ["requests"]):
            server.registry.settleDrift()
            return json(.ok, ["requests": .array(server.registry.journal.map { AdminJSON.json($0) })])
        case (.get, ["requests", "unmatched"]):
            let unmatched = server.registry.journal.filter(\.isUnmatched)
            return json(.ok, ["requests": .array(unmatched.map { AdminJSON.json($0) })])
        default:
            let known: [(HTTPMethod, [String])] =
                [
                    (.get, ["stubs"]), (.post, ["stubs"]), (.delete, ["stubs", "<id>"]), (.post, ["reset"]),
                    (.get, ["resources"]), (.put, ["resources"]), (.get, ["drift"]), (.get, ["requests"]),
                    (.get, ["requests", "unmatched"]), (.get, ["scenarios"]), (.put, ["scenarios", "<name>", "state"]),
                    (.post, ["scenarios", "reset"]), (.patch, ["stubs", "<id>"]), (.post, ["resources", "reset"]),
                ]
                + (server.dashboard == nil
                    ? []
                    : [
                        (.get, []), (.get, ["events"]), (.get, ["exchanges"]), (.get, ["exchanges", "<id>"]),
                        (.get, ["exchanges.har"]), (.post, ["exchanges", "<id>", "mock"]),
                    ])
            let sameRoute = known.filter {
                $0.1.count == route.count && zip($0.1, route).allSatisfy { $0.hasPrefix("<") || $0 == $1 }
            }
            let list = known.map { "\($0.0.rawValue) \(prefix)/\($0.1.joined(separator: "/"))" }.joined(separator: ", ")
            if !sameRoute.isEmpty {
                let allowed = sameRoute.map(\.0.rawValue).joined(separator: ", ")
                return error(
                    .methodNotAllowed, "\(request.method.rawValue) is not allowed here; use \(allowed)",
                    headers: [("Allow", allowed)])
            }
            return error(.notFound, "no admin call \(request.method.rawValue) \(request.path); the calls are \(list)")
        }
    }

    private static func add(
        _ request: MockRequest, to store: StubStore, contract: OpenAPIContract?, graphQL: (any StubGraphQLSchema)?
    ) -> ResolvedResponse {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            return error(.unsupportedMediaType, "send the stub as JSON, with Content-Type: application/json")
        }
        guard let body = request.body, !body.isEmpty else {
            return error(.badRequest, "send one stub as the JSON body: {\"request\": {...}, \"response\": {...}}")
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: body)
        } catch {
            return Self.error(.badRequest, "the body is not JSON: \(error)")
        }
        let stub: Stub
        do {
            stub = try Stub(json: json, location: "admin stub", contract: contract, graphQL: graphQL)
        } catch {
            return Self.error(.badRequest, "the stub is not valid: \(error)")
        }
        do {
            let id = try store.add(stub)
            return Self.json(.created, ["id": .string(id)])
        } catch .idTaken(let id) {
            return error(
                .conflict, "a stub with the id \(id.debugDescription) exists; DELETE it first, or leave out \"id\"")
        } catch {
            return Self.error(.conflict, "\(StubStore.maximumAdded) stubs were added already; reset, or remove some")
        }
    }

    /// `PUT /__admin/resources`: the body, JSON, replaces what the remembering contracts hold.
    private static func replaceResources(_ request: MockRequest, in registry: MockRegistry) -> ResolvedResponse {
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true else {
            return error(.unsupportedMediaType, "send the resources as JSON, with Content-Type: application/json")
        }
        let call = "PUT \(prefix)/resources"
        let root: DocumentNode
        do {
            root = try DocumentNode.parseJSON([UInt8](request.body ?? Data()))
        } catch {
            return Self.error(.badRequest, "the body is not JSON: \(error.reason) (at byte \(error.offset))")
        }
        do {
            try registry.replaceResources(with: root, from: .value(call))
        } catch {
            return Self.error(.badRequest, "\(error)")
        }
        return document(.ok, registry.resourcesDocument)
    }

    /// Whether the request carries the token, compared in time that doesn't depend on where
    /// they differ.
    static func authorized(_ request: MockRequest, token: String) -> Bool {
        let expected = Array("Bearer \(token)".utf8)
        return request.headers.values(for: .authorization).contains { value in
            let given = Array(value.utf8)
            guard given.count == expected.count else { return false }
            return zip(given, expected).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }

    private static func object(_ value: JSONValue, adding extra: [String: JSONValue]) -> JSONValue {
        guard case .object(var members) = value else { return value }
        members.merge(extra) { _, new in new }
        return .object(members)
    }

    static func json(
        _ status: HTTPStatus, _ value: JSONValue, headers extra: [(HTTPHeaders.Name, String)] = []
    ) -> ResolvedResponse {
        respond(status, (try? value.serialized(pretty: true)) ?? Data("{}".utf8), headers: extra)
    }

    /// `body` as the answer, JSON unless another `contentType` is given.
    static func respond(
        _ status: HTTPStatus, _ body: Data, contentType: String = "application/json",
        headers extra: [(HTTPHeaders.Name, String)] = []
    ) -> ResolvedResponse {
        var headers = HTTPHeaders()
        headers.add(.contentType, contentType)
        headers.add(.contentLength, String(body.count))
        for (name, value) in extra { headers.add(name, value) }
        return ResolvedResponse(status: status, httpVersion: "HTTP/1.1", headers: headers, body: body)
    }

    /// `node` as the JSON answer, its members in their order.
    static func document(_ status: HTTPStatus, _ node: DocumentNode) -> ResolvedResponse {
        respond(status, Data(node.jsonBytes))
    }

    static func error(
        _ status: HTTPStatus, _ message: String, headers: [(HTTPHeaders.Name, String)] = []
    ) -> ResolvedResponse {
        json(status, ["error": .string(message)], headers: headers)
    }
}
