import Dispatch
import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// The store of a contract's resources: items in creation order, ids made the same in every run
/// and never twice, concurrent creates that don't collide, and its bounds.
@Suite("Holding a contract's resources", .timeLimit(.minutes(3)), .hangGuard)
struct ResourceStoreTests {
    static func item(_ id: DocumentNode, _ name: String) -> DocumentNode {
        var object = DocumentObject()
        _ = object.append(.init(key: "id", keyOffset: 0, value: id))
        _ = object.append(.init(key: "name", keyOffset: 0, value: DocumentNode(.string(name), at: 0)))
        return DocumentNode(.object(object), at: 0)
    }

    static func ids(_ store: ResourceStore, _ path: String) -> [String] {
        store.items(in: path).map {
            String(decoding: ($0["id"] ?? DocumentNode(.null, at: 0)).jsonBytes, as: UTF8.self)
        }
    }

    @Test("integer ids are one past the largest ever held; a deleted one is not given again")
    func integers() throws {
        let store = ResourceStore()
        for name in ["a", "b", "c"] {
            _ = try store.create(in: "/pets", kind: .integer, schema: nil) { Self.item($0, name) }
        }
        #expect(try store.remove("2", from: "/pets"))
        #expect(try !store.remove("2", from: "/pets"))
        _ = try store.create(in: "/pets", kind: .integer, schema: nil) { Self.item($0, "d") }
        try store.insert(Self.item(DocumentNode(.int(10), at: 0), "e"), id: "10", in: "/pets")
        _ = try store.create(in: "/pets", kind: .integer, schema: nil) { Self.item($0, "f") }
        #expect(Self.ids(store, "/pets") == ["1", "3", "4", "10", "11"])
        #expect(throws: ResourceStore.Refusal.exists(id: "10")) {
            try store.insert(Self.item(DocumentNode(.int(10), at: 0), "again"), id: "10", in: "/pets")
        }
        // A replaced item keeps its place; another collection (another parent) is apart.
        #expect(try store.replace("3", with: Self.item(DocumentNode(.int(3), at: 0), "C"), in: "/pets"))
        #expect(try !store.replace("99", with: Self.item(DocumentNode(.int(99), at: 0), "x"), in: "/pets"))
        #expect(store.items(in: "/pets").map { $0["name"]?.string } == ["a", "C", "d", "e", "f"])
        #expect(store.items(in: "/users/1/pets").isEmpty)
        try store.reset()
        #expect(store.items(in: "/pets").isEmpty)
    }

    @Test("a counted UUID that is held already (sent by a client, or loaded from a state file) is skipped")
    func uuidsSkipTheOnesHeld() throws {
        let store = ResourceStore()
        let second = "00000000-0000-4000-8000-000000000002"
        try store.insert(Self.item(DocumentNode(.string(second), at: 0), "sent"), id: second, in: "/users")
        for name in ["a", "b"] {
            _ = try store.create(in: "/users", kind: .uuid, schema: nil) { Self.item($0, name) }
        }
        #expect(
            Self.ids(store, "/users") == [
                #""00000000-0000-4000-8000-000000000002""#, #""00000000-0000-4000-8000-000000000001""#,
                #""00000000-0000-4000-8000-000000000003""#,
            ])
        // What a restart with --state does: the same items, loaded into a store whose count starts again.
        let restarted = ResourceStore()
        var contents = ResourceContents()
        contents.collections = [("/users", store.items(in: "/users").map { (($0["id"]?.string ?? ""), $0) })]
        try restarted.load(contents)
        _ = try restarted.create(in: "/users", kind: .uuid, schema: nil) { Self.item($0, "c") }
        #expect(Self.ids(restarted, "/users").last == #""00000000-0000-4000-8000-000000000004""#)
        #expect(Set(Self.ids(restarted, "/users")).count == 4)
    }

    @Test("UUIDs and strings of the id's schema are the same in every run, unique, and valid")
    func strings() throws {
        let map = try ResourceMapTests.shop().resourceMap
        let posts = try #require(map.collections.first { $0.idProperty == "post_id" })
        func run() throws -> ([String], [String]) {
            let store = ResourceStore()
            for index in 0..<30 {
                _ = try store.create(in: "/users/u/posts", kind: .string, schema: posts.idSchema) {
                    Self.item($0, "post \(index)")
                }
                _ = try store.create(in: "/users", kind: .uuid, schema: nil) { Self.item($0, "user \(index)") }
            }
            return (Self.ids(store, "/users/u/posts"), Self.ids(store, "/users"))
        }
        let (posts1, users1) = try run()
        #expect(try run() == (posts1, users1))
        #expect(Set(posts1).count == 30 && Set(users1).count == 30)
        let idSchema = try #require(posts.idSchema)
        let uuid = try SchemaValidatorTests.schema(#"{"type": "string", "format": "uuid"}"#)
        for (id, user) in zip(posts1, users1) {
            let (post, person) = (try JSONValue(parsing: Data(id.utf8)), try JSONValue(parsing: Data(user.utf8)))
            #expect(SchemaValidator.violations(of: post, against: idSchema, direction: .response) == [], "\(id)")
            #expect(SchemaValidator.violations(of: person, against: uuid, direction: .response) == [], "\(user)")
        }
    }

    @Test("100 concurrent creates get 100 ids, and the collection holds 100 items")
    func concurrentCreates() throws {
        let store = ResourceStore()
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            _ = try? store.create(in: "/pets", kind: .integer, schema: nil) { Self.item($0, "pet \(index)") }
        }
        let ids = Self.ids(store, "/pets")
        #expect(ids.count == 100)
        #expect(Set(ids) == Set((1...100).map(String.init)))
    }

    @Test("past its bound on items a create is refused, naming the bound, and nothing changes")
    func bounds() throws {
        #expect(ResourceStore.maximumItems == 10_000)
        let store = ResourceStore(maximumItems: 50)
        for index in 0..<50 {
            _ = try store.create(in: "/pets", kind: .integer, schema: nil) { Self.item($0, "pet \(index)") }
        }
        #expect(throws: ResourceStore.Refusal.full("a collection holds at most 50 items")) {
            try store.create(in: "/pets", kind: .integer, schema: nil) { Self.item($0, "one too many") }
        }
        #expect(throws: ResourceStore.Refusal.full("a collection holds at most 50 items")) {
            try store.insert(Self.item(DocumentNode(.int(99), at: 0), "sent"), id: "99", in: "/pets")
        }
        #expect(store.items(in: "/pets").count == 50)
        #expect(store.items(in: "/pets").last?["name"]?.string == "pet 49")
        // A singleton is held per path.
        try store.setSingleton(Self.item(DocumentNode(.int(1), at: 0), "settings"), at: "/users/1/settings")
        #expect(store.singleton(at: "/users/1/settings")?["name"]?.string == "settings")
        #expect(store.singleton(at: "/users/2/settings") == nil)
    }

    @Test("past its bound on bytes a create is refused and uses no id")
    func bytes() throws {
        #expect(ResourceStore.maximumBytes == 64 * 1024 * 1024)
        let store = ResourceStore(maximumBytes: 64 * 1024)
        let large = String(repeating: "x", count: 1024)
        var created = 0
        while true {
            do {
                _ = try store.create(in: "/files", kind: .integer, schema: nil) { Self.item($0, large) }
                created += 1
            } catch {
                #expect(error == .full("the store holds at most 65536 bytes of items"))
                break
            }
        }
        // 62 items of 1,044 bytes fit in 64 KiB; the refused 63rd used no id, so after a delete
        // (whose id isn't given again) the next create gets 63.
        #expect(created == 62)
        #expect(try store.remove("62", from: "/files"))
        let next = try store.create(in: "/files", kind: .integer, schema: nil) { Self.item($0, "small") }
        #expect(next["id"]?.jsonBytes == Array("63".utf8))
    }
}
