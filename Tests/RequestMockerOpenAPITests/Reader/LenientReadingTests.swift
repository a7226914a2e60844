import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Contracts that break the specification where a vendor's tooling doesn't mind: each is read,
/// and each liberty is one notice that says where, what was wrong, and what was assumed.
@Suite("Reading a contract leniently", .timeLimit(.minutes(3)), .hangGuard)
struct LenientReadingTests {
    /// The notices of the contract `text` (written as `openapi.json`, or `name`, beside `others`).
    static func notices(
        _ text: String, named name: String = "openapi.json", with others: [String: String] = [:]
    ) throws -> (OpenAPIContract, [String]) {
        let folder = try TemporaryFolder()
        for (name, contents) in others { try folder.write(name, contents) }
        let contract = try OpenAPIContract(contentsOf: try folder.write(name, text))
        return (contract, contract.notices)
    }

    @Test("a $ref where a map of properties belongs, in another YAML file, is followed as resolvers do")
    func referenceForProperties() async throws {
        let (contract, notices) = try Self.notices(
            """
            openapi: 3.1.0
            paths:
              /droplets:
                get:
                  responses:
                    '200':
                      description: A droplet
                      content:
                        application/json:
                          schema:
                            type: object
                            required: [droplet_ids]
                            properties:
                              $ref: 'attributes.yml#/load_balancer_droplet_ids'
            """, named: "openapi.yaml",
            with: [
                "attributes.yml":
                    "load_balancer_droplet_ids:\n  droplet_ids:\n    type: array\n    items: {type: integer}\n"
            ])
        #expect(
            notices == [
                "openapi.yaml:14:19: #/paths/~1droplets/get/responses/200/content/application~1json/schema/properties: "
                    + "a $ref stands where the specification wants the map or list itself — read as what the $ref "
                    + "names, as common $ref resolvers do"
            ])
        let registry = MockRegistry()
        registry.register(contract)
        let (data, _) = try await registry.makeSession().data(from: URL(string: "https://api.example/droplets")!)
        #expect(String(decoding: data, as: UTF8.self) == #"{"droplet_ids":[0]}"#)
    }

    @Test("shapes a vendor gets wrong are read as they can be, each noted once with its places")
    func shapes() async throws {
        let (contract, notices) = try Self.notices(
            #"""
            {"openapi": 3.1, "paths": {
              "pets": {"get": {"responses": {"200": {"description": "ok"}}}},
              "/a": {"get": "x", "post": {"responses": []}},
              "/b": 7,
              "/c": {"get": {"parameters": [{"in": "query"}, {"name": "q", "in": "body"}], "security": [{"k": []}],
                "responses": {"200": {"description": "ok", "content": {"application/json": {"schema": "string"}}}}}}},
             "components": {"securitySchemes": {"k": {"type": "apiKey"}}}}
            """#)
        #expect(contract.version == "3.1")
        #expect(
            contract.operations.map { "\($0.method) \($0.path) \($0.statuses)" } == [
                "GET /pets [\"200\"]", "POST /a []", "GET /c [\"200\"]",
            ])
        #expect(
            notices == [
                #"openapi.json:1:13: #/openapi: "openapi" is the number 3.1; read as the version "3.1""#,
                #"openapi.json:2:11: #/paths/pets: the path "pets" doesn't start with "/" — a path without its "#
                    + #"leading "/" is read with one"#,
                "openapi.json:3:17: #/paths/~1a/get: the operation is a string — a path item or an operation that "
                    + "isn't an object is left out (also at openapi.json:4:9: #/paths/~1b)",
                #"openapi.json:3:44: #/paths/~1a/post/responses: "responses" is an array, not a map — a map or "#
                    + "list that is something else is read as empty",
                #"openapi.json:7:42: #/components/securitySchemes/k: the apiKey scheme "k" lacks "name" or "in" "#
                    + "(header, query or cookie) — a security scheme that doesn't say what to check is not checked",
                "openapi.json:6:91: #/paths/~1c/get/responses/200/content/application~1json/schema: a schema is an "
                    + "object (or true or false); this is a string — a schema that is neither an object nor a "
                    + "Boolean allows any value",
                #"openapi.json:5:33: #/paths/~1c/get/parameters/0: the parameter has no "name" — a parameter "#
                    + #"without a name or "in" is left out (also at openapi.json:5:50: #/paths/~1c/get/parameters/1)"#,
            ])
        // The operation whose security names a scheme too loose to check answers without credentials.
        let registry = MockRegistry()
        registry.register(contract)
        let (data, response) = try await registry.makeSession().data(from: URL(string: "https://api.example/c")!)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "{}")
    }
}
