import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// YAHTTPVCR's cassettes play back: JSON and property lists (XML, and binary made from it),
/// with fixtures written by hand from its format.
@Suite("YAHTTPVCR cassettes", .timeLimit(.minutes(3)), .hangGuard)
struct YAHTTPVCRTests {
    static func fixture(_ name: String, _ type: String) throws -> URL {
        try #require(Bundle.module.url(forResource: name, withExtension: type, subdirectory: "Fixtures/YAHTTPVCR"))
    }

    @Test("a JSON tape: its chapters in the order their requests were recorded; a cancelled one left out")
    func chapters() throws {
        let cassette = try openCassette(Self.fixture("httpbin", "json"), record: .none)
        #expect(cassette.isYAHTTPVCR)
        let interactions = cassette.interactions
        #expect(
            interactions.map(\.request.description) == [
                "POST https://httpbin.org/post", "GET https://httpbin.org/get?page=2&sort=name",
                "GET https://httpbin.org/delay/10",
            ])
        #expect(interactions[0].request.bodyText == #"{"name": "Ada"}"#)
        #expect(interactions[0].request.headers[.contentType] == "application/json")
        #expect(interactions[0].response?.status == 200)
        #expect(interactions[0].response?.body == Data(#"{"json": {"name": "Ada"}}"#.utf8))
        #expect(interactions[1].response?.status == 404)
        guard case .failure(let error) = interactions[2].result else {
            Issue.record("the timed-out chapter isn't an error")
            return
        }
        #expect(error.code == .timedOut)
        #expect(error.localizedDescription == "The request timed out.")
    }

    @Test("played back through URLSession: the body joined from its pieces, and the recorded error saying from where")
    func playback() async throws {
        let file = try Self.fixture("httpbin", "json")
        let registry = MockRegistry()
        registry.register(try openCassette(file, record: .none))
        let session = registry.makeSession()
        var post = URLRequest(url: url("https://httpbin.org/post"))
        post.httpMethod = "POST"
        post.httpBody = Data(#"{"name": "Ada"}"#.utf8)
        let (body, response) = try await session.data(for: post)
        #expect(response.status == 200)
        #expect((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Served-By") == "httpbin")
        #expect(body == Data(#"{"json": {"name": "Ada"}}"#.utf8))
        let (missing, notFound) = try await session.data(from: url("https://httpbin.org/get?sort=name&page=2"))
        #expect(notFound.status == 404)
        #expect(missing == Data("not found".utf8))
        let error = await #expect(throws: URLError.self) {
            _ = try await session.data(from: url("https://httpbin.org/delay/10"))
        }
        #expect(error?.code == .timedOut)
        #expect(error?.localizedDescription == "The request timed out. (replayed from \(file.path), entry 2)")
    }

    @Test("a property list tape, XML and binary, plays back the same")
    func propertyLists() async throws {
        let xml = try Self.fixture("profile", "plist")
        let folder = try TemporaryFolder()
        let list = try PropertyListSerialization.propertyList(from: Data(contentsOf: xml), format: nil)
        let binary = folder.url.appendingPathComponent("profile-binary.plist")
        try PropertyListSerialization.data(fromPropertyList: list, format: .binary, options: 0).write(to: binary)
        for file in [xml, binary] {
            let registry = MockRegistry()
            registry.register(try openCassette(file, record: .none))
            let (data, response) = try await registry.makeSession().data(from: url("https://api.profile.test/me"))
            #expect(response.status == 200)
            #expect(data == Data(#"{"name":"Ada"}"#.utf8))
        }
    }

    @Test("a HAR file that mentions a property list near its top is still read as HAR")
    func harMentioningPlist() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "notes.har",
            #"{"log": {"comment": "exported from <plist> tooling", "entries": [{"request": "#
                + #"{"method": "GET", "url": "https://a.test/"}, "response": {"status": 204}}]}}"#)
        let cassette = try openCassette(file, record: .none)
        #expect(!cassette.isYAHTTPVCR)
        #expect(cassette.interactions.first?.response?.status == 204)
    }

    @Test("a mistake in a tape names the scene and why")
    func mistakes() throws {
        let folder = try TemporaryFolder()
        let cases: [(String, String)] = [
            (#"[{"id": "A", "type": 1, "data": {"status": 200}}]"#, "[0]: this chapter has no request scene (type 0)"),
            (
                #"[{"id": "A", "type": 0, "data": {"url": "https://a.test/", "method": "get"}}]"#,
                "[0]: this chapter has neither a response (type 1) nor an error (3)"
            ),
            (#"[{"id": "A", "type": 7}]"#, "[0].type: scene type 7 isn't 0 to 4"),
            (#"[{"type": 0}]"#, "[0].id: expected the chapter's id, a string"),
            (
                #"[{"id": "A", "type": 0, "data": {"url": "https://a.test/", "body": {"base64": "%%"}}}]"#,
                "[0].data.body.base64: expected data as base64"
            ),
        ]
        for (index, (text, message)) in cases.enumerated() {
            let file = try folder.write("bad-\(index).json", text)
            let error = #expect(throws: RequestMockerError.self) { try openCassette(file, record: .none) }
            guard case .invalidCassette(_, let jsonPath, let reason)? = error else { continue }
            #expect("\(jsonPath): \(reason)" == message)
        }
    }

    @Test("a binary property list holding a set or a UID is refused before Foundation parses it")
    func setsAndUIDs() throws {
        let folder = try TemporaryFolder()
        for (marker, what) in [(UInt8(0xC0), "a set"), (0x80, "a UID")] {
            // An array (object 0) holding one object (1) of the marker's kind.
            var bytes = Array("bplist00".utf8) + [0xA1, 0x01, marker]
            let table = bytes.count
            bytes += [8, 10]  // where objects 0 and 1 start
            bytes += [0, 0, 0, 0, 0, 0, 1, 1] + [0, 0, 0, 0, 0, 0, 0, 2] + [UInt8](repeating: 0, count: 8)
            bytes += [0, 0, 0, 0, 0, 0, 0, UInt8(table)]
            let file = try folder.write("tape-\(marker).plist", Data(bytes))
            let error = #expect(throws: RequestMockerError.self) { try openCassette(file, record: .none) }
            guard case .invalidCassette(_, _, let reason)? = error else { continue }
            #expect(reason == "a binary property list that holds \(what), which a YAHTTPVCR tape never does")
        }
    }

    @Test("a tape is played, never written: recording into one is a typed error that says to convert it")
    func neverWritten() async throws {
        let folder = try TemporaryFolder()
        let tape = folder.url.appendingPathComponent("httpbin.json")
        try Data(contentsOf: Self.fixture("httpbin", "json")).write(to: tape)
        let server = try await PythonEchoServer()
        defer { server.stop() }
        let cassette = try openCassette(tape, record: .newEpisodes)
        let registry = MockRegistry()
        registry.register(cassette)
        #expect(try await registry.makeSession().data(from: url(server.baseURL + "/json")).1.status == 200)
        let error = #expect(throws: RequestMockerError.self) { try cassette.save() }
        guard case .recordingNotWritable(let path, let reason)? = error else { return }
        #expect(path == tape.path)
        #expect(
            reason
                == "it is a YAHTTPVCR cassette, which RequestMocker plays back but doesn't write; convert it with "
                + "`request-mocker convert httpbin.json httpbin.har` and record into the HAR file")
    }
}
