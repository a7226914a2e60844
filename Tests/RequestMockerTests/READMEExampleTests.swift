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
        wait(for: [done], timeout: 60)
        XCTAssertEqual(registry.journal.count, 1)
    }
}

// README: "Quick start" (async/await, Swift Testing)
@Test(.timeLimit(.minutes(3)), .hangGuard) func createsUser() async throws {
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

@Test(.timeLimit(.minutes(3)), .hangGuard) func listsRepositories() async throws {
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

// README: "Streaming responses"
@Test(.timeLimit(.minutes(3)), .hangGuard) func streamingResponsesExample() async throws {
    let registry = MockRegistry()
    registry.register(
        .get("/v1/chat"),
        respond: .events(
            [  // text/event-stream, no-cache
                ServerSentEvent(event: "token", data: "Hel", id: "1"),
                ServerSentEvent(event: "token", data: "lo", id: "2"),
                ServerSentEvent(data: "first line\nsecond line", retry: 3000),
                ServerSentEvent(comment: "keep-alive"),
            ], interval: .milliseconds(50)))  // the first at once, then every 50 ms

    registry.register(
        .get("/feed"),
        respond: .stream(
            [
                .text("{\"n\":1}\n"),
                .text("{\"n\":2}\n", after: .milliseconds(200)),  // the pause before this piece
            ], contentType: "application/x-ndjson"))

    // Computed per request: from any AsyncSequence of StreamChunk, pulled as the body goes out...
    registry.register(
        .get("/count/<n>"),
        respond: .stream(contentType: "text/plain") { _, captures in
            AsyncStream { continuation in
                for n in 1...max(1, Int(captures["n"] ?? "") ?? 3) {
                    continuation.yield(StreamChunk.text("\(n)\n", after: .milliseconds(10)))
                }
                continuation.finish()
            }
        })
    // ...or fed through a continuation: keep it (in a Mutex or an actor) to yield more pieces when
    // the test decides, and finish it to end the body.
    registry.register(
        .get("/live"),
        respond: .stream { request, captures, continuation in
            continuation.yield(.text("connected\n"))
            continuation.finish()  // (not in the README, which keeps it open)
        })

    let session = registry.makeSession()
    let events = String(decoding: try await session.data(from: url("https://api.test/v1/chat")).0, as: UTF8.self)
    #expect(
        events
            == "event: token\nid: 1\ndata: Hel\n\nevent: token\nid: 2\ndata: lo\n\n"
            + "retry: 3000\ndata: first line\ndata: second line\n\n: keep-alive\n\n")
    #expect(try await session.data(from: url("https://api.test/feed")).0 == Data("{\"n\":1}\n{\"n\":2}\n".utf8))
    #expect(try await session.data(from: url("https://api.test/count/3")).0 == Data("1\n2\n3\n".utf8))
    #expect(try await session.data(from: url("https://api.test/live")).0 == Data("connected\n".utf8))
}

// README: "In ten lines"
@Test(.timeLimit(.minutes(3)), .hangGuard) func tenLinesExample() async throws {
    let registry = MockRegistry()
    registry.register(.get("https://api.example.com/users/<id>")) { _, captures in
        .json(["id": .int(Int(captures["id"] ?? "") ?? 0), "name": .string("Ada")])
    }
    registry.register(.get("https://api.example.com/health"))  // no response given: an empty 200
    let session = registry.makeSession()  // give this to the code under test
    let (data, _) = try await session.data(from: URL(string: "https://api.example.com/users/7")!)
    // data is {"id":7,"name":"Ada"}; a request nothing matches fails, naming the nearest filter

    #expect(data == Data(#"{"id":7,"name":"Ada"}"#.utf8))
    let (health, response) = try await session.data(from: URL(string: "https://api.example.com/health")!)
    #expect(health.isEmpty)
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
}
