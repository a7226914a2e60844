import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// A contract's resources answered with state (issue 37, not yet public): a create/read/list/
/// update/delete flow over the shop written for the resource tests gives the same transcript
/// through `MockURLProtocol` and through `MockServer`, each on a registry of its own, and every
/// stored answer passes its response schema.
@Suite("A contract's resources, answered with state", .timeLimit(.minutes(3)), .hangGuard)
struct ContractStateTests {
    static let shop = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // RequestMockerServerTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("RequestMockerOpenAPITests/Fixtures/OpenAPI/resources/shop.json")

    struct Step {
        let method: String
        let path: String
        var body: String?
        var headers: [String: String] = [:]
    }

    /// The flow, each step's request; a `{user}` in a path is the id the first user got.
    static let flow: [Step] = [
        Step(method: "GET", path: "/v1/pets"),
        Step(method: "POST", path: "/v1/pets", body: #"{"name": "Rex", "kind": "dog", "password": "s3cret"}"#),
        Step(method: "POST", path: "/v1/pets", body: #"{"name": "Tom", "kind": "cat"}"#),
        Step(method: "GET", path: "/v1/pets"),
        Step(method: "GET", path: "/v1/pets?kind=cat"),
        Step(method: "GET", path: "/v1/pets?limit=1&offset=1"),
        Step(method: "GET", path: "/v1/pets/1"),
        Step(
            method: "PATCH", path: "/v1/pets/1", body: #"{"tag": "good"}"#,
            headers: ["Content-Type": "application/merge-patch+json"]),
        Step(
            method: "PATCH", path: "/v1/pets/1",
            body: #"[{"op": "replace", "path": "/name", "value": "Rexy"}, {"op": "remove", "path": "/tag"}]"#,
            headers: ["Content-Type": "application/json-patch+json"]),
        Step(
            method: "PATCH", path: "/v1/pets/1", body: #"[{"op": "test", "path": "/name", "value": "Rex"}]"#,
            headers: ["Content-Type": "application/json-patch+json"]),
        Step(method: "PUT", path: "/v1/pets/2", body: #"{"name": "Tommy"}"#),
        Step(
            method: "PATCH", path: "/v1/pets/2", body: #"{"name": null}"#,
            headers: ["Content-Type": "application/merge-patch+json"]),
        Step(method: "DELETE", path: "/v1/pets/1"),
        Step(method: "GET", path: "/v1/pets/1"),
        Step(method: "GET", path: "/v1/pets/2", headers: ["Prefer": "code=404"]),
        Step(method: "POST", path: "/v1/pets", body: #"{"name": "Max"}"#),
        Step(method: "GET", path: "/v1/pets"),
        Step(method: "POST", path: "/v1/users", body: #"{"name": "Ada"}"#),
        Step(method: "GET", path: "/v1/users/00000000-0000-4000-8000-000000000001"),
        Step(method: "GET", path: "/v1/users"),
        Step(method: "POST", path: "/v1/users/00000000-0000-4000-8000-000000000001/posts", body: #"{"title": "Hi"}"#),
        Step(method: "GET", path: "/v1/users/00000000-0000-4000-8000-000000000001/posts"),
        Step(method: "GET", path: "/v1/users/00000000-0000-4000-8000-000000000002/posts"),
        Step(
            method: "PUT", path: "/v1/users/00000000-0000-4000-8000-000000000001/settings",
            body: #"{"theme": "dark"}"#),
        Step(method: "GET", path: "/v1/users/00000000-0000-4000-8000-000000000001/settings"),
    ]

    /// Each step's answer as one line: status, `RequestMocker-OpenAPI`, `Location` where sent, body.
    static func transcript(base: URL, session: URLSession) async throws -> [String] {
        var lines: [String] = []
        for step in flow {
            var request = URLRequest(url: try #require(URL(string: base.absoluteString + step.path)))
            request.httpMethod = step.method
            if let body = step.body {
                request.httpBody = Data(body.utf8)
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            }
            for (name, value) in step.headers { request.setValue(value, forHTTPHeaderField: name) }
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            let location = http.value(forHTTPHeaderField: "Location").map { " Location: \($0)" } ?? ""
            lines.append(
                "\(step.method) \(step.path) -> \(http.statusCode) "
                    + "\(http.value(forHTTPHeaderField: "RequestMocker-OpenAPI") ?? "-")\(location) "
                    + String(decoding: data, as: UTF8.self))
        }
        return lines
    }

    static func registry() throws -> MockRegistry {
        let registry = MockRegistry()
        registry.register(
            ContractSource(
                contract: try OpenAPIContract(contentsOf: shop), validation: .strict, generation: .static,
                basePath: nil, remembering: true))
        return registry
    }

    @Test func aFlowGivesTheSameTranscriptThroughBothTransports() async throws {
        let viaProtocol = try await Self.transcript(
            base: try #require(URL(string: "https://shop.example")), session: try Self.registry().makeSession())
        let viaServer = try await withServer(try Self.registry()) { _, base in
            try await Self.transcript(base: base, session: plainSession())
        }
        #expect(viaServer == viaProtocol)
        #expect(viaProtocol == Self.expected)
        // Every stored answer passes its response schema, by our validator and by jsonschema.
        let contract = try OpenAPIContract(contentsOf: Self.shop)
        var bodies: [String: JSONValue] = [:]
        var pointers: [String: String] = [:]
        for (number, line) in viaProtocol.enumerated() {
            let words = line.split(separator: " ")
            guard words.count > 7, words[6] == "stored", let status = Int(words[5]),
                let index = contract.operations.firstIndex(where: { $0.description == words[4] }),
                let json = line.firstIndex(where: { $0 == "{" || $0 == "[" }),
                let schema = contract.responseSchema(of: index, status: status, mediaType: "application/json")
            else { continue }
            let body = try JSONValue(parsing: Data(line[json...].utf8))
            #expect(SchemaValidator.violations(of: body, against: schema, direction: .response) == [], "\(line)")
            bodies["step \(number)"] = body
            pointers["step \(number)"] = schema.pointer
        }
        #expect(bodies.count == 20)
        let folder = try TemporaryFolder()
        let values = try folder.write("bodies.json", try JSONValue.object(bodies).serialized())
        let failed = try await RealContracts.failingJSONSchema(
            values: values, in: Self.shop, pointer: { pointers[$0] ?? "" })
        #expect(failed == [])
    }

    static let expected = [
        "GET /v1/pets -> 200 listPets 200 stored []",
        #"POST /v1/pets -> 201 createPet 201 stored Location: /v1/pets/1 {"name":"Rex","kind":"dog","id":1}"#,
        #"POST /v1/pets -> 201 createPet 201 stored Location: /v1/pets/2 {"name":"Tom","kind":"cat","id":2}"#,
        #"GET /v1/pets -> 200 listPets 200 stored "#
            + #"[{"name":"Rex","kind":"dog","id":1},{"name":"Tom","kind":"cat","id":2}]"#,
        #"GET /v1/pets?kind=cat -> 200 listPets 200 stored [{"name":"Tom","kind":"cat","id":2}]"#,
        #"GET /v1/pets?limit=1&offset=1 -> 200 listPets 200 stored [{"name":"Tom","kind":"cat","id":2}]"#,
        #"GET /v1/pets/1 -> 200 getPet 200 stored {"name":"Rex","kind":"dog","id":1}"#,
        #"PATCH /v1/pets/1 -> 200 updatePet 200 stored {"name":"Rex","kind":"dog","id":1,"tag":"good"}"#,
        #"PATCH /v1/pets/1 -> 200 updatePet 200 stored {"name":"Rexy","kind":"dog","id":1}"#,
        #"PATCH /v1/pets/1 -> 422 updatePet 422 problem {"detail":"the JSON Patch can't be applied: operation "#
            + #"0: the test of /name failed; nothing changed","status":422,"title":"Unprocessable "#
            + #"Content","type":"about:blank"}"#,
        #"PUT /v1/pets/2 -> 200 replacePet 200 stored {"name":"Tommy","id":2}"#,
        #"PATCH /v1/pets/2 -> 422 updatePet 422 problem {"detail":"the patched item breaks the contract; "#
            + #"nothing changed","errors":[{"in":"body","keyword":"required","message":"missing the required "#
            + #"property \"name\"","pointer":""}],"status":422,"title":"Unprocessable "#
            + #"Content","type":"about:blank"}"#,
        "DELETE /v1/pets/1 -> 204 deletePet 204 empty ",
        #"GET /v1/pets/1 -> 404 getPet 404 generated {"message":"string"}"#,
        #"GET /v1/pets/2 -> 404 getPet 404 generated {"message":"string"}"#,
        #"POST /v1/pets -> 201 createPet 201 stored Location: /v1/pets/3 {"name":"Max","id":3}"#,
        #"GET /v1/pets -> 200 listPets 200 stored [{"name":"Tommy","id":2},{"name":"Max","id":3}]"#,
        #"POST /v1/users -> 201 createUser 201 stored Location: "#
            + #"/v1/users/00000000-0000-4000-8000-000000000001 "#
            + #"{"name":"Ada","id":"00000000-0000-4000-8000-000000000001","created_at":"2026-01-01T00:00:00Z"}"#,
        #"GET /v1/users/00000000-0000-4000-8000-000000000001 -> 200 getUser 200 stored "#
            + #"{"user":{"name":"Ada","id":"00000000-0000-4000-8000-000000000001","created_at":"2026-01-01T00:00:00"#
            + #"Z"}}"#,
        #"GET /v1/users -> 200 listUsers 200 stored "#
            + #"{"count":1,"next":"string","previous":"string","results":[{"name":"Ada","id":"00000000-0000-4000-80"#
            + #"00-000000000001","created_at":"2026-01-01T00:00:00Z"}]}"#,
        #"POST /v1/users/00000000-0000-4000-8000-000000000001/posts -> 201 createPost 201 stored Location: "#
            + #"/v1/users/00000000-0000-4000-8000-000000000001/posts/p12 {"title":"Hi","post_id":"p12"}"#,
        #"GET /v1/users/00000000-0000-4000-8000-000000000001/posts -> 200 listPosts 200 stored "#
            + #"{"data":[{"title":"Hi","post_id":"p12"}],"meta":{"total":1}}"#,
        #"GET /v1/users/00000000-0000-4000-8000-000000000002/posts -> 200 listPosts 200 stored "#
            + #"{"data":[],"meta":{"total":0}}"#,
        #"PUT /v1/users/00000000-0000-4000-8000-000000000001/settings -> 200 putSettings 200 stored {"theme":"dark"}"#,
        #"GET /v1/users/00000000-0000-4000-8000-000000000001/settings -> 200 getSettings 200 stored {"theme":"dark"}"#,
    ]

    @Test(
        "a collection starts with its examples' items, each id once, the read's example winning; reset puts them back")
    func seed() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "books.json",
            ##"""
            {"openapi": "3.1.0", "paths": {
              "/books": {
                "get": {"responses": {"200": {"description": "ok", "content": {"application/json": {
                  "schema": {"type": "object", "properties": {
                    "books": {"type": "array", "items": {"$ref": "#/components/schemas/Book"}},
                    "total": {"type": "integer"}}},
                  "example": {"books": [{"id": 1, "title": "Dune"}, {"id": 2, "title": "Emma"}], "total": 2}}}}}},
                "post": {
                  "requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Book"}}}},
                  "responses": {"201": {"description": "ok", "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/Book"}}}}}}},
              "/books/{bookId}": {"get": {
                "parameters": [{"name": "bookId", "in": "path", "required": true, "schema": {"type": "integer"}}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {
                  "schema": {"$ref": "#/components/schemas/Book"},
                  "examples": {"second": {"value": {"id": 2, "title": "Emma (the item's example)"}}}}}}}}}},
             "components": {"schemas": {"Book": {"type": "object", "required": ["id", "title"],
               "properties": {"id": {"type": "integer", "readOnly": true}, "title": {"type": "string"}}}}}}
            """##)
        func run(_ send: (URLRequest) async throws -> String, reset: () -> Void) async throws -> [String] {
            func request(_ method: String, _ path: String, _ body: String? = nil) throws -> URLRequest {
                var request = URLRequest(url: try #require(URL(string: "https://books.example" + path)))
                request.httpMethod = method
                request.httpBody = body.map { Data($0.utf8) }
                if body != nil { request.setValue("application/json", forHTTPHeaderField: "Content-Type") }
                return request
            }
            var lines = [try await send(try request("GET", "/books"))]
            lines.append(try await send(try request("POST", "/books", #"{"title": "Ulysses"}"#)))
            lines.append(try await send(try request("GET", "/books/2")))
            lines.append(try await send(try request("GET", "/books")))
            reset()
            lines.append(try await send(try request("GET", "/books")))
            return lines
        }
        func source() throws -> ContractSource {
            ContractSource(
                contract: try OpenAPIContract(contentsOf: file), validation: .strict, generation: .static,
                basePath: nil,
                remembering: true)
        }
        func text(_ result: (Data, URLResponse)) -> String {
            "\((result.1 as? HTTPURLResponse)?.statusCode ?? 0) " + String(decoding: result.0, as: UTF8.self)
        }
        let (first, second) = (try source(), try source())
        let (viaProtocol, viaServer) = (MockRegistry(), MockRegistry())
        viaProtocol.register(first)
        viaServer.register(second)
        let session = viaProtocol.makeSession()
        let protocolLines = try await run(
            { text(try await session.data(for: $0)) }, reset: { viaProtocol.resetResources() })
        let serverLines = try await withServer(viaServer) { _, base in
            try await run(
                { request in
                    var rebased = request
                    rebased.url = URL(string: base.absoluteString + (request.url?.path ?? ""))
                    return text(try await plainSession().data(for: rebased))
                }, reset: { viaServer.resetResources() })
        }
        #expect(protocolLines == serverLines)
        let seeded = #"200 {"books":[{"id":1,"title":"Dune"},{"id":2,"title":"Emma (the item's example)"}],"total":2}"#
        #expect(
            protocolLines == [
                seeded, #"201 {"title":"Ulysses","id":3}"#, #"200 {"id":2,"title":"Emma (the item's example)"}"#,
                #"200 {"books":[{"id":1,"title":"Dune"},{"id":2,"title":"Emma (the item's example)"},"#
                    + #"{"title":"Ulysses","id":3}],"total":3}"#,
                seeded,
            ])
    }

    static let example = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // RequestMockerServerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the package
        .appendingPathComponent("Examples/OpenAPI/petstore.json")

    /// A contract whose create takes a form and declares no body and no headers for its answer.
    static let formShop = """
        openapi: 3.1.0
        info: {title: Forms, version: "1"}
        paths:
          /things:
            post:
              requestBody:
                content:
                  application/x-www-form-urlencoded:
                    schema:
                      type: object
                      properties: {name: {type: string}, count: {type: integer}, public: {type: boolean}}
                  multipart/form-data:
                    schema:
                      type: object
                      properties: {name: {type: string}, count: {type: integer}, file: {type: string, format: binary}}
              responses:
                "200": {description: made}
          /things/{id}:
            get:
              parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
              responses:
                "200":
                  description: a thing
                  content:
                    application/json:
                      schema: {type: object, properties: {id: {type: integer}, name: {type: string}}}
        """

    /// Each answer of `requests` as `status Location body`, through the URL protocol and through a
    /// server, each on a registry of its own that remembers `contract`.
    static func answers(
        _ contract: OpenAPIContract,
        _ requests: [(method: String, path: String, headers: [String: String], body: String?)]
    ) async throws -> (viaProtocol: [String], viaServer: [String]) {
        func run(_ base: URL, _ session: URLSession) async throws -> [String] {
            var lines: [String] = []
            for step in requests {
                var request = URLRequest(url: try #require(URL(string: base.absoluteString + step.path)))
                request.httpMethod = step.method
                request.httpBody = step.body.map { Data($0.utf8) }
                for (name, value) in step.headers { request.setValue(value, forHTTPHeaderField: name) }
                let (data, response) = try await session.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                lines.append(
                    "\(http.statusCode) \(http.value(forHTTPHeaderField: "Location") ?? "-") "
                        + String(decoding: data, as: UTF8.self))
            }
            return lines
        }
        let viaProtocol = MockRegistry()
        viaProtocol.register(contract, state: .resources)
        let protocolLines = try await run(try #require(URL(string: "https://shop.example")), viaProtocol.makeSession())
        let viaServer = MockRegistry()
        viaServer.register(contract, state: .resources)
        let serverLines = try await withServer(viaServer) { _, base in try await run(base, plainSession()) }
        return (protocolLines, serverLines)
    }

    @Test("the example contract's walkthrough: both named examples seed a pet, and a create says where it is")
    func theExampleWalkthrough() async throws {
        let contract = try OpenAPIContract(contentsOf: Self.example)
        let (viaProtocol, viaServer) = try await Self.answers(
            contract,
            [
                ("GET", "/v1/pets", [:], nil),
                (
                    "POST", "/v1/pets", ["Content-Type": "application/json", "Authorization": "Bearer token"],
                    #"{"name": "Kim", "kind": "bird"}"#
                ),
                ("PATCH", "/v1/pets/3", ["Content-Type": "application/merge-patch+json"], #"{"name": "Kimmy"}"#),
                ("DELETE", "/v1/pets/1", [:], nil),
                ("GET", "/v1/pets/1", [:], nil),
                ("GET", "/v1/pets", [:], nil),
            ])
        #expect(
            viaProtocol == [
                #"200 - [{"id":1,"name":"Rex","kind":"dog"},{"id":2,"name":"Tom","kind":"cat"}]"#,
                #"201 /v1/pets/3 {"name":"Kim","kind":"bird","id":3}"#,
                #"200 - {"name":"Kimmy","kind":"bird","id":3}"#,
                "204 - ",
                #"404 - {"code":404,"message":"no such pet"}"#,
                #"200 - [{"id":2,"name":"Tom","kind":"cat"},{"name":"Kimmy","kind":"bird","id":3}]"#,
            ])
        #expect(viaServer == viaProtocol)
    }

    @Test("a form's and a multipart body's fields are stored as their schema reads them, files left out")
    func formsAreStoredAsTheirSchemaReadsThem() async throws {
        let folder = try TemporaryFolder()
        let contract = try OpenAPIContract(contentsOf: try folder.write("forms.yaml", Self.formShop))
        let multipart =
            "--B\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nMax\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"count\"\r\n\r\n7\r\n"
            + "--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.bin\"\r\n\r\nbytes\r\n--B--\r\n"
        let (viaProtocol, viaServer) = try await Self.answers(
            contract,
            [
                (
                    "POST", "/things", ["Content-Type": "application/x-www-form-urlencoded"],
                    "name=Rex+the+dog&count=3&public=true"
                ),
                ("GET", "/things/1", [:], nil),
                ("POST", "/things", ["Content-Type": "multipart/form-data; boundary=B"], multipart),
                ("GET", "/things/2", [:], nil),
            ])
        // The create declares a 200 with no body and no headers: Location is how the app finds it.
        #expect(
            viaProtocol == [
                "200 /things/1 ", #"200 - {"name":"Rex the dog","count":3,"public":true,"id":1}"#,
                "200 /things/2 ", #"200 - {"name":"Max","count":7,"id":2}"#,
            ])
        #expect(viaServer == viaProtocol)
    }

    @Test("the public switch: what a registry's resources hold is read and reset from the test, each registry its own")
    func publicAPI() async throws {
        let contract = try OpenAPIContract(contentsOf: Self.shop)
        let (registry, other) = (MockRegistry(), MockRegistry())
        registry.register(contract, state: .resources)
        other.register(contract, state: .resources)
        var createPet = URLRequest(url: try #require(URL(string: "https://shop.example/v1/pets")))
        createPet.httpMethod = "POST"
        createPet.setValue("application/json", forHTTPHeaderField: "Content-Type")
        createPet.httpBody = Data(#"{"name": "Rex", "password": "s3cret"}"#.utf8)
        let (_, response) = try await registry.makeSession().data(for: createPet)
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(registry.resources["/pets"]?[0]?["name"] == "Rex")
        #expect(registry.resources == ["/pets": [["name": "Rex", "password": "s3cret", "id": 1]]])
        #expect(other.resources == [:])
        // An id the client sends is kept, where the request's schema declares it; a taken one is a 409.
        createPet.httpBody = Data(#"{"id": 10, "name": "Max"}"#.utf8)
        for expected in [201, 409] {
            let (_, sent) = try await registry.makeSession().data(for: createPet)
            #expect((sent as? HTTPURLResponse)?.statusCode == expected)
        }
        #expect(registry.resources["/pets"]?[1] == ["id": 10, "name": "Max"])
        registry.resetResources()
        #expect(registry.resources == [:])
        // Without the switch, nothing is kept: the create answers as declared.
        let stateless = MockRegistry()
        stateless.register(contract)
        let (body, _) = try await stateless.makeSession().data(for: createPet)
        #expect(String(decoding: body, as: UTF8.self) == #"{"id":0,"name":"string","kind":"dog","tag":"string"}"#)
        #expect(stateless.resources == [:])
    }

    /// Its own thread: 200 resumes, each waiting on the process-wide queue every session's
    /// tasks share on Linux, would otherwise hold both threads of the cooperative pool.
    @Test("100 concurrent creates get 100 ids, and 100 concurrent patches of one item lose none", .ownThread)
    func concurrency() async throws {
        let registry = MockRegistry()
        registry.register(try OpenAPIContract(contentsOf: Self.shop), state: .resources)
        let session = registry.makeSession()
        func request(
            _ method: String, _ path: String, _ body: String, type: String = "application/json"
        ) throws
            -> URLRequest
        {
            var request = URLRequest(url: try #require(URL(string: "https://shop.example/v1" + path)))
            request.httpMethod = method
            request.setValue(type, forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
            return request
        }
        let creates = try (0..<100).map { try request("POST", "/pets", #"{"name": "pet \#($0)"}"#) }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for create in creates {
                group.addTask { ((try await session.data(for: create)).1 as? HTTPURLResponse)?.statusCode ?? 0 }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 201, count: 100))
        guard case .array(let pets)? = registry.resources["/pets"] else {
            Issue.record("no pets were kept")
            return
        }
        #expect(Set(pets.compactMap { $0["id"]?.intValue }) == Set(1...100))
        let patches = try (0..<100).map {
            try request("PATCH", "/pets/1", #"{"k\#($0)": \#($0)}"#, type: "application/merge-patch+json")
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for patch in patches { group.addTask { _ = try await session.data(for: patch) } }
            try await group.waitForAll()
        }
        guard case .object(let first)? = registry.resources["/pets"]?[0] else {
            Issue.record("the first pet is gone")
            return
        }
        #expect(Set(first.keys) == Set(["id", "name"] + (0..<100).map { "k\($0)" }))
    }
}
