import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Drafting a contract from recordings (issue 38): the path templating rules, parameters,
/// credentials, body schemas, components, and a draft that our reader loads without a notice and
/// that passes `check` against the recordings it came from.
@Suite("Drafting a contract from recordings", .timeLimit(.minutes(3)), .hangGuard)
struct ContractDraftTests {
    static func exchange(
        _ target: String, headers: HTTPHeaders = [:], status: Int = 200,
        responseHeaders: HTTPHeaders = ["Content-Type": "application/json"], response: String = "{}"
    ) -> Interaction {
        DraftCorpus.exchange(
            target, headers: headers, status: status, responseHeaders: responseHeaders, response: response)
    }

    static func exchange(
        _ method: String, _ target: String, headers: HTTPHeaders = [:], body: String? = nil,
        status: Int = 200, responseHeaders: HTTPHeaders = ["Content-Type": "application/json"],
        response: String = "{}"
    ) -> Interaction {
        DraftCorpus.exchange(
            method, target, headers: headers, body: body, status: status, responseHeaders: responseHeaders,
            response: response)
    }

    /// The draft of `exchanges`, as JSON.
    static func draft(_ exchanges: [Interaction], basePath: String? = nil) throws -> JSONValue {
        let draft = ContractDraft(basePath: basePath)
        for exchange in exchanges { draft.add(exchange) }
        return try JSONValue(parsing: Data(draft.document().jsonBytes))
    }

    /// The contract `bytes` read by our reader, from a file named `name`.
    static func load(_ bytes: Data, as name: String) throws -> OpenAPIContract {
        let folder = try TemporaryFolder()
        return try OpenAPIContract(contentsOf: try folder.write(name, String(decoding: bytes, as: UTF8.self)))
    }

    static func templates(_ document: JSONValue) -> [String] {
        guard case .object(let paths)? = document["paths"] else { return [] }
        return paths.keys.sorted()
    }

    static func pathParameters(_ document: JSONValue, _ template: String) -> [String: JSONValue] {
        var found: [String: JSONValue] = [:]
        guard case .array(let parameters)? = document["paths"]?[template]?["parameters"] else { return [:] }
        for parameter in parameters {
            if let name = parameter["name"]?.stringValue { found[name] = parameter["schema"] }
        }
        return found
    }

