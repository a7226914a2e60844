import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// The resources found in a contract: collections and their items (nested ones too, and one
/// written with trailing slashes), ids by name and kind, bare and wrapped lists and items,
/// totals, paging, filters, a singleton, and the operations left stateless.
@Suite("Finding a contract's resources", .timeLimit(.minutes(3)), .hangGuard)
struct ResourceMapTests {
    static func shop() throws -> OpenAPIContract {
        try OpenAPIContract(
            contentsOf: try #require(
                Bundle.module.url(forResource: "Fixtures/OpenAPI/resources/shop", withExtension: "json"),
                "Fixtures/OpenAPI/resources/shop.json is missing from the test bundle"))
    }

    @Test("what serve prints: each collection, its item path, id, list shape, paging and filters")
    func description() throws {
        #expect(
            try Self.shop().resourceMap.description.split(separator: "\n") == [
                "/pets: items /pets/{petId}, id id (integer), list bare, paged by limit/offset (20), filtered "
                    + "by kind, ignores sort",
                #"/users: items /users/{userId}, id id (uuid), list in "results", item in "user", paged by "#
                    + #"page/per_page (10), filtered by name"#,
                #"/users/{userId}/posts: items /users/{userId}/posts/{post_id}, id post_id (string), list in "#
                    + #""data", paged by page/pageSize (5)"#,
                #"/api/parts/: items /api/parts/{id}/, id pk (integer), list in "entries""#,
                "/tags: items /tags/{label}, id label (string), list bare",
                "/users/{userId}/settings: a singleton per parent item",
                "POST /pets/{petId}/adopt: stateless (answered from the contract, remembers nothing)",
                "GET /orders/{orderId}: stateless (answered from the contract, remembers nothing)",
                "GET /search: stateless (answered from the contract, remembers nothing)",
            ])
    }

    @Test("each collection's roles, parents, totals and the parameters it doesn't understand")
    func collections() throws {
        let contract = try Self.shop()
        let map = contract.resourceMap
        func operations(_ collection: ResourceMap.Collection) -> [String: String] {
            Dictionary(
                uniqueKeysWithValues: collection.operations.map {
                    ($0.key.rawValue, contract.operations[$0.value].description)
                })
        }
        let pets = try #require(map.collections.first)
        #expect(
            operations(pets) == [
                "list": "listPets", "create": "createPet", "read": "getPet", "replace": "replacePet",
                "merge": "updatePet", "delete": "deletePet",
            ])
        #expect(pets.ignoredParameters == ["sort"])
        #expect(pets.parentParameters == [])
        #expect(pets.itemParameter == "petId")
        let users = map.collections[1]
        #expect(users.totals == [["count"]])
        #expect(
            operations(users) == [
                "list": "listUsers", "create": "createUser", "read": "getUser", "delete": "deleteUser",
            ])
        let posts = map.collections[2]
        #expect(posts.parentParameters == ["userId"])
        #expect(posts.totals == [["meta", "total"]])
        #expect(posts.idSchema?.pointer == "#/components/schemas/Post/properties/post_id")
        #expect(map.collections[3].totals == [["total_count"]])
        #expect(map.singletons.map(\.parentParameters) == [["userId"]])
        // An action below an item, a search, and an item whose parent path the contract lacks.
        #expect(map.stateless.map { contract.operations[$0].description } == ["adoptPet", "getOrder", "search"])
        #expect(map.skipped == [])
    }

    @Test("a collection whose items have no id property is named and left stateless")
    func noIdentity() throws {
        let folder = try TemporaryFolder()
        let contract = try OpenAPIContract(
            contentsOf: try folder.write(
                "api.json",
                ##"{"openapi": "3.1.0", "paths": {"/notes": {"get": {"responses": {"200": {"description": "ok", "##
                    + ##""content": {"application/json": {"schema": {"type": "array", "items": {"$ref": "##
                    + ##""#/$defs/Note"}}}}}}}}, "##
                    + ##""/notes/{n}": {"get": {"responses": {"200": {"description": "ok", "content": {"##
                    + ##""application/json": {"schema": {"$ref": "#/$defs/Note"}}}}}}}}, "##
                    + ##""$defs": {"Note": {"type": "object", "properties": {"text": {"type": "string"}}}}}"##))
        let map = contract.resourceMap
        #expect(map.collections.isEmpty)
        #expect(map.skipped == ["/notes: not kept, its items have no id property (n, id, pk, uuid, key)"])
        #expect(map.stateless.count == 2)
    }
}
