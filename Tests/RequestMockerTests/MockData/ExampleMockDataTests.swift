import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// Examples/MockData is what the README shows and the command serves: every file must answer.
@Suite("Examples/MockData", .timeLimit(.minutes(3)), .hangGuard)
struct ExampleMockDataTests {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/MockData")

    @Test("each example file answers its request")
    func examples() async throws {
        let registry = MockRegistry()
        registry.register(try MockDataFolder(Self.folder, allowsWildcards: true))
        let session = registry.makeSession()

        let (users, usersResponse) = try await session.data(from: url("/users"))
        #expect(try JSONValue(parsing: users)[1]?["name"] == "Grace Hopper")
        #expect(usersResponse.header("Content-Type") == "application/json")

        let (_, user) = try await session.data(from: url("/users/1"))
        #expect(user.status == 200)
        #expect(user.header("ETag") == "\"user-1-v3\"")

        #expect(try await session.data(from: url("/users/99")).1.status == 404)

        var create = URLRequest(url: url("/users"))
        create.httpMethod = "POST"
        create.setValue("application/json", forHTTPHeaderField: "Content-Type")
        create.httpBody = Data(#"{ "name" : "Ada" }"#.utf8)
        let (created, createdResponse) = try await session.data(for: create)
        #expect(createdResponse.status == 201)
        #expect(try JSONValue(parsing: created)["id"] == 3)

        let (search, _) = try await session.data(from: url("/search?q=anything"))
        #expect(try JSONValue(parsing: search)["results"] == [])
        #expect(registry.journal.allSatisfy { $0.file != nil })
    }
}