    @Test("a segment that is an id by its shape becomes a parameter named after its parent, typed by its values")
    func idsByShape() throws {
        let document = try Self.draft(
            [
                "/users/1", "/users/2", "/orders/0042", "/orders/7", "/sessions/5f1c2d3e4a5b6c7d",
                "/tokens/01ARZ3NDEKTSV4RRFFQ69G5FAV", "/line-items/550e8400-e29b-41d4-a716-446655440000",
                "/reports/daily/2026-11-28", "/2026-11-28/summary", "/42/stats", "/v1/users/7",
                "/api/v2/items/abcdefghijklmnopqrstu1", "/categories/7/products/9", "/a/1/2", "/b/1/2/3",
                "/articles/an-extremely-long-article-slug", "/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw/getMe",
                "/cart;jsessionid=1A2B3C/items", "/v1beta/models", "/v1beta/files", "/v1beta/tunedModels",
                "/admin/api/2024-01/products.json", "/admin/api/2024-01/orders.json",
                "/admin/api/2024-01/customers.json", "/café/menu",
            ].map { Self.exchange($0) })
        #expect(
            Self.templates(document) == [
                "/2026-11-28/summary", "/a/{aId}/{id}", "/admin/api/2024-01/customers.json",
                "/admin/api/2024-01/orders.json", "/admin/api/2024-01/products.json", "/api/v2/items/{itemId}",
                "/articles/an-extremely-long-article-slug", "/b/{bId}/{id}/{id2}", "/café/menu",
                "/categories/{categoryId}/products/{productId}", "/line-items/{lineItemId}", "/orders/{orderId}",
                "/reports/daily/{dailyId}", "/sessions/{sessionId}", "/tokens/{tokenId}", "/users/{userId}",
                "/v1/users/{userId}", "/v1beta/files", "/v1beta/models", "/v1beta/tunedModels", "/{id}/getMe",
                "/{id}/items", "/{id}/stats",
            ])
        #expect(Self.pathParameters(document, "/users/{userId}") == ["userId": ["type": "integer"]])
        #expect(Self.pathParameters(document, "/orders/{orderId}") == ["orderId": ["type": "string"]])
        #expect(
            Self.pathParameters(document, "/line-items/{lineItemId}")
                == ["lineItemId": ["type": "string", "format": "uuid"]])
        #expect(
            Self.pathParameters(document, "/reports/daily/{dailyId}")
                == ["dailyId": ["type": "string", "format": "date"]])
        #expect(Self.pathParameters(document, "/b/{bId}/{id}/{id2}").keys.sorted() == ["bId", "id", "id2"])
        let required = document["paths"]?["/users/{userId}"]?["parameters"]?[0]
        #expect(required == ["name": "userId", "in": "path", "required": true, "schema": ["type": "integer"]])
    }

    @Test("words fold by their siblings only past the first segment, with the same children, not recurring under ids")
    func siblings() throws {
        let document = try Self.draft(
            [
                "/files/a.txt/checkpoints", "/files/b.txt/checkpoints", "/files/c.txt/checkpoints",
                "/api/kernels", "/api/status", "/api/contents", "/orders", "/articles", "/tickets",
                // Items with no children fold with items whose children are the same words.
                "/teams/core/members/ann", "/teams/core/members/bob", "/teams/core/members/dan/roles",
                // A word whose children differ from the group's stays.
                "/boards/b/lists/todo/cards", "/boards/b/lists/doing/cards", "/boards/b/lists/done/cards",
                "/boards/b/lists/archive/labels",
                // A word with ids below is a collection, not an item.
                "/shop/items/1", "/shop/items/2", "/shop/orders/3", "/shop/status",
                // Below a parameter, words are sub-resources, even when one item's alone were read.
                "/users/1/followers", "/users/1/following", "/users/1/posts", "/users/1/repos", "/users/2/followers",
                "/users/2/posts", "/users/me", "/v1/alpha", "/v1/beta", "/v1/gamma",
                // Beside an id by shape (a name no template can hold as a literal), words join it.
                "/contents/Untitled Folder", "/contents/one.ipynb", "/contents/two.ipynb",
                "/contents/notes.txt/checkpoints",
            ].map { Self.exchange($0) })
        #expect(
            Self.templates(document) == [
                "/api/contents", "/api/kernels", "/api/status", "/articles", "/boards/b/lists/archive/labels",
                "/boards/b/lists/{listId}/cards", "/contents/{contentId}", "/contents/{contentId}/checkpoints",
                "/files/{fileId}/checkpoints", "/orders", "/shop/items/{itemId}", "/shop/orders/{orderId}",
                "/shop/status", "/teams/core/members/{memberId}", "/teams/core/members/{memberId}/roles", "/tickets",
                "/users/me", "/users/{userId}/followers", "/users/{userId}/following", "/users/{userId}/posts",
                "/users/{userId}/repos", "/v1/alpha", "/v1/beta", "/v1/gamma",
            ])
        #expect(Self.pathParameters(document, "/files/{fileId}/checkpoints") == ["fileId": ["type": "string"]])
    }

    @Test("the base path's segments stay, requests outside it are left out and counted")
    func basePath() throws {
        let draft = ContractDraft(basePath: "/v2")
        for target in ["/v2/pets/1", "/v2/pets/2", "/health", "/v3/pets"] { draft.add(Self.exchange(target)) }
        let document = try JSONValue(parsing: Data(draft.document().jsonBytes))
        #expect(Self.templates(document) == ["/pets/{petId}"])
        #expect(document["servers"] == [["url": "https://api.example/v2"]])
        #expect(
            draft.notes == [
                "2 requests were outside the base path /v2 and left out (for example /health, /v3/pets)"
            ])
    }

    @Test("query parameters and headers with their types; credentials become schemes, never values")
    func parametersAndCredentials() throws {
        let exchanges = [
            Self.exchange(
                "/search?q=swift&page=1&tag=a&tag=b",
                headers: [
                    "X-Request-Id": "1", "X-Trace": "abc", "Authorization": "Bearer abc.def.ghi", "User-Agent": "x",
                    "Accept": "*/*",
                ]),
            Self.exchange("/search?q=linux&page=2", headers: ["Authorization": "Bearer t2", "X-Trace": "def"]),
            Self.exchange("/me", headers: ["Authorization": "Basic eHl6"]),
            Self.exchange("/keys", headers: ["X-Api-Key": "k1secret"]),
            Self.exchange("/feed?api_key=zzzsecret&since=2026-01-01"),
            Self.exchange("/cart", headers: ["Cookie": "session=abcsecret; theme=dark"]),
            Self.exchange("/signed", headers: ["Authorization": "AWS4-HMAC-SHA256 Credential=AKIA/2026, Signature=ff"]),
            Self.exchange("/public", headers: ["Authorization": "Bearer t3"]),
            Self.exchange("/public"),
        ]
        let draft = ContractDraft()
        for exchange in exchanges { draft.add(exchange) }
        let yaml = String(decoding: draft.yaml(), as: UTF8.self)
        for secret in ["abc.def.ghi", "eHl6", "k1secret", "zzzsecret", "abcsecret", "AKIA", "t2", "t3"] {
            #expect(!yaml.contains(secret), "\(secret) reached the draft")
        }
        let document = try JSONValue(parsing: Data(draft.document().jsonBytes))
        let search = document["paths"]?["/search"]?["get"]
        #expect(
            search?["parameters"] == [
                ["name": "q", "in": "query", "required": true, "schema": ["type": "string"]],
                ["name": "page", "in": "query", "required": true, "schema": ["type": "integer"]],
                [
                    "name": "tag", "in": "query", "required": false,
                    "schema": ["type": "array", "items": ["type": "string"]],
                ],
                ["name": "X-Request-Id", "in": "header", "required": false, "schema": ["type": "integer"]],
                ["name": "X-Trace", "in": "header", "required": true, "schema": ["type": "string"]],
            ])
        #expect(search?["security"] == [["bearerAuth": []]])
        #expect(document["paths"]?["/me"]?["get"]?["security"] == [["basicAuth": []]])
        #expect(document["paths"]?["/keys"]?["get"]?["security"] == [["xApiKey": []]])
        #expect(document["paths"]?["/feed"]?["get"]?["security"] == [["apiKeyQuery": []]])
        #expect(
            document["paths"]?["/feed"]?["get"]?["parameters"] == [
                ["name": "since", "in": "query", "required": true, "schema": ["type": "string"]]
            ])
        #expect(document["paths"]?["/cart"]?["get"]?["security"] == [["sessionCookie": []]])
        #expect(document["paths"]?["/signed"]?["get"]?["security"] == [["aws4HmacSha256Auth": []]])
        #expect(document["paths"]?["/public"]?["get"]?["security"] == [["bearerAuth": []], [:]])
        #expect(
            document["components"]?["securitySchemes"] == [
                "bearerAuth": ["type": "http", "scheme": "bearer"],
                "basicAuth": ["type": "http", "scheme": "basic"],
                "xApiKey": ["type": "apiKey", "name": "X-Api-Key", "in": "header"],
                "apiKeyQuery": ["type": "apiKey", "name": "api_key", "in": "query"],
                "sessionCookie": ["type": "apiKey", "name": "session", "in": "cookie"],
                "aws4HmacSha256Auth": ["type": "http", "scheme": "aws4-hmac-sha256"],
            ])
    }

    @Test("a body's schema: required when every sample has it, types united, formats only when all agree")
    func bodies() throws {
        let document = try Self.draft([
            Self.exchange(
                "POST", "/users",
                body: #"{"name": "Ada", "email": "ada@example.com", "age": 36, "nick": null, "born": "1815-12-10"}"#,
                status: 201,
                responseHeaders: [
                    "Content-Type": "application/json; charset=utf-8", "Location": "/users/1",
                    "X-RateLimit-Remaining": "10", "Date": "Sat, 28 Nov 2026 10:00:00 GMT",
                ],
                response: #"{"id": 1, "created": "2026-11-28T10:00:00Z"}"#),
            Self.exchange(
                "POST", "/users",
                body: #"{"name": "Grace", "email": "grace@example.com", "age": 45.5, "password": "hunter2", "#
                    + #""born": 1906}"#,
                status: 201, responseHeaders: ["Content-Type": "application/json", "X-RateLimit-Remaining": "9"],
                response: #"{"id": 2, "created": "2026-11-28T10:00:01.5+01:00", "nick": "amazing"}"#),
        ])
        let post = document["paths"]?["/users"]?["post"]
        #expect(
            post?["requestBody"]?["content"]?["application/json"]?["schema"] == [
                "type": "object",
                "properties": [
                    "name": ["type": "string"], "email": ["type": "string", "format": "email"],
                    "age": ["type": "number"], "nick": ["type": "null"], "born": ["type": ["string", "integer"]],
                    "password": [:],
                ],
                "required": ["name", "email", "age", "born"],
            ])
        #expect(post?["requestBody"]?["required"] == true)
        #expect(
            post?["requestBody"]?["content"]?["application/json"]?["example"] == [
                "name": "Ada", "email": "ada@example.com", "age": 36, "nick": nil, "born": "1815-12-10",
            ])
        let created = post?["responses"]?["201"]
        #expect(created?["description"] == "Created")
        #expect(created?["headers"] == ["X-RateLimit-Remaining": ["required": true, "schema": ["type": "integer"]]])
        #expect(
            created?["content"]?["application/json"]?["schema"] == [
                "type": "object",
                "properties": [
                    "id": ["type": "integer"], "created": ["type": "string", "format": "date-time"],
                    "nick": ["type": "string"],
                ],
                "required": ["id", "created"],
            ])
    }

    @Test("an enum needs ten strings and fewer distinct values than their square root")
    func enums() throws {
        func tickets(_ count: Int) -> Interaction {
            let items = (0..<count).map { #"{"status": "\#($0 % 3 == 0 ? "closed" : "open")"}"# }
            return Self.exchange("/tickets", response: "[" + items.joined(separator: ",") + "]")
        }
        let many = try Self.draft([tickets(12)])
        #expect(
            many["paths"]?["/tickets"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"]?[
                "items"]?["properties"]?["status"] == ["type": "string", "enum": ["closed", "open"]])
        let few = try Self.draft([tickets(9)])
        #expect(
            few["paths"]?["/tickets"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"]?[
                "items"]?["properties"]?["status"] == ["type": "string"])
    }

    @Test("objects keyed by ids become maps; array items merge; shapes a member tells apart become a oneOf of consts")
    func mapsArraysAndVariants() throws {
        let document = try Self.draft([
            Self.exchange("/scores", response: #"{"1001": {"points": 3}, "1002": {"points": 5, "bonus": true}}"#),
            Self.exchange(
                "/events",
                response: #"[{"type": "click", "x": 1, "y": 2}, {"type": "key", "code": "KeyA"}, "#
                    + #"{"type": "click", "x": 3, "y": 4}]"#),
            Self.exchange(
                "/profiles", response: #"[{"kind": "a", "name": "x"}, {"kind": "a", "name": "y", "bio": "z"}]"#),
            Self.exchange("/mixed", response: #"[1, "two", null, [3], {"four": 4}]"#),
        ])
        func schema(_ path: String) -> JSONValue? {
            document["paths"]?[path]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"]
        }
        #expect(
            schema("/scores") == [
                "type": "object",
                "additionalProperties": [
                    "type": "object", "properties": ["points": ["type": "integer"], "bonus": ["type": "boolean"]],
                    "required": ["points"],
                ],
            ])
        #expect(
            schema("/events") == [
                "type": "array",
                "items": [
                    "oneOf": [
                        [
                            "type": "object",
                            "properties": [
                                "type": ["type": "string", "const": "click"], "x": ["type": "integer"],
                                "y": ["type": "integer"],
                            ],
                            "required": ["type", "x", "y"],
                        ],
                        [
                            "type": "object",
                            "properties": ["type": ["type": "string", "const": "key"], "code": ["type": "string"]],
                            "required": ["type", "code"],
                        ],
                    ]
                ],
            ])
        #expect(
            schema("/profiles") == [
                "type": "array",
                "items": [
                    "type": "object",
                    "properties": ["kind": ["type": "string"], "name": ["type": "string"], "bio": ["type": "string"]],
                    "required": ["kind", "name"],
                ],
            ])
        #expect(
            schema("/mixed") == [
                "type": "array",
                "items": [
                    "type": ["object", "array", "string", "integer", "null"],
                    "properties": ["four": ["type": "integer"]], "required": ["four"], "items": ["type": "integer"],
                ],
            ])
    }

    @Test("identical object schemas go once into components, named from where they first appear")
    func components() throws {
        let author = #"{"id": 1, "name": "Ada"}"#
        let document = try Self.draft([
            Self.exchange("/posts", response: #"[{"title": "t", "author": \#(author)}]"#),
            Self.exchange("/comments/7", response: #"{"text": "c", "author": \#(author)}"#),
        ])
        #expect(
            document["components"]?["schemas"] == [
                "Author": [
                    "type": "object", "properties": ["id": ["type": "integer"], "name": ["type": "string"]],
                    "required": ["id", "name"],
                ]
            ])
        #expect(
            document["paths"]?["/posts"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"]?[
                "items"]?["properties"]?["author"] == ["$ref": "#/components/schemas/Author"])
        #expect(
            document["paths"]?["/comments/{commentId}"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?[
                "schema"]?["properties"]?["author"] == ["$ref": "#/components/schemas/Author"])
    }

    @Test("values nested past 32 levels allow anything, and a draft of them is written on the smallest stack")
    func deepBodies() async throws {
        let deep = String(repeating: "[", count: 200) + "1" + String(repeating: "]", count: 200)
        let (yaml, json) = try await onThread {
            let draft = ContractDraft()
            draft.add(Self.exchange("/deep", response: deep))
            return (draft.yaml(), draft.json())
        }
        #expect(try Self.load(yaml, as: "openapi.yaml").notices == [])
        var schema = try JSONValue(parsing: Data(json))["paths"]?["/deep"]?["get"]?[
            "responses"]?["200"]?["content"]?["application/json"]?["schema"]
        var levels = 0
        while let items = schema?["items"] {
            levels += 1
            schema = items
        }
        #expect(levels == 32)
        #expect(schema == [:])
    }

    /// Each exchange, as it was recorded (not redacted), checked against the draft of them all.
    static func findings(_ exchanges: [Interaction]) throws -> [ContractCheck.Finding] {
        let draft = ContractDraft()
        for exchange in exchanges { draft.add(exchange) }
        let contract = try Self.load(draft.yaml(), as: "openapi.yaml")
        #expect(contract.notices == [])
        let check = ContractCheck(contract)
        return check.contractFindings
            + exchanges.enumerated().flatMap { index, exchange in
                exchange.response.map { check.check(exchange.request, answeredWith: $0, at: "entry \(index)") } ?? []
            }
    }

    @Test("a member named as a secret allows any value, so neither its type nor its values reach the draft")
    func secretMembers() throws {
        let bodies = (0..<12).map { index in
            #"{"has_password": \#(index % 2 == 0), "reset_token": "tok-9f8e7d6c5b4a", "session": {"id": \#(index)}}"#
        }
        let exchanges = bodies.map { Self.exchange("/me", response: $0) }
        #expect(try Self.findings(exchanges) == [])
        let draft = ContractDraft()
        for exchange in exchanges { draft.add(exchange) }
        let yaml = String(decoding: draft.yaml(), as: UTF8.self)
        #expect(!yaml.contains("tok-9f8e7d6c5b4a"))
        let document = try JSONValue(parsing: Data(draft.document().jsonBytes))
        #expect(
            document["paths"]?["/me"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?["schema"] == [
                "type": "object", "properties": ["has_password": [:], "reset_token": [:], "session": [:]],
                "required": ["has_password", "reset_token", "session"],
            ])
    }

    @Test("samples that break what another sample suggested still pass their draft")
    func conflictingSamples() throws {
        let exchanges = [
            // Tags whose values are numbers as text: each branch is told apart by its const alone.
            Self.exchange("/parts", response: #"[{"type": "1", "a": 1}, {"type": "2", "b": "x"}]"#),
            // Named members, then an object keyed by ids: all read as a map.
            Self.exchange("/index", response: #"{"a": 1, "7": "x"}"#),
            Self.exchange("/index", response: #"{"7": 5}"#),
            // A status OpenAPI can't name, and a body without a Content-Type.
            Self.exchange("/odd", status: 999, response: #"{"why": "x"}"#),
            Self.exchange("/raw", responseHeaders: [:], response: "bytes"),
        ]
        #expect(try Self.findings(exchanges) == [])
        let draft = ContractDraft()
        for exchange in exchanges { draft.add(exchange) }
        let document = try JSONValue(parsing: Data(draft.document().jsonBytes))
        let odd = document["paths"]?["/odd"]?["get"]?["responses"]?["default"]
        #expect(odd?["description"] == "A status outside 100–599")
        #expect(
            document["paths"]?["/raw"]?["get"]?["responses"]?["200"]?["content"] == ["application/octet-stream": [:]])
        #expect(
            draft.notes == [
                "status 999 can't be a response's key in OpenAPI: drafted as the operation's default response"
            ])
    }

    @Test("a page's token is a parameter, not a credential; methods a path item can't hold are left out and said")
    func pageTokensAndOtherMethods() throws {
        let draft = ContractDraft()
        draft.add(Self.exchange("/feed?pageToken=abc&limit=5"))
        draft.add(Self.exchange("/feed?pageToken=def&limit=5&__code=404"))
        draft.add(Self.exchange("PROPFIND", "/dav/notes"))
        draft.add(Self.exchange("QUERY", "/dav/notes"))
        let document = try JSONValue(parsing: Data(draft.document().jsonBytes))
        #expect(document["paths"]?["/feed"]?["get"]?["security"] == nil)
        #expect(
            document["paths"]?["/feed"]?["get"]?["parameters"] == [
                ["name": "pageToken", "in": "query", "required": true, "schema": ["type": "string"]],
                ["name": "limit", "in": "query", "required": true, "schema": ["type": "integer"]],
            ])
        #expect(Self.templates(document) == ["/feed"])
        #expect(
            draft.notes == ["2 exchanges of methods an OpenAPI path item can't hold left out (PROPFIND, QUERY)"])
    }

    @Test("the draft loads in our reader without a notice and checks against its recordings without a finding")
    func draftPassesItsOwnRecordings() throws {
        let draft = ContractDraft()
        for exchange in DraftCorpus.interactions { draft.add(exchange) }
        for (bytes, name) in [(draft.yaml(), "openapi.yaml"), (draft.json(), "openapi.json")] {
            let contract = try Self.load(bytes, as: name)
            #expect(contract.notices == [])
            let check = ContractCheck(contract)
            #expect(check.contractFindings == [])
            for (index, exchange) in DraftCorpus.interactions.enumerated() {
                guard let response = exchange.response else { continue }
                #expect(check.check(exchange.request, answeredWith: response, at: "entry \(index)") == [])
            }
        }
    }

    @Test("the same recordings give the same bytes, YAML and JSON alike")
    func deterministic() throws {
        func bytes() -> (Data, Data) {
            let draft = ContractDraft()
            for exchange in DraftCorpus.interactions { draft.add(exchange) }
            return (draft.yaml(), draft.json())
        }
        let first = bytes()
        let second = bytes()
        #expect(first.0 == second.0)
        #expect(first.1 == second.1)
    }
}

