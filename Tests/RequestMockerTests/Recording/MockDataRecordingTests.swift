import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("Recording into a mock-data folder", .timeLimit(.minutes(3)), .hangGuard)
struct MockDataRecordingTests {
    let folder: TemporaryFolder
    let server: PythonEchoServer
    var mockData: URL { folder.url.appendingPathComponent("MockData") }

    init() async throws {
        folder = try TemporaryFolder()
        server = try await PythonEchoServer()
    }

    private func recordingFolder(_ mode: RecordMode, redaction: Redaction = .default) throws -> MockDataFolder {
        try MockDataFolder(
            mockData, allowsWildcards: false, headersInName: [], record: mode, redaction: redaction, hosts: .all,
            environment: [:])
    }

    @Test("each new response becomes a .http file under the name a lookup tries first, and answers offline")
    func recordsFiles() async throws {
        let registry = MockRegistry()
        registry.register(try recordingFolder(.newEpisodes))
        let session = registry.makeSession()
        var post = server.get("/echo/users")
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data("name=ada".utf8)
        let live = [
            try await session.data(for: server.get("/echo/users?page=2")).0, try await session.data(for: post).0,
            try await session.data(for: server.get("/login")).0,
        ]
        #expect(registry.journal.map { "\($0.disposition)" } == ["recorded", "recorded", "recorded"])
        #expect(
            registry.journal.map { $0.file?.lastPathComponent } == [
                "GET|-echo-users?page=2.http", "POST|-echo-users|name=ada.http", "GET|-login.http",
            ])

        let files = try FileManager.default.contentsOfDirectory(atPath: mockData.path).sorted()
        #expect(files == ["GET|-echo-users?page=2.http", "GET|-login.http", "POST|-echo-users|name=ada.http"])
        let login = try String(contentsOf: mockData.appendingPathComponent("GET|-login.http"), encoding: .utf8)
        #expect(login.hasPrefix("HTTP/1.1 200 OK\n"))
        #expect(login.contains("\nSet-Cookie: REDACTED\n"))
        #expect(!login.contains("Content-Length"))
        // The secrets in the live body (`token`, `password`) are hidden by default.
        #expect(text(live[2]).contains("hunter2"))
        let redactedLogin = #"{"token":"REDACTED","user":{"name":"ada","password":"REDACTED"}}"#
        #expect(login.hasSuffix("\n\n" + redactedLogin))

        server.stop()
        let offline = MockRegistry()
        offline.register(try MockDataFolder(mockData))
        let replay = offline.makeSession()
        #expect(try await replay.data(for: server.get("/echo/users?page=2")).0 == live[0])
        #expect(try await replay.data(for: post).0 == live[1])
        let (body, response) = try await replay.data(for: server.get("/login"))
        #expect(text(body) == redactedLogin)
        #expect(response.header("Set-Cookie") == "REDACTED")
        #expect(response.header("Content-Length") == String(redactedLogin.utf8.count))
    }

    @Test("a recording whose name is near the 255-byte limit is written under that name")
    func longNames() async throws {
        let registry = MockRegistry()
        registry.register(try recordingFolder(.newEpisodes))
        var post = server.get("/echo/long")
        post.httpMethod = "POST"
        post.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(("name=" + String(repeating: "a", count: 220)).utf8)
        _ = try await registry.makeSession().data(for: post)
        let name = "POST|-echo-long|name=" + String(repeating: "a", count: 220) + ".http"
        #expect(name.utf8.count == 246)
        // Before: the temporary file's name, built from this one, was over the limit.
        #expect(try FileManager.default.contentsOfDirectory(atPath: mockData.path) == [name])
    }

    @Test("existing files answer; once records only into a folder it created; all overwrites")
    func modes() async throws {
        let created = try recordingFolder(.once)
        #expect(FileManager.default.fileExists(atPath: mockData.path))
        let registry = MockRegistry()
        registry.register(created)
        _ = try await registry.makeSession().data(for: server.get("/counter"))
        #expect(registry.journal.last.map { "\($0.disposition)" } == "recorded")

        let existing = MockRegistry()
        existing.register(try recordingFolder(.once))
        let session = existing.makeSession()
        #expect(text(try await session.data(for: server.get("/counter")).0) == #"{"count": 1}"#)
        let error = await #expect(throws: RequestMockerError.self) {
            _ = try await session.data(for: server.get("/echo/new"))
        }
        #expect("\(error.map { "\($0)" } ?? "")".contains("has none of, in lookup order: GET|-echo-new.http"))

        let rerecording = MockRegistry()
        rerecording.register(try recordingFolder(.all))
        #expect(text(try await rerecording.makeSession().data(for: server.get("/counter")).0) == #"{"count": 2}"#)
        let file = try String(contentsOf: mockData.appendingPathComponent("GET|-counter.http"), encoding: .utf8)
        #expect(file.hasSuffix(#"{"count": 2}"#))
    }

    @Test("a header in the name that redaction hides is named by its hash, never its value")
    func hashedHeaderNames() async throws {
        let directory = try MockDataFolder(
            mockData, allowsWildcards: false, headersInName: ["Authorization"], record: .newEpisodes,
            redaction: .default, hosts: .all, environment: [:])
        let registry = MockRegistry()
        registry.register(directory)
        var request = server.get("/echo/me")
        request.setValue("Token secret", forHTTPHeaderField: "Authorization")
        let live = try await registry.makeSession().data(for: request).0
        let names = try FileManager.default.contentsOfDirectory(atPath: mockData.path)
        #expect(names.count == 1)
        #expect(names.allSatisfy { !$0.contains("secret") && $0.hasPrefix("GET|-echo-me|") })
        let candidates = directory.candidateFileNames(for: MockRequest(request))
        #expect(names.first == candidates[2], "the header-hash name, after the raw name's .http and .json")
        server.stop()
        #expect(try await registry.makeSession().data(for: request).0 == live)
    }

    @Test("a missing folder in a mode that doesn't record is an error; a transport error is not written")
    func edges() async throws {
        #expect(throws: RequestMockerError.self) { try recordingFolder(.none) }
        let registry = MockRegistry()
        registry.register(try recordingFolder(.newEpisodes))
        let error = await #expect(throws: URLError.self) {
            _ = try await registry.makeSession().data(for: URLRequest(url: url("http://127.0.0.1:9/down")))
        }
        #expect(error?.code == .cannotConnectToHost)
        #expect(try FileManager.default.contentsOfDirectory(atPath: mockData.path) == [])
    }
}
