import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer
import RequestMockerTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a remembering contract holds, given and read back: a seed in Swift, a replacement, the
/// reset to the seed, the admin API and its client, and a singleton's first patch.
@Suite("A contract's resources, seeded and replaced", .timeLimit(.minutes(3)), .hangGuard)
struct ContractStateDataTests {
    static let seed: JSONValue = [
        "/pets": [["id": 1, "name": "Rex", "kind": "dog"], ["id": 7, "name": "Tom", "kind": "cat"]],
        "/users/00000000-0000-4000-8000-000000000001/settings": ["theme": "dark"],
        "/users/00000000-0000-4000-8000-000000000001/posts": [["post_id": "p1", "title": "Hi"]],
    ]

    static func request(_ method: String, _ path: String, _ body: String? = nil, base: String) throws -> URLRequest {
        var request = URLRequest(url: try #require(URL(string: base + path)))
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue(
                method == "PATCH" ? "application/merge-patch+json" : "application/json",
                forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// The status and the body, parsed.
    static func send(_ request: URLRequest, _ session: URLSession) async throws -> (Int, JSONValue?) {
        let (data, response) = try await session.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try? JSONValue(parsing: data))
    }

    @Test("a seed given in Swift is what the resources start from and what a reset puts back")
    func seedInSwift() async throws {
        let registry = MockRegistry()
        try registry.register(try OpenAPIContract(contentsOf: ContractStateTests.shop), resources: Self.seed)
        #expect(registry.resources == Self.seed)
        let session = registry.makeSession()
        let base = "https://shop.example/v1"
        let list = try await Self.send(try Self.request("GET", "/pets", base: base), session)
        #expect(list.0 == 200)
        #expect(list.1 == Self.seed["/pets"])
        // One past the largest id the seed holds.
        let created = try await Self.send(try Self.request("POST", "/pets", #"{"name": "Kim"}"#, base: base), session)
        #expect(created.0 == 201)
        #expect(created.1 == ["id": 8, "name": "Kim"])
        let settings = try await Self.send(
            try Self.request("GET", "/users/00000000-0000-4000-8000-000000000001/settings", base: base), session)
        #expect(settings.1 == ["theme": "dark"])
        // A collection below an item, seeded for one parent: the list's wrapper counts its items.
        let posts = try await Self.send(
            try Self.request("GET", "/users/00000000-0000-4000-8000-000000000001/posts", base: base), session)
        #expect(posts.1 == ["data": [["post_id": "p1", "title": "Hi"]], "meta": ["total": 1]])
        // A replacement holds until the reset, which brings the seed back.
        try registry.replaceResources(with: ["/pets": [["id": 3, "name": "Max"]]])
        #expect(registry.resources == ["/pets": [["id": 3, "name": "Max"]]])
        let next = try await Self.send(try Self.request("POST", "/pets", #"{"name": "Ada"}"#, base: base), session)
        #expect(next.1 == ["id": 4, "name": "Ada"])
        registry.resetResources()
        #expect(registry.resources == Self.seed)
    }

    static let refusals: [(JSONValue, String)] = [
        (
            ["/owners": []],
            "resources the seed: at #/~1owners: \"/owners\" is no resource of the contract; the resources are "
                + "/pets, /users, /users/{userId}/posts, /api/parts/, /tags, /users/{userId}/settings (with parent "
                + "ids filled in, without the base path)"
        ),
        (["/pets": [["name": "Rex"]]], "resources the seed: at #/~1pets/0: the item has no \"id\", its id; add one"),
        (
            ["/pets": [["id": "one", "name": "Rex"]]],
            "resources the seed: at #/~1pets/0/id: the id is a string; /pets's ids are integers"
        ),
        (
            ["/pets": [["id": 1, "name": "A"], ["id": 1, "name": "B"]]],
            "resources the seed: at #/~1pets/1/id: the id 1 is given twice in /pets"
        ),
        (
            ["/pets": [["id": 1, "name": 5]]],
            "resources the seed: at #/~1pets/0/name: the item breaks the contract's item schema: expected string, "
                + "got 5; make it fit"
        ),
        (
            ["/pets": ["id": 1]],
            "resources the seed: at #/~1pets: /pets is a collection: give its items as an array"
        ),
        (
            ["/users/u1/settings": ["theme": "blue"]],
            "resources the seed: at #/~1users~1u1~1settings/theme: the value breaks the contract's schema: "
                + #"expected one of "light", "dark"; got "blue"; make it fit"#
        ),
        (
            ["/pets": [], "/pets/": []],
            "resources the seed: at #/~1pets~1: /pets is given twice (a trailing slash doesn't count)"
        ),
        (
            [],
            "resources the seed: at #: the resources are an object keyed by paths: {\"/pets\": [{...}], "
                + "\"/users/1/settings\": {...}}"
        ),
    ]

    @Test("a seed that doesn't fit the contract is refused with where and why, and nothing is registered")
    func refusedSeeds() throws {
        let contract = try OpenAPIContract(contentsOf: ContractStateTests.shop)
        for (seed, expected) in Self.refusals {
            let registry = MockRegistry()
            #expect {
                try registry.register(contract, resources: seed)
            } throws: { error in
                "\(error)" == expected
            }
            #expect(registry.contracts.isEmpty)
        }
        // Without a remembering contract there is nothing to replace.
        let stateless = MockRegistry()
        stateless.register(contract)
        #expect {
            try stateless.replaceResources(with: ["/pets": []])
        } throws: { error in
            "\(error)"
                == "resources the resources: at #: no contract remembers; register one with state: .resources "
                + "(serve: --stateful)"
        }
    }

    @Test("a singleton's patch before its first write merges into its read's example, through both transports")
    func singletonPatchBeforeAWrite() async throws {
        let contract = try OpenAPIContract(contentsOf: ContractStateTests.shop)
        func run(_ session: URLSession, base: String) async throws -> [JSONValue?] {
            let path = "/v1/users/00000000-0000-4000-8000-000000000002/settings"
            return [
                try await Self.send(try Self.request("GET", path, base: base), session).1,
                try await Self.send(try Self.request("PATCH", path, #"{"notify": true}"#, base: base), session).1,
                try await Self.send(try Self.request("GET", path, base: base), session).1,
            ]
        }
        let viaProtocol = MockRegistry()
        viaProtocol.register(contract, state: .resources)
        let protocolAnswers = try await run(viaProtocol.makeSession(), base: "https://shop.example")
        let viaServer = MockRegistry()
        viaServer.register(contract, state: .resources)
        let serverAnswers = try await withServer(viaServer) { _, base in
            try await run(plainSession(), base: base.absoluteString)
        }
        #expect(protocolAnswers == serverAnswers)
        #expect(
            protocolAnswers == [
                ["theme": "light", "notify": false], ["theme": "light", "notify": true],
                ["theme": "light", "notify": true],
            ])
    }

    @Test("a create without a declared body, a read answered as an array of one, a delete without a 2xx")
    func classicPetstoreShapes() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "pets.json",
            ##"""
            {"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"}, "paths": {
              "/pets": {"post": {"operationId": "createPets", "responses": {"201": {"description": "Null response"}}}},
              "/pets/{petId}": {
                "get": {"operationId": "showPetById",
                  "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}],
                  "responses": {"200": {"description": "ok", "content": {"application/json": {
                    "schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}},
                "delete": {"operationId": "deletePet",
                  "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "string"}}],
                  "responses": {"404": {"description": "Pet not found"}}}}},
             "components": {"schemas": {"Pet": {"type": "object", "required": ["id", "name"],
               "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}
            """##)
        let registry = MockRegistry()
        registry.register(try OpenAPIContract(contentsOf: file), state: .resources)
        let session = registry.makeSession()
        let base = "https://pets.example"
        var answers: [String] = []
        for (method, path) in [("POST", "/pets"), ("GET", "/pets/1"), ("DELETE", "/pets/1"), ("GET", "/pets/1")] {
            let (data, response) = try await session.data(for: try Self.request(method, path, base: base))
            let http = try #require(response as? HTTPURLResponse)
            answers.append(
                "\(method) \(path) -> \(http.statusCode) \(http.value(forHTTPHeaderField: "Location") ?? "-") "
                    + String(decoding: data, as: UTF8.self))
        }
        #expect(
            answers == [
                "POST /pets -> 201 /pets/1 ", #"GET /pets/1 -> 200 - [{"id":1,"name":"string"}]"#,
                "DELETE /pets/1 -> 204 - ",
                // The read declares no 404: a problem says so.
                #"GET /pets/1 -> 404 - {"detail":"/pets holds no item with id \"1\"","status":404,"#
                    + #""title":"Not Found","type":"about:blank"}"#,
            ])
    }

    @Test("the admin API and MockServerClient read, replace and reset the resources")
    func adminAPI() async throws {
        let registry = MockRegistry()
        try registry.register(try OpenAPIContract(contentsOf: ContractStateTests.shop), resources: Self.seed)
        var configuration = MockServer.Configuration()
        configuration.admin = MockServer.Admin()
        try await withServer(registry, configuration: configuration) { _, base in
            let client = MockServerClient(baseURL: base)
            #expect(try await client.resources() == Self.seed)
            try await client.replaceResources(with: ["/pets": [["id": 2, "name": "Kim"]]])
            let list = try await Self.send(
                try Self.request("GET", "/v1/pets", base: base.absoluteString), plainSession())
            #expect(list.1 == [["id": 2, "name": "Kim"]])
            #expect(registry.resources == ["/pets": [["id": 2, "name": "Kim"]]])
            do {
                try await client.replaceResources(with: ["/pets": [["id": 2]]])
                Issue.record("a pet without its name was taken")
            } catch {
                #expect(
                    "\(error)"
                        == "the server refused PUT /__admin/resources with 400: resources PUT /__admin/resources: "
                        + "at #/~1pets/0: the item breaks the contract's item schema: missing the required property "
                        + "\"name\"; make it fit")
            }
            #expect(try await client.resources() == ["/pets": [["id": 2, "name": "Kim"]]])
            try await client.reset()
            #expect(try await client.resources() == Self.seed)
        }
    }
}
