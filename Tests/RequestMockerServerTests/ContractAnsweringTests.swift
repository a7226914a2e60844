import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// A contract answering through both transports: the same status, headers and body from
/// `MockURLProtocol` and from `MockServer`, chosen by the rules in their documented order.
@Suite("Answering from an OpenAPI contract", .timeLimit(.minutes(3)), .hangGuard)
struct ContractAnsweringTests {
    static func contract() throws -> OpenAPIContract {
        try OpenAPIContract(
            contentsOf: try #require(Bundle.module.url(forResource: "Fixtures/OpenAPI/petshop", withExtension: "json")))
    }

    /// What a call received: the status, the headers the contract source sets, the body.
    struct Received: Equatable, CustomStringConvertible {
        let status: Int
        let headers: [String: String]
        let body: String

        var description: String { "\(status) \(headers.sorted { $0.key < $1.key }) \(body.debugDescription)" }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        let method: String
        let path: String
        let headers: [String: String]
        let status: Int
        let expectedHeaders: [String: String]
        let body: String
        /// The request's body.
        let sent: String?

        init(
            _ method: String, _ path: String, _ headers: [String: String] = [:], sending sent: String? = nil,
            _ status: Int, _ expectedHeaders: [String: String], _ body: String
        ) {
            (self.method, self.path, self.headers, self.status) = (method, path, headers, status)
            (self.expectedHeaders, self.body, self.sent) = (expectedHeaders, body, sent)
        }

        var testDescription: String { "\(method) \(path) \(headers.sorted { $0.key < $1.key })" }
        var expected: Received { Received(status: status, headers: expectedHeaders, body: body) }
    }

    static let shownHeaders = [
        "Content-Type", "RequestMocker-OpenAPI", "Allow", "Deprecation", "X-Total", "X-Next", "WWW-Authenticate",
        "RequestMocker-Violations",
    ]

    static func json(_ how: String, _ extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["Content-Type": "application/json", "RequestMocker-OpenAPI": how]) { first, _ in first }
    }

    static func problem(_ how: String, _ extra: [String: String] = [:]) -> [String: String] {
        extra.merging(["Content-Type": "application/problem+json", "RequestMocker-OpenAPI": how]) { first, _ in first }
    }

    static func problemBody(_ status: Int, _ title: String, _ detail: String, _ extra: String = "") -> String {
        #"{"detail":"# + detail.debugDescription + extra
            + #","status":\#(status),"title":"\#(title)","type":"about:blank"}"#
    }

    static let listed = ["X-Total": "0", "X-Next": "/v2/pets?page=2"]
    static let dog = #"{"id":7,"name":"Rex","kind":"dog"}"#
    static let notFound = #"{"code":404,"message":"no such pet"}"#

