// The README's examples, verbatim, so they can't rot. Keep the two in step.
import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing
import XCTest

// README: "Quick start" (XCTest)
final class UserAPITests: XCTestCase {
    let registry = MockRegistry()
    var session: URLSession!

    override func setUp() {
        super.setUp()
        registry.register(.get("https://api.example.com/users/<id>")) { _, captures in
            .json(["id": .string(captures["id"] ?? ""), "name": "Ada"])
        }
        registry.register(.delete("https://api.example.com/users/<id>"), respond: .status(204))

        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [registry.protocolClass] + (configuration.protocolClasses ?? [])
        session = URLSession(configuration: configuration)
    }

    func testFetchesUser() throws {
        let done = expectation(description: "response")
        let task = session.dataTask(with: URL(string: "https://api.example.com/users/7")!) { data, response, error in
            XCTAssertNil(error)
            XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
            XCTAssertEqual(data, Data(#"{"id":"7","name":"Ada"}"#.utf8))
            done.fulfill()
        }
        task.resume()
        wait(for: [done], timeout: 5)
        XCTAssertEqual(registry.journal.count, 1)
    }
}

// README: "Quick start" (async/await, Swift Testing)
@Test func createsUser() async throws {
    let registry = MockRegistry()
    registry.register(.post("/users").jsonBody(["name": "Ada"]), respond: .json(["id": 42], status: 201))
    let session = registry.makeSession()

    var request = URLRequest(url: URL(string: "https://api.example.com/users")!)
    request.httpMethod = "POST"
    request.httpBody = Data(#"{"name": "Ada"}"#.utf8)
    let (data, response) = try await session.data(for: request)

    #expect((response as? HTTPURLResponse)?.statusCode == 201)
    #expect(try JSONValue(parsing: data) == ["id": 42])
    #expect(registry.journal.count == 1)
}

// README: "Recording and playback"
struct Repository: Decodable {
    let name: String
}

@Test func listsRepositories() async throws {
    let cassette = try Cassette(
        contentsOf: URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()
            .appendingPathComponent("Cassettes/repositories.har"),
        record: .once,
        redaction: .default.queryParameter("access_token")
    )
    let token = ProcessInfo.processInfo.environment["API_TOKEN"] ?? ""
    let names = try await MockRegistry().withCassette(cassette) { session in
        var request = URLRequest(url: URL(string: "https://api.example.com/v1/repos?owner=ada&access_token=\(token)")!)
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        let (data, _) = try await session.data(for: request)
        return try JSONDecoder().decode([Repository].self, from: data).map(\.name)
    }
    #expect(names == ["analytical-engine", "notes-g"])
}