/// `draft --openapi EXISTING`: an existing contract keeps everything it has, and gains what the
/// traffic shows it lacks, in its own dialect.
@Suite("Updating a contract from recordings", .timeLimit(.minutes(3)), .hangGuard)
struct ContractUpdateTests {
    static let existing30 = """
        openapi: 3.0.3
        info: {title: Users, version: "1"}
        servers: [{url: "https://api.example/v1"}]
        paths:
          /users:
            get:
              operationId: listUsers
              responses:
                "200":
                  description: the users
                  content:
                    application/json:
                      schema:
                        type: array
                        items: {$ref: "#/components/schemas/User"}
          /users/{id}:
            parameters:
              - {name: id, in: path, required: true, schema: {type: integer}}
            get:
              operationId: getUser
              responses:
                "200":
                  description: a user
                  content:
                    application/json:
                      schema: {$ref: "#/components/schemas/User"}
        components:
          securitySchemes:
            token: {type: http, scheme: bearer}
          schemas:
            User:
              type: object
              required: [id]
              properties:
                id: {type: integer}
                name: {type: string}
                age: {type: integer}
        """

    /// The exchanges, under `/v1`, that the contract doesn't fully describe.
    static var traffic: [Interaction] {
        [
            DraftCorpus.exchange(
                "/v1/users/1",
                response: #"{"id": 1, "name": "Ada", "age": 36.5, "email": "ada@example.com", "nick": null}"#),
            DraftCorpus.exchange(
                "/v1/users/9", status: 404, responseHeaders: ["Content-Type": "application/problem+json"],
                response: #"{"title": "Not Found"}"#),
            DraftCorpus.exchange("DELETE", "/v1/users/1", status: 204, responseHeaders: [:], response: ""),
            DraftCorpus.exchange(
                "/v1/users", headers: ["Accept": "text/csv"], responseHeaders: ["Content-Type": "text/csv"],
                response: "id,name\n1,Ada\n"),
            DraftCorpus.exchange(
                "POST", "/v1/teams", headers: ["Authorization": "Bearer t"], body: #"{"name": "core"}"#, status: 201,
                response: #"{"id": 7, "name": "core"}"#),
            DraftCorpus.exchange(
                "/v1/teams/7", headers: ["Authorization": "Bearer t"], response: #"{"id": 7, "name": "core"}"#),
        ]
    }

    @Test("a 3.0 contract gains operations, statuses, media types, properties and types, and keeps the rest")
    func update30() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("openapi.yaml", Self.existing30)
        let contract = try OpenAPIContract(contentsOf: file)
        let draft = ContractDraft(existing: contract)
        for exchange in Self.traffic { draft.add(exchange) }
        let update = try draft.update()
        #expect(
            update.additions == [
                "added GET /users 200 text/csv",
                "widened GET /users/{id} 200 application/json /age from integer to number",
                "added property GET /users/{id} 200 application/json /email",
                "added property GET /users/{id} 200 application/json /nick",
                "added GET /users/{id} 404",
                "added DELETE /users/{id}",
                "added path /teams (POST)",
                "added path /teams/{teamId} (GET)",
            ])
        let document = try JSONValue(parsing: Data(update.document.jsonBytes))
        // In the schema the $ref names, in 3.0's dialect; what was there stays.
        #expect(
            document["components"]?["schemas"]?["User"] == [
                "type": "object", "required": ["id"],
                "properties": [
                    "id": ["type": "integer"], "name": ["type": "string"], "age": ["type": "number"],
                    "email": ["type": "string", "format": "email"], "nick": ["nullable": true],
                ],
            ])
        #expect(document["paths"]?["/users/{id}"]?["delete"]?["parameters"] == nil)
        #expect(document["paths"]?["/teams"]?["post"]?["security"] == [["token": []]])
        #expect(document["components"]?["securitySchemes"] == ["token": ["type": "http", "scheme": "bearer"]])
        #expect(update.unchanged == [])
        let updated = try folder.write(
            "updated.yaml", String(decoding: YAMLWriter.bytes(of: update.document), as: UTF8.self))
        let reread = try OpenAPIContract(contentsOf: updated)
        #expect(reread.notices == [])
        #expect(reread.version == "3.0.3")
        let check = ContractCheck(reread)
        for (index, exchange) in Self.traffic.enumerated() {
            guard let response = exchange.response else { continue }
            #expect(check.check(exchange.request, answeredWith: response, at: "entry \(index)") == [])
        }
    }

    @Test("in 3.1 a type widens to a list; what lives in another file is said and left; nothing new, nothing added")
    func update31() throws {
        let folder = try TemporaryFolder()
        try folder.write("user.yaml", "User:\n  type: object\n  properties:\n    id: {type: integer}\n")
        let file = try folder.write(
            "openapi.yaml",
            """
            openapi: 3.1.0
            info: {title: Users, version: "1"}
            paths:
              /users/{id}:
                get:
                  parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
                  responses:
                    "200":
                      description: a user
                      content:
                        application/json:
                          schema:
                            type: object
                            properties:
                              name: {type: string}
                              manager: {$ref: "user.yaml#/User"}
            """)
        let contract = try OpenAPIContract(contentsOf: file)
        let draft = ContractDraft(existing: contract)
        draft.add(DraftCorpus.exchange("/users/1", response: #"{"name": null, "manager": {"id": 2, "name": "Bo"}}"#))
        let update = try draft.update()
        #expect(update.additions == ["widened GET /users/{id} 200 application/json /name to string, null"])
        #expect(update.unchanged == ["GET /users/{id} 200 application/json /manager: its schema is in another file"])
        let document = try JSONValue(parsing: Data(update.document.jsonBytes))
        #expect(
            document["paths"]?["/users/{id}"]?["get"]?["responses"]?["200"]?["content"]?["application/json"]?[
                "schema"]?["properties"]?["name"] == ["type": ["string", "null"]])

        let same = ContractDraft(existing: contract)
        same.add(DraftCorpus.exchange("/users/1", response: #"{"name": "Ada"}"#))
        let unchanged = try same.update()
        #expect(unchanged.additions == [])
        #expect(unchanged.document.jsonBytes == (try YAMLReader.parse(Array(Data(contentsOf: file)))).jsonBytes)
    }
}

/// The Swift API: a draft from a cassette, written to a file, and drift as values.
@Suite("Drafts and drift in Swift", .timeLimit(.minutes(3)), .hangGuard)
struct DraftSwiftAPITests {
    @Test("a cassette's exchanges are drafted and written as YAML or JSON by the extension")
    func draftFromACassette() throws {
        let folder = try TemporaryFolder()
        let har = folder.url.appendingPathComponent("traffic.har")
        try TrafficConversion.writeHAR(DraftCorpus.interactions, to: har, redaction: .default)
        let draft = ContractDraft()
        draft.add(contentsOf: try Cassette(contentsOf: har, record: .none))
        #expect(draft.exchanges == DraftCorpus.interactions.count)
        for name in ["openapi.yaml", "openapi.json"] {
            let file = folder.url.appendingPathComponent("out/" + name)
            try draft.write(to: file)
            #expect(try Data(contentsOf: file) == (name.hasSuffix(".json") ? draft.json() : draft.yaml()))
            #expect(try OpenAPIContract(contentsOf: file).notices == [])
        }
    }

    @Test("drift in recorded exchanges, as values: each kind once with its count and exchanges")
    func driftAsValues() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "openapi.yaml",
            """
            openapi: 3.1.0
            info: {title: Pets, version: "1"}
            paths:
              /pets/{petId}:
                get:
                  operationId: getPet
                  responses:
                    "200":
                      description: a pet
                      content:
                        application/json:
                          schema: {type: object, properties: {id: {type: integer}}, required: [id]}
                    "404": {description: none}
            """)
        let contract = try OpenAPIContract(contentsOf: file)
        let drift = contract.drift(in: [
            DraftCorpus.exchange("/pets/1", response: #"{"id": "1"}"#),
            DraftCorpus.exchange("/pets/2", response: #"{"id": "2", "age": 3}"#),
            DraftCorpus.exchange("/toys", response: "[]"),
        ])
        #expect(
            drift.findings.map(\.description) == [
                #"error: GET /pets/{petId} 200: /id: expected integer, got "1" (2 times)"#,
                "warning: GET /pets/{petId} 200: /age is not declared in the schema",
                "warning: GET /toys is not in the contract",
            ])
        #expect(drift.findings.map(\.rule) == [.schema, .undocumentedProperty, .undocumentedOperation])
        #expect(drift.findings[0].exchanges == [0, 1])
        #expect(drift.findings[0].pointer == "/id")
        #expect(drift.findings[1].operation == "getPet")
        #expect(drift.neverSeen == ["getPet 404"])
        let json = try JSONValue(parsing: drift.json())
        #expect(json["findings"]?[0]?["count"] == 2)
        #expect(try JSONValue(parsing: drift.sarif())["version"] == "2.1.0")
    }
}
