import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Record against Python's `http.server`, stop it, play back.
@Suite("Cassette recording and playback", .timeLimit(.minutes(3)), .hangGuard)
struct CassetteTests {
    let folder: TemporaryFolder
    let server: PythonEchoServer
    var file: URL { folder.url.appendingPathComponent("Cassettes/traffic.har") }

    init() async throws {
        folder = try TemporaryFolder()
        server = try await PythonEchoServer()
    }

    func request(
        _ path: String, method: String = "GET", body: String? = nil, headers: [String: String] = [:]
    ) -> URLRequest {
        var request = URLRequest(url: url(server.baseURL + path))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    @Test("record once, then replay offline: bodies, order of identical requests, and a valid HAR file")
    func recordThenReplay() async throws {
        let recording = MockRegistry()
        let recorder = try openCassette(file)
        #expect(recorder.isNew)
        let recorded = try await recording.withCassette(recorder) { session in
            var bodies: [String] = []
            for request in [
                request("/echo/a?x=1&y=2"), request("/echo/b", method: "POST", body: #"{"name":"ada"}"#),
                request("/counter"), request("/counter"),
            ] {
                bodies.append(text(try await session.data(for: request).0))
            }
            #expect(!FileManager.default.fileExists(atPath: file.path), "nothing is written before the end")
            return bodies
        }
        #expect(recorded[2] == #"{"count": 1}"#)
        #expect(recorded[3] == #"{"count": 2}"#)
        #expect(recording.journal.map { "\($0.disposition)" } == Array(repeating: "recorded", count: 4))
        #expect(recording.journal.first?.file == file)

        let har = try JSONValue(parsing: Data(contentsOf: file))
        #expect(harProblems(har) == [])
        #expect(har["log"]?["version"] == "1.2")
        #expect(har["log"]?["creator"]?["name"] == "RequestMocker")
        #expect(har["log"]?["entries"]?[1]?["request"]?["postData"]?["text"] == #"{"name":"ada"}"#)
        #expect(
            har["log"]?["entries"]?[0]?["request"]?["queryString"] == [
                ["name": "x", "value": "1"], ["name": "y", "value": "2"],
            ])
        #expect(har["log"]?["entries"]?[0]?["response"]?["statusText"] == "OK")

        server.stop()
        let playing = MockRegistry()
        let player = try openCassette(file)
        #expect(!player.isNew)
        #expect(player.interactions.count == 4)
        let replayed = try await playing.withCassette(player) { session in
            var bodies: [String] = []
            // Query order doesn't matter to the default matchers.
            for request in [
                request("/echo/a?y=2&x=1"), request("/counter"), request("/counter"),
                request("/echo/b", method: "POST", body: "ignored: body is not matched by default"),
            ] {
                bodies.append(text(try await session.data(for: request).0))
            }
            return bodies
        }
        #expect(replayed == [recorded[0], recorded[2], recorded[3], recorded[1]])
        #expect(player.allPlayed)
        #expect(playing.journal.map(\.entryIndex) == [0, 2, 3, 1])
        #expect(player.hasUnsavedChanges == false)
    }

    @Test("a request with no recording fails with the nearest recording and the matcher that differed")
    func unmatchedReport() async throws {
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        try await registry.withCassette(try openCassette(file)) { session in
            _ = try await session.data(for: request("/items?page=1"))
            _ = try await session.data(for: request("/counter"))
        }
        let cassette = try openCassette(file)
        registry.register(cassette)
        let session = registry.makeSession()
        let error = await #expect(throws: RequestMockerError.self) {
            _ = try await session.data(for: request("/items?page=2"))
        }
        let report = try #require(error.flatMap { if case .unmatched(let report) = $0 { report } else { nil } })
        let note = try #require(report.notes.first)
        #expect(
            note.hasPrefix(
                "cassette \(file.path) (mode once, 2 recordings, 0 played) has no recording for it; "
                    + "nearest is entry 0 (GET \(server.baseURL)/items?page=1), "
                    + "whose query differs: recorded \"page=1\", request has \"page=2\""
            ))
        #expect(
            note.hasSuffix(
                "mode once records only into a new file, so delete it to record again, "
                    + "or run with REQUEST_MOCKER_RECORD_MODE=new_episodes"
            ))

        _ = try await session.data(for: request("/counter"))
        let again = await #expect(throws: RequestMockerError.self) {
            _ = try await session.data(for: request("/counter"))
        }
        #expect(
            "\(again.map { "\($0)" } ?? "")".contains(
                "has answered this request already: entry 1 (GET \(server.baseURL)/counter) matches, "
                    + "and each recording answers once"
            ))
    }

    @Test("repeatsLastResponse keeps answering with the last matching recording")
    func repeatsLast() async throws {
        try await MockRegistry().withCassette(try openCassette(file)) { session in
            for _ in 0..<2 { _ = try await session.data(for: request("/counter")) }
        }
        server.stop()
        let registry = MockRegistry()
        registry.register(try openCassette(file, repeatsLastResponse: true))
        let session = registry.makeSession()
        var counts: [String] = []
        for _ in 0..<4 { counts.append(text(try await session.data(for: request("/counter")).0)) }
        #expect(counts == [#"{"count": 1}"#, #"{"count": 2}"#, #"{"count": 2}"#, #"{"count": 2}"#])
    }

    @Test("identical requests in parallel each get a different recording")
    func parallelIdenticalRequests() async throws {
        try await MockRegistry().withCassette(try openCassette(file)) { session in
            for _ in 0..<20 { _ = try await session.data(for: request("/counter")) }
        }
        let registry = MockRegistry()
        registry.register(try openCassette(file))
        let session = registry.makeSession()
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask {
                    try JSONValue(parsing: try await session.data(for: request("/counter")).0)["count"]?.intValue ?? 0
                }
            }
            return try await group.reduce(into: Set<Int>()) { $0.insert($1) }
        }
        #expect(counts == Set(1...20))
    }

    @Test("redaction hides credentials in the file, and the redacted recording still matches")
    func redaction() async throws {
        let redaction = Redaction.default.queryParameter("api_key").bodyKey("token").bodyKey("password", .remove)
            .header("X-Test")
        let login = request(
            "/login?api_key=k-123&user=ada",
            headers: [
                "Authorization": "Bearer live-credential", "Cookie": "session=live", "X-Test": "private",
            ])
        let live = try await MockRegistry().withCassette(try openCassette(file, redaction: redaction)) { session in
            try await session.data(for: login)
        }
        #expect(text(live.0).contains("secret-token"), "the caller gets the real response")
        #expect(live.1.header("Set-Cookie") == "session=abc123; Path=/; HttpOnly")

        let written = try String(contentsOf: file, encoding: .utf8)
        for secret in ["live-credential", "session=live", "private", "k-123", "secret-token", "hunter2", "abc123"] {
            #expect(!written.contains(secret), "\(secret) was written")
        }
        let har = try JSONValue(parsing: Data(written.utf8))
        let entry = try #require(har["log"]?["entries"]?[0])
        #expect(entry["request"]?["url"] == .string(server.baseURL + "/login?api_key=REDACTED&user=ada"))
        #expect(
            entry["request"]?["headers"]?.arrayContains(["name": "Authorization", "value": "Bearer REDACTED"]) == true)
        #expect(entry["request"]?["cookies"] == [])
        #expect(entry["response"]?["headers"]?.arrayContains(["name": "Set-Cookie", "value": "REDACTED"]) == true)
        #expect(entry["response"]?["content"]?["text"] == #"{"token":"REDACTED","user":{"name":"ada"}}"#)

        server.stop()
        let registry = MockRegistry()
        registry.register(
            try openCassette(
                file, matchers: CassetteMatcher.default + [.headers("Authorization", "X-Test")], redaction: redaction))
        let (replayed, _) = try await registry.makeSession().data(for: login)
        #expect(text(replayed) == #"{"token":"REDACTED","user":{"name":"ada"}}"#)
    }

    @Test("the hooks change or drop what is written")
    func hooks() async throws {
        let redaction = Redaction.default
            .path { $0.replacingOccurrences(of: "/users/ada", with: "/users/someone") }
            .beforeRecordRequest { $0.url.path.hasPrefix("/health") ? nil : $0 }
            .beforeRecordResponse { response, request in
                request.url.path.hasPrefix("/echo/skip")
                    ? nil
                    : RecordedResponse(
                        status: response.status, headers: ["X-Rewritten": "yes"], body: Data("short".utf8))
            }
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        try await registry.withCassette(try openCassette(file, redaction: redaction)) { session in
            _ = try await session.data(for: request("/echo/users/ada"))
            _ = try await session.data(for: request("/echo/skip"))
            _ = try await session.data(for: request("/health"))
        }
        #expect(registry.journal.map { "\($0.disposition)" } == ["recorded", "recorded", "passedThrough"])
        let cassette = try openCassette(file, redaction: redaction)
        #expect(cassette.interactions.map(\.request.url.path) == ["/echo/users/someone"])
        #expect(
            cassette.interactions.first?.response
                == RecordedResponse(status: 200, headers: ["X-Rewritten": "yes"], body: Data("short".utf8)))
        server.stop()
        let player = MockRegistry()
        player.register(cassette)
        let (body, _) = try await player.makeSession().data(for: request("/echo/users/ada"))
        #expect(text(body) == "short")
    }

    @Test("the host filter limits what a cassette records and plays")
    func hostFilter() async throws {
        let registry = MockRegistry()
        let cassette = try openCassette(file, hosts: .only(["api.example.com", "*.example.org"]))
        registry.register(cassette)
        await #expect(throws: RequestMockerError.self) {
            _ = try await registry.makeSession().data(for: request("/echo/ignored"))
        }
        #expect(cassette.interactions.isEmpty)
        #expect(registry.journal.first?.isUnmatched == true)
        #expect(try cassette.save() == false)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("transport errors are recorded (when asked to) and replayed as the same URLError, saying from where")
    func transportErrors() async throws {
        let unreachable = URLRequest(url: url("http://127.0.0.1:9/nothing-listens-here"))
        let recordedError = await #expect(throws: URLError.self) {
            try await MockRegistry().withCassette(try openCassette(file, recordsErrors: true)) { session in
                _ = try await session.data(for: unreachable)
            }
        }
        #expect(recordedError?.code == .cannotConnectToHost)
        let har = try JSONValue(parsing: Data(contentsOf: file))
        #expect(harProblems(har) == [])
        #expect(har["log"]?["entries"]?[0]?["response"]?["status"] == 0)
        #expect(
            har["log"]?["entries"]?[0]?["response"]?["_error"]?["code"]
                == .int(URLError.Code.cannotConnectToHost.rawValue))

        let registry = MockRegistry()
        registry.register(try openCassette(file, record: .none))
        let replayedError = await #expect(throws: URLError.self) {
            _ = try await registry.makeSession().data(for: unreachable)
        }
        #expect(replayedError?.code == .cannotConnectToHost)
        #expect(replayedError?.failingURL?.absoluteString == "http://127.0.0.1:9/nothing-listens-here")
        #expect(replayedError?.localizedDescription.hasSuffix("(replayed from \(file.path), entry 0)") == true)
    }

    @Test("a first recording that is all transport errors isn't saved, so the next run records again")
    func firstRecordingOfErrorsOnly() async throws {
        let unreachable = URLRequest(url: url("http://127.0.0.1:9/nothing-listens-here"))
        let cassette = try openCassette(file)
        await #expect(throws: URLError.self) {
            try await MockRegistry().withCassette(cassette) { session in _ = try await session.data(for: unreachable) }
        }
        #expect(cassette.interactions.count == 1)
        #expect(try cassette.save() == false)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // One real answer among the errors, and it is saved, errors and all.
        let mixed = try openCassette(file)
        try await MockRegistry().withCassette(mixed) { session in
            _ = try? await session.data(for: unreachable)
            _ = try await session.data(for: request("/json"))
        }
        #expect(try openCassette(file, record: .none).interactions.count == 2)
    }

    @Test("a recorded ?debug answers ?debug, never ?debug=, and the other way round")
    func aNameAloneIsNotAnEmptyValue() async throws {
        let recorded = try await MockRegistry().withCassette(try openCassette(file)) { session in
            (
                text(try await session.data(for: request("/echo/flags?debug")).0),
                text(try await session.data(for: request("/echo/other?debug=")).0)
            )
        }
        let replay = MockRegistry()
        replay.register(try openCassette(file, record: .none))
        let session = replay.makeSession()
        #expect(text(try await session.data(for: request("/echo/flags?debug")).0) == recorded.0)
        #expect(text(try await session.data(for: request("/echo/other?debug=")).0) == recorded.1)
        for path in ["/echo/flags?debug=", "/echo/other?debug"] {
            let error = await #expect(throws: RequestMockerError.self, "\(path)") {
                _ = try await session.data(for: request(path))
            }
            guard case .unmatched(let report) = error else {
                Issue.record("\(path): \(String(describing: error))")
                continue
            }
            if path == "/echo/flags?debug=" {
                #expect(
                    report.notes.first?.hasSuffix(#"whose query differs: recorded "debug", request has "debug=""#)
                        == true,
                    "\(report)")
            }
        }
    }

    @Test("the default mode is once, and none where CI is set; an explicit mode or the variable wins")
    func ciDefault() throws {
        func mode(_ record: RecordMode, _ environment: [String: String]) throws -> RecordMode {
            try Cassette(
                contentsOf: file, record: record, playback: .momentary, matchers: CassetteMatcher.default,
                redaction: .default, hosts: .all, repeatsLastResponse: false, environment: environment
            ).recordMode
        }
        #expect(try mode(.automatic, [:]) == .once)
        // A CI server doesn't record, so a cassette it can't find is an error when opened.
        let missing = #expect(throws: RequestMockerError.self) { try mode(.automatic, ["CI": "true"]) }
        #expect(
            missing?.description
                == "cassette \(file.path) does not exist, and record mode none (automatic, with the CI environment "
                + "variable set) only plays back; check the path, or record it once: "
                + "REQUEST_MOCKER_RECORD_MODE=once swift test (or record: .once)")
        try FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(#"{"log": {"version": "1.2", "entries": []}}"#.utf8).write(to: file)
        #expect(try mode(.automatic, ["CI": "true"]) == .none)
        #expect(try mode(.automatic, ["CI": "1"]) == .none)
        #expect(try mode(.automatic, ["CI": "false"]) == .once)
        #expect(try mode(.once, ["CI": "true"]) == .once)
        #expect(try mode(.automatic, ["CI": "true", "REQUEST_MOCKER_RECORD_MODE": "all"]) == .all)
    }

    @Test("redirects are recorded hop by hop and replayed offline")
    func redirects() async throws {
        let live = try await MockRegistry().withCassette(try openCassette(file)) { session in
            try await session.data(for: request("/redirect"))
        }
        let cassette = try openCassette(file)
        #expect(
            cassette.interactions.map { "\($0.request.url.path) \($0.response?.status.code ?? 0)" } == [
                "/redirect 302", "/echo/after-redirect 200",
            ])
        server.stop()
        let registry = MockRegistry()
        registry.register(cassette)
        let (body, response) = try await registry.makeSession().data(for: request("/redirect"))
        #expect(body == live.0)
        #expect(response.url?.path == "/echo/after-redirect")
    }

    @Test(
        "binary bodies are base64 in the file; compressed ones are stored decoded and replayed without Content-Encoding"
    )
    func bodies() async throws {
        try await MockRegistry().withCassette(try openCassette(file)) { session in
            _ = try await session.data(for: request("/binary"))
            _ = try await session.data(for: request("/gzip"))
        }
        let har = try JSONValue(parsing: Data(contentsOf: file))
        let binary = try #require(har["log"]?["entries"]?[0]?["response"]?["content"])
        #expect(binary["encoding"] == "base64")
        #expect(binary["text"] == .string(Data(0...255).base64EncodedString()))
        #expect(binary["size"] == 256)
        let compressed = try #require(har["log"]?["entries"]?[1]?["response"])
        #expect(compressed["content"]?["text"] == #"{"compressed":true}"#)
        #expect(compressed["headers"]?.arrayContains(["name": "Content-Encoding", "value": "gzip"]) == true)

        server.stop()
        let registry = MockRegistry()
        registry.register(try openCassette(file))
        let session = registry.makeSession()
        #expect(try await session.data(for: request("/binary")).0 == Data(0...255))
        let (decoded, response) = try await session.data(for: request("/gzip"))
        #expect(text(decoded) == #"{"compressed":true}"#)
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("Content-Length") == "19")
    }
}
