import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Which operation a request is for: base paths, literals before templates, document order,
/// mixed template segments, query conditions in path keys, 405 and HEAD.
@Suite("Routing requests to a contract's operations", .timeLimit(.minutes(3)), .hangGuard, .ownThread)
struct OpenAPIRouterTests {
    /// A contract with `paths` (JSON text of the `paths` object) and the top-level `servers`.
    static func contract(paths: String, servers: String = "[]") throws -> OpenAPIContract {
        let folder = try TemporaryFolder()
        let url = try folder.write(
            "openapi.json", #"{"openapi": "3.1.0", "servers": \#(servers), "paths": \#(paths)}"#)
        return try OpenAPIContract(contentsOf: url)
    }

    /// What the router makes of `method` `path` (with its query), as text: `getPet id=7`,
    /// `405 GET, HEAD`, `404`.
    static func route(
        _ contract: OpenAPIContract, _ method: HTTPMethod, _ path: String, basePath: String? = nil
    ) -> String {
        let request = MockRequest(method: method, url: URL(string: "https://api.test" + path)!)
        switch contract.router(basePath: basePath).route(
            method, segments: request.pathSegments, query: request.queryItems)
        {
        case .operation(let index, let parameters):
            let values = parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
            return ([contract.operations[index].description] + values).joined(separator: " ")
        case .methodNotAllowed(let allowed): return "405 " + allowed.map(\.rawValue).joined(separator: ", ")
        case .notFound: return "404"
        }
    }

    static func operation(_ id: String, _ method: String = "get") -> String {
        #""\#(method)": {"operationId": "\#(id)", "responses": {"200": {"description": "ok"}}}"#
    }

    @Test("a literal segment beats a template; templates go in document order; a method the path lacks is 405")
    func precedence() throws {
        let contract = try Self.contract(
            paths: """
                {"/pets/{id}": {\(Self.operation("getPet")), \(Self.operation("deletePet", "delete"))},
                 "/pets/mine": {\(Self.operation("getMine"))},
                 "/pets/{name}/toys": {\(Self.operation("toysByName"))},
                 "/pets/{id}/toys": {\(Self.operation("toysById")), \(Self.operation("addToy", "post"))}}
                """)
        #expect(Self.route(contract, .get, "/pets/mine") == "getMine")
        #expect(Self.route(contract, .get, "/pets/7") == "getPet id=7")
        // The concrete path decides even where a template has the method (OpenAPI matches concrete
        // paths first; schemathesis expects 405 here).
        #expect(Self.route(contract, .delete, "/pets/mine") == "405 GET, HEAD")
        #expect(Self.route(contract, .get, "/pets/7/toys") == "toysByName name=7")
        #expect(Self.route(contract, .post, "/pets/7/toys") == "addToy id=7")
        #expect(Self.route(contract, .put, "/pets/mine") == "405 GET, HEAD")
        #expect(Self.route(contract, .head, "/pets/7") == "getPet id=7")
        #expect(Self.route(contract, .get, "/pets") == "404")
        #expect(Self.route(contract, .get, "/pets/7/toys/1") == "404")
        #expect(Self.route(contract, .get, "/pets/caf%C3%A9/") == "getPet id=café")
    }

    @Test("the base path is the first server's path with its variables' defaults; a path's own servers override it")
    func basePaths() throws {
        let contract = try Self.contract(
            paths: """
                {"/pets": {\(Self.operation("listPets"))},
                 "/health": {"servers": [{"url": "/"}], \(Self.operation("health"))},
                 "/admin": {"get": {"operationId": "admin", "servers": [{"url": "https://admin.example/internal/"}],
                   "responses": {}}}}
                """,
            servers: #"[{"url": "https://{region}.shop.example/{version}", "variables": "#
                + #"{"region": {"default": "eu"}, "version": {"default": "v1", "enum": ["v1", "v2"]}}}]"#)
        #expect(contract.basePath == "/v1")
        #expect(Self.route(contract, .get, "/v1/pets") == "listPets")
        #expect(Self.route(contract, .get, "/pets") == "404")
        #expect(Self.route(contract, .get, "/health") == "health")
        #expect(Self.route(contract, .get, "/internal/admin") == "admin")
        #expect(Self.route(contract, .get, "/api/pets", basePath: "/api") == "listPets")
        #expect(Self.route(contract, .get, "/pets", basePath: "") == "listPets")
    }

    @Test("a template segment may mix text and parameters; each parameter takes as little as it can")
    func mixedSegments() throws {
        let contract = try Self.contract(
            paths: """
                {"/Accounts/{AccountSid}/Calls/{Sid}.json": {\(Self.operation("fetchCall"))},
                 "/Accounts/{AccountSid}/Calls.json": {\(Self.operation("listCalls"))},
                 "/range/{from}-{to}": {\(Self.operation("range"))}}
                """)
        #expect(Self.route(contract, .get, "/Accounts/AC1/Calls/CA2.json") == "fetchCall AccountSid=AC1 Sid=CA2")
        #expect(Self.route(contract, .get, "/Accounts/AC1/Calls.json") == "listCalls AccountSid=AC1")
        #expect(Self.route(contract, .get, "/Accounts/AC1/Calls/.json") == "404")
        #expect(Self.route(contract, .get, "/range/1-2-3") == "range from=1 to=2-3")
        #expect(Self.route(contract, .get, "/range/-2") == "404")
    }

    @Test("a query in a path key is a condition tried first; a fragment can't be sent, so its twin is unreachable")
    func queriesAndFragments() throws {
        let contract = try Self.contract(
            paths: """
                {"/responses": {\(Self.operation("create", "post"))},
                 "/responses?beta=true": {\(Self.operation("createBeta", "post"))},
                 "/files/{id}": {\(Self.operation("getFile"))},
                 "/files/{file_id}#shared_link": {\(Self.operation("getSharedLink")),
                   \(Self.operation("addLink", "put"))}}
                """)
        #expect(Self.route(contract, .post, "/responses") == "create")
        #expect(Self.route(contract, .post, "/responses?beta=true&x=1") == "createBeta")
        #expect(Self.route(contract, .post, "/responses?beta=false") == "create")
        #expect(Self.route(contract, .get, "/files/9") == "getFile id=9")
        #expect(Self.route(contract, .put, "/files/9") == "addLink file_id=9")
        #expect(
            contract.notices == [
                "1 operation can't be reached by any request: GET /files/{file_id}#shared_link "
                    + "(/files/{id} is matched first)"
            ])
    }

    /// Every operation of the real contracts is reached by a request made from its own template
    /// (each parameter given a value), except those the load summary names as unreachable.
    @Test(
        "every real operation is reached from its own template",
        .enabled(if: RealContracts.available, RealContracts.skipped),
        arguments: ["openai/openapi.json", "twilio/spec/json/twilio_api_v2010.json"])
    func realContracts(file: String) throws {
        let contract = try OpenAPIContract(contentsOf: RealContracts.url(file))
        let router = contract.router()
        var missed: [String] = []
        for (index, operation) in contract.operations.enumerated() {
            var path = contract.basePath + operation.path
            while let open = path.firstIndex(of: "{"), let close = path[open...].firstIndex(of: "}") {
                path.replaceSubrange(open...close, with: "p\(index)")
            }
            let request = MockRequest(
                method: operation.method, url: try #require(URL(string: "https://api.test" + path)))
            let decision = router.route(operation.method, segments: request.pathSegments, query: request.queryItems)
            if case .operation(let routed, _) = decision, routed == index { continue }
            missed.append("\(operation.method) \(operation.path) → \(decision)")
        }
        #expect(missed == [])
        #expect(!contract.notices.contains { $0.contains("can't be reached") })
    }
}