    static let cases: [Case] = [
        // No example: a body generated from the schema, and the declared headers.
        Case(
            "GET", "/v2/pets", [:], 200, json("listPets 200 generated", listed),
            #"[{"id":0,"name":"string","kind":"dog","born":"2026-01-01"}]"#),
        Case(
            "GET", "/v2/pets", ["Accept": "text/csv;q=0.9, application/xml"], 200,
            listed.merging(["Content-Type": "text/csv", "RequestMocker-OpenAPI": "listPets 200 example"]) { a, _ in a },
            "id,name\n1,Rex\n"),
        Case(
            "GET", "/v2/pets", ["Accept": "application/xml, text/*;q=0"], 406, problem("listPets 406 problem"),
            problemBody(
                406, "Not Acceptable",
                "listPets 200 answers with application/json, text/csv, and Accept takes none of them")),
        // A status the operation lacks gets its default response.
        Case(
            "GET", "/v2/pets", ["Prefer": "code=500"], 500, json("listPets 500 generated"),
            #"{"code":0,"message":"string"}"#),
        Case("GET", "/v2/pets?__code=503", [:], 503, json("listPets 503 generated"), #"{"code":0,"message":"string"}"#),
        Case("GET", "/v2/pets/7", [:], 200, json("getPet 200 example dog"), dog),
        Case(
            "GET", "/v2/pets/7", ["Prefer": "example=cat"], 200, json("getPet 200 example cat"),
            #"{"id":8,"name":"Tom","kind":"cat"}"#),
        Case(
            "GET", "/v2/pets/7", ["Prefer": "code=404, example=\"notFound\""], 404, json("getPet 404 example notFound"),
            notFound),
        Case(
            "GET", "/v2/pets/7?__code=404&__example=notFound", [:], 404, json("getPet 404 example notFound"), notFound),
        Case(
            "GET", "/v2/pets/7", ["Prefer": "example=bird"], 404, problem("getPet 404 problem"),
            problemBody(
                404, "Not Found", #"getPet 200 application/json has no example named "bird"; it has dog, cat"#,
                #","examples":["dog","cat"]"#)),
        Case(
            "GET", "/v2/pets/7", ["Prefer": "code=500"], 404, problem("getPet 404 problem"),
            problemBody(404, "Not Found", "getPet declares no 500 response and no default; it declares 200, 404")),
        Case(
            "GET", "/v2/pets/7", ["Prefer": "code=abc"], 400, problem("getPet 400 problem"),
            problemBody(
                400, "Bad Request", #"the preferred code "abc" is not an HTTP status; ask for one such as code=404"#)),
        // A literal segment beats a template.
        Case("GET", "/v2/pets/mine", [:], 200, json("myPets 200 example"), #"[{"id":1,"name":"Mine"}]"#),
        Case(
            "PUT", "/v2/pets/7", [:], 405, problem("PUT /v2/pets/7 405 problem", ["Allow": "GET, DELETE, HEAD"]),
            problemBody(
                405, "Method Not Allowed", "/v2/pets/7 declares no PUT operation; it declares GET, DELETE, HEAD")),
        Case(
            "DELETE", "/v2/pets/7", [:], 204, ["RequestMocker-OpenAPI": "deletePet 204 empty", "Deprecation": "true"],
            ""),
        Case("HEAD", "/v2/pets/7", [:], 200, json("getPet 200 example dog"), ""),
        // `default` alone is sent as 200; a schema's own example is served.
        Case(
            "GET", "/v2/health", [:], 200,
            ["Content-Type": "text/plain", "RequestMocker-OpenAPI": "GET /health 200 schema example"],
            "ok"),
        Case(
            "GET", "/v2/legacy", [:], 501, problem("legacy 501 problem"),
            problemBody(
                501, "Not Implemented",
                "legacy declares no 2xx response and no default; ask for one of 302 with Prefer: code=…")),
    ]

    @Test(arguments: cases)
    func bothTransportsAnswerAsTheContractSays(_ example: Case) async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract())
        try await Self.expectBothTransports(answer: example, from: registry)
    }

    static func text(_ path: String, _ session: URLSession, headers: [String: String] = [:]) async throws -> String {
        var request = URLRequest(url: URL(string: "https://petshop.example" + path)!)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return String(decoding: try await session.data(for: request).0, as: UTF8.self)
    }

    @Test("what is registered before the contract wins, a path it lacks goes on, and the journal names its answers")
    func precedence() async throws {
        let registry = MockRegistry()
        registry.register(.get("/v2/pets/7"), respond: .json(["from": "filter"]))
        registry.register(try Self.contract())
        registry.register(.get("/v2/other"), respond: .string("after"))
        let session = registry.makeSession()
        #expect(try await Self.text("/v2/pets/7", session) == #"{"from":"filter"}"#)
        #expect(try await Self.text("/v2/pets/8", session) == Self.dog)
        #expect(try await Self.text("/v2/other", session) == "after")
        #expect(registry.journal.map { $0.contractAnswer?.description } == [nil, "getPet 200 example dog", nil])
        #expect(registry.journal[1].description.hasPrefix("GET https://petshop.example/v2/pets/8 -> openapi getPet"))
        // Outside the base path, the contract has nothing, and says so in the report.
        let error = await #expect(throws: RequestMockerError.self) { try await Self.text("/pets/8", session) }
        #expect(
            "\(error.map(String.init(describing:)) ?? "")".contains(
                "the contract petshop.json has no path for GET /pets/8"))
    }

    @Test("another base path, given when registering, replaces the contract's")
    func basePath() async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract(), basePath: "/")
        #expect(try await Self.text("/pets/8", registry.makeSession()) == Self.dog)
    }

    @Test("dynamic bodies: the same request gets the same bytes, another request others, each inside the schema")
    func dynamicBodies() async throws {
        let registry = MockRegistry()
        let contract = try Self.contract()
        registry.register(contract)
        let session = registry.makeSession()
        let dynamic = ["Prefer": "dynamic=true"]
        let first = try await Self.text("/v2/pets", session, headers: dynamic)
        #expect(try await Self.text("/v2/pets", session, headers: dynamic) == first)
        let other = try await Self.text("/v2/pets?limit=2", session, headers: dynamic)
        #expect(other != first)
        #expect(try await Self.text("/v2/pets?__dynamic=true", session) == first)
        let how = registry.journal.compactMap { $0.contractAnswer?.how }
        #expect(how.count == 4 && how.allSatisfy { $0.hasPrefix("dynamic ") })
        #expect(how[0] == how[1] && how[0] != how[2] && how[0] == how[3])
        let schema = try contract.schema(at: "#/paths/~1pets/get/responses/200/content/application~1json/schema")
        for body in [first, other] {
            #expect(
                SchemaValidator.violations(
                    of: try JSONValue(parsing: Data(body.utf8)), against: schema, direction: .response) == [])
        }
        // A contract registered as dynamic draws every generated body from its seed.
        let seeded = MockRegistry()
        seeded.register(contract, generation: .dynamic(seed: 1))
        let fromSeed = try await Self.text("/v2/pets", seeded.makeSession())
        #expect(fromSeed != first)
        #expect(try await Self.text("/v2/pets", seeded.makeSession()) == fromSeed)
    }

    @Test("a body past the generator's bounds is a 500 problem naming the schema")
    func tooComplex() async throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(
            "huge.json",
            #"{"openapi": "3.1.0", "info": {"title": "Huge", "version": "1"}, "paths": {"/grid": {"get": {"#
                + #""responses": {"200": {"description": "A grid", "content": {"application/json": {"schema": "#
                + #"{"type": "array", "minItems": 60, "items": {"type": "array", "minItems": 60, "#
                + #""items": {"type": "integer"}}}}}}}}}}}"#)
        let registry = MockRegistry()
        registry.register(try OpenAPIContract(contentsOf: url))
        let (data, response) = try await registry.makeSession().data(from: URL(string: "http://huge.test/grid")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 500)
        let problem = try JSONValue(parsing: data)
        // Where the values ran out: the innermost schema.
        #expect(problem["pointer"] == "#/paths/~1grid/get/responses/200/content/application~1json/schema/items/items")
        let detail =
            "GET /grid 200 application/json: schema too complex: a body would have more than 2500 values; "
            + "give the response an example"
        #expect(problem["detail"] == .string(detail))
    }

    @Test("a declared response as a mock: any filter answers with the contract's status and example")
    func declaredResponseAsAMock() async throws {
        let contract = try Self.contract()
        let registry = MockRegistry()
        registry.register(
            .get("/v2/pets/7"), respond: .openAPI(contract, operationID: "getPet", status: 404, example: "notFound"))
        registry.register(.get("/other"), respond: .openAPI(contract, operationID: "GET /health"))
        registry.register(.get("/missing"), respond: .openAPI(contract, operationID: "getPets"))
        registry.register(.get("/teapot"), respond: .openAPI(contract, operationID: "getPet", status: 418))
        registry.register(.get("/bird"), respond: .openAPI(contract, operationID: "getPet", example: "bird"))
        let example = Case("GET", "/v2/pets/7", [:], 404, Self.json("getPet 404 example notFound"), Self.notFound)
        let base = try #require(URL(string: "https://petshop.example"))
        #expect(try await Self.receive(example, from: base, in: registry.makeSession()) == example.expected)
        #expect(try await Self.text("/other", registry.makeSession()) == "ok")
        for (path, reason) in [
            (
                "/missing",
                #"petshop.json has no operation "getPets"; it has listPets, createPet, myPets, getPet, "#
                    + "deletePet, GET /health, legacy"
            ),
            ("/teapot", "getPet declares no 418 response and no default; it declares 200, 404"),
            ("/bird", #"getPet 2xx has no example named "bird"; it has dog, cat"#),
        ] {
            let error = await #expect(throws: RequestMockerError.self) {
                try await Self.text(path, registry.makeSession())
            }
            #expect("\(error.map(String.init(describing:)) ?? "")".contains(reason))
        }
    }

    @Test("the admin API's openapi stubs switch an operation to a documented response, checked against the contract")
    func adminStubs() async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract())
        var configuration = MockServer.Configuration()
        configuration.admin = MockServer.Admin()
        try await withServer(registry, configuration: configuration) { (_, base) async throws -> Void in
            let send = { (path: String, method: String, body: String?) async throws -> (Int, String) in
                try await Self.send(base, path, method: method, body: body)
            }
            #expect(try await send("/v2/pets/7", "GET", nil) == (200, Self.dog))
            let stub =
                #"{"request": {"method": "GET", "path": "/v2/pets/<id>"}, "response": {"openapi": "#
                + #"{"operation": "getPet", "status": 404, "example": "notFound"}}}"#
            #expect(try await send("/__admin/stubs", "POST", stub).0 == 201)
            #expect(try await send("/v2/pets/7", "GET", nil) == (404, Self.notFound))
            let wrong = #"{"request": {}, "response": {"openapi": {"operation": "getPet", "example": "bird"}}}"#
            let refused = try await send("/__admin/stubs", "POST", wrong)
            #expect(refused.0 == 400)
            #expect(
                try JSONValue(parsing: Data(refused.1.utf8))["error"]
                    == .string(
                        #"the stub is not valid: at response.openapi: getPet 2xx has no example named "bird"; "#
                            + "it has dog, cat"))
        }
        // Without a contract, a stub can't say "openapi".
        #expect(throws: Stub.Invalid.self) {
            try Stub(json: ["request": [:], "response": ["openapi": ["operation": "getPet"]]])
        }
    }

    @Test("circular schemas across files, and a body past the bound, answer alike through both transports")
    func circularAndBoundedThroughBothTransports() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "schemas/person.json",
            ##"{"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "##
                + ##""team": {"$ref": "team.json"}}}"##)
        try folder.write(
            "schemas/team.json",
            ##"{"type": "object", "required": ["lead"], "properties": {"title": {"type": "string"}, "##
                + ##""lead": {"$ref": "person.json"}, "##
                + ##""members": {"type": "array", "items": {"$ref": "person.json"}}}}"##)
        let url = try folder.write(
            "api.json",
            ##"{"openapi": "3.1.0", "info": {"title": "Org", "version": "1"}, "paths": {"##
                + ##""/people/{id}": {"get": {"operationId": "getPerson", "responses": {"200": {"##
                + ##""description": "A person", "##
                + ##""content": {"application/json": {"schema": {"$ref": "schemas/person.json"}}}}}}}, "##
                + ##""/grid": {"get": {"operationId": "grid", "responses": {"200": {"description": "A grid", "##
                + ##""content": {"application/json": {"schema": {"type": "array", "minItems": 60, "items": {"##
                + ##""type": "array", "minItems": 60, "items": {"type": "integer"}}}}}}}}}}}"##)
        let registry = MockRegistry()
        registry.register(try OpenAPIContract(contentsOf: url))
        // The team's lead is required, so a person's team ends at its shortest: a lead without one.
        let person = #"{"name":"string","team":{"title":"string","lead":{"name":"string"},"members":[]}}"#
        let detail =
            "grid 200 application/json: schema too complex: a body would have more than 2500 values; "
            + "give the response an example"
        let cases = [
            Case("GET", "/people/1", [:], 200, Self.json("getPerson 200 generated"), person),
            Case(
                "GET", "/grid", [:], 500, Self.problem("grid 500 problem"),
                Self.problemBody(
                    500, "Internal Server Error", detail,
                    ##","pointer":"#/paths/~1grid/get/responses/200/content/application~1json/schema/items/items""##)),
        ]
        for example in cases {
            try await Self.expectBothTransports(answer: example, from: registry, at: "https://org.example")
        }
    }

    static func send(_ base: URL, _ path: String, method: String, body: String?) async throws -> (Int, String) {
        var request = URLRequest(url: URL(string: base.absoluteString + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (data, response) = try await plainSession().data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
    }

    /// Sends `example` through `MockURLProtocol` (to `host`) and through a server on `registry`,
    /// and expects each to answer as the example says.
    static func expectBothTransports(
        answer example: Case, from registry: MockRegistry, at host: String = "https://petshop.example",
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let viaProtocol = try await receive(
            example, from: try #require(URL(string: host)), in: registry.makeSession())
        #expect(viaProtocol == example.expected, sourceLocation: sourceLocation)
        let viaServer = try await withServer(registry) { _, base in
            try await receive(example, from: base, in: plainSession())
        }
        #expect(viaServer == example.expected, sourceLocation: sourceLocation)
    }

    static func receive(_ example: Case, from base: URL, in session: URLSession) async throws -> Received {
        var request = URLRequest(url: URL(string: base.absoluteString + example.path)!)
        request.httpMethod = example.method
        request.httpBody = example.sent.map { Data($0.utf8) }
        for (name, value) in example.headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var headers: [String: String] = [:]
        for name in shownHeaders { headers[name] = http.value(forHTTPHeaderField: name) }
        return Received(status: http.statusCode, headers: headers, body: String(decoding: data, as: UTF8.self))
    }
}
