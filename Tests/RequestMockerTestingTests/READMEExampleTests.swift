// The README's "Swift Testing" and "XCTest" examples, verbatim, so they can't rot. Keep the two
// in step.
import Foundation
import RequestMockerTestSupport
import RequestMockerTesting
import Testing
import XCTest

// README: "Swift Testing"
struct User: Decodable, Equatable {
    let id: Int
    let name: String
}

struct UsersClient {
    let session: URLSession

    func user(_ id: Int) async throws -> User {
        let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users/\(id)")!)
        return try JSONDecoder().decode(User.self, from: data)
    }
}

@Suite(
    .mocking { $0.register(.get("https://api.example.com/users/<id>"), respond: .json(["id": 7, "name": "Ada"])) },
    .timeLimit(.minutes(3)), .hangGuard)
struct UsersClientTests {
    @Test func loadsUser() async throws {
        let user = try await UsersClient(session: MockRegistry.current.session).user(7)
        #expect(user == User(id: 7, name: "Ada"))
        MockRegistry.current.assertRequested(.get("/users/7"), times: 1)
    }

    @Test(.mocking { $0.register(.get("https://api.example.com/users/8").expected(), respond: .status(404)) })
    func missingUser() async throws {
        await #expect(throws: DecodingError.self) {
            try await UsersClient(session: MockRegistry.current.session).user(8)
        }
    }
}

// README: "Swift Testing" (cassettes)
@Test(.cassette(), .timeLimit(.minutes(3)), .hangGuard) func loadsUserFromItsCassette() async throws {
    // Plays back __Cassettes__/READMEExampleTests/loadsUserFromItsCassette.har
    let user = try await UsersClient(session: MockRegistry.current.session).user(7)
    #expect(user.name == "Ada")
}

// README: "XCTest"
final class UsersClientXCTests: XCTestCase {
    private var mocks: MockRegistry!

    override func setUp() {
        super.setUp()
        mocks = mockRegistry()  // this test's own; checked when the test ends
        mocks.register(.get("https://api.example.com/users/<id>").expected(), respond: .json(["id": 7, "name": "Ada"]))
    }

    func testLoadsUser() async throws {
        let user = try await UsersClient(session: mocks.session).user(7)
        XCTAssertEqual(user, User(id: 7, name: "Ada"))
        mocks.assertNotRequested(.delete("/users/<id>"))
    }
}

// README: "Code that can't be given a session"
@Suite(.mockingShared, .timeLimit(.minutes(3)), .hangGuard)
struct LegacyClientTests {
    @Test func loadsConfig() async throws {
        MockURLProtocol.register(
            RequestFilter.get("https://api.example.com/config").respond(with: .json(["beta": true])))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [MockURLProtocol.self]
        let (data, _) = try await URLSession(configuration: configuration).data(
            from: URL(string: "https://api.example.com/config")!)
        #expect(try JSONValue(parsing: data) == ["beta": true])
    }
}
