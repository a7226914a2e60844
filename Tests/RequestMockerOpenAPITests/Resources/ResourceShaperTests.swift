import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// What the store keeps of a body (as sent, plus the required and readOnly members it lacks) and
/// what an answer shows of it (no writeOnly members; the item or the page wrapped as declared,
/// totals counting the items), each answer valid against its response schema.
@Suite("Shaping a contract's resources", .timeLimit(.minutes(3)), .hangGuard)
struct ResourceShaperTests {
    static func node(_ json: String) throws -> DocumentNode {
        try DocumentNode.parseJSON(Array(json.utf8))
    }

    static func text(_ node: DocumentNode) -> String {
        String(decoding: node.jsonBytes, as: UTF8.self)
    }

    static func expectValid(
        _ node: DocumentNode, _ schema: Schema, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(
            SchemaValidator.violations(of: node.jsonValue, against: schema, direction: .response) == [],
            sourceLocation: sourceLocation)
    }

    @Test("a create keeps the body as sent, fills the server's members, and never shows a writeOnly one")
    func items() throws {
        let contract = try ResourceMapTests.shop()
        let map = contract.resourceMap
        let pets = map.collections[0]
        let stored = ResourceShaper.stored(
            try Self.node(#"{"name": "Rex", "password": "secret"}"#), as: pets.itemSchema,
            id: ("id", DocumentNode(.int(1), at: 0)))
        #expect(Self.text(stored) == #"{"name":"Rex","password":"secret","id":1}"#)
        let shown = ResourceShaper.answer(
            item: stored, itemSchema: pets.itemSchema, response: pets.itemSchema, shape: pets.item)
        #expect(Self.text(shown) == #"{"name":"Rex","id":1}"#)
        Self.expectValid(shown, pets.itemSchema)
        let users = map.collections[1]
        let user = ResourceShaper.stored(
            try Self.node(#"{"name": "Ada"}"#), as: users.itemSchema,
            id: ("id", DocumentNode(.string("00000000-0000-4000-8000-000000000001"), at: 0)))
        #expect(
            Self.text(user)
                == #"{"name":"Ada","id":"00000000-0000-4000-8000-000000000001","created_at":"2026-01-01T00:00:00Z"}"#)
        let read = try #require(users.operations[.read])
        let readSchema = try #require(contract.responseSchema(of: read, status: 200, mediaType: "application/json"))
        let wrapped = ResourceShaper.answer(
            item: user, itemSchema: users.itemSchema, response: readSchema, shape: users.item)
        #expect(Self.text(wrapped).hasPrefix(#"{"user":{"name":"Ada","#))
        Self.expectValid(wrapped, readSchema)
    }

    @Test("a page is the array, or the declared wrapper with its totals counting every matching item")
    func pages() throws {
        let contract = try ResourceMapTests.shop()
        let map = contract.resourceMap
        func listSchema(_ collection: ResourceMap.Collection) throws -> Schema {
            let list = try #require(collection.operations[.list])
            return try #require(contract.responseSchema(of: list, status: 200, mediaType: "application/json"))
        }
        let users = map.collections[1]
        let items = try (1...2).map { index in
            ResourceShaper.stored(
                try Self.node(#"{"name": "user \#(index)"}"#), as: users.itemSchema,
                id: ("id", DocumentNode(.string("00000000-0000-4000-8000-00000000000\(index)"), at: 0)))
        }
        let page = ResourceShaper.answer(
            page: items, itemSchema: users.itemSchema, response: try listSchema(users), shape: try #require(users.list),
            totals: users.totals, count: 5)
        #expect(page["count"]?.jsonValue == 5)
        #expect(page["results"]?.jsonValue.arrayCount == 2)
        Self.expectValid(page, try listSchema(users))
        let posts = map.collections[2]
        let post = ResourceShaper.stored(
            try Self.node(#"{"title": "Hello"}"#), as: posts.itemSchema,
            id: ("post_id", DocumentNode(.string("p1"), at: 0)))
        let postsPage = ResourceShaper.answer(
            page: [post], itemSchema: posts.itemSchema, response: try listSchema(posts),
            shape: try #require(posts.list),
            totals: posts.totals, count: 1)
        #expect(Self.text(postsPage) == #"{"data":[{"title":"Hello","post_id":"p1"}],"meta":{"total":1}}"#)
        Self.expectValid(postsPage, try listSchema(posts))
        let pets = map.collections[0]
        let bare = ResourceShaper.answer(
            page: [], itemSchema: pets.itemSchema, response: try listSchema(pets), shape: try #require(pets.list),
            totals: pets.totals, count: 0)
        #expect(Self.text(bare) == "[]")
    }

    @Test("an object the body sends is kept, and its own missing required members are filled")
    func nested() throws {
        let schema = try SchemaValidatorTests.schema(
            #"{"type": "object", "required": ["a"], "properties": {"a": {"type": "object", "required": ["b", "c"], "#
                + #""properties": {"b": {"type": "string"}, "c": {"type": "integer"}, "d": {"type": "string"}}}, "#
                + #""list": {"type": "array", "items": {"type": "object", "required": ["k"], "properties": {"k": "#
                + #"{"type": "boolean"}}}}}}"#
        )
        let stored = ResourceShaper.stored(try Self.node(#"{"list": [{}, {"k": false}], "a": {"b": "x"}}"#), as: schema)
        #expect(Self.text(stored) == #"{"list":[{"k":true},{"k":false}],"a":{"b":"x","c":0}}"#)
        Self.expectValid(stored, schema)
    }
}

extension JSONValue {
    /// The number of elements, for an array.
    fileprivate var arrayCount: Int? {
        if case .array(let elements) = self { elements.count } else { nil }
    }
}
