import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("Record modes", .timeLimit(.minutes(3)), .hangGuard)
struct RecordModeTests {
    let folder: TemporaryFolder
    let server: PythonEchoServer
    var file: URL { folder.url.appendingPathComponent("modes.har") }

    init() async throws {
        folder = try TemporaryFolder()
        server = try await PythonEchoServer()
    }

    /// Records `/counter` once, giving a cassette with one interaction answering `{"count": 1}`.
    private func recordFirstEpisode() async throws -> Data {
        try await MockRegistry().withCassette(try openCassette(file)) { session in
            _ = try await session.data(for: server.get("/counter"))
        }
        return try Data(contentsOf: file)
    }

    private func modificationDate() throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
    }

    @Test("none plays back, never sends unmatched requests anywhere, and never writes")
    func none() async throws {
        let before = try await recordFirstEpisode()
        let written = try modificationDate()
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        let cassette = try openCassette(file, record: .none)
        registry.register(cassette)
        let session = registry.makeSession()
        #expect(text(try await session.data(for: server.get("/counter")).0) == #"{"count": 1}"#)
        await #expect(throws: RequestMockerError.self, "a cassette that doesn't record overrides pass-through") {
            _ = try await session.data(for: server.get("/echo/new"))
        }
        #expect(try cassette.save() == false)
        #expect(try Data(contentsOf: file) == before)
        #expect(try modificationDate() == written)

        // A cassette that doesn't exist can't be played back: opening it is the error, naming
        // the path and how to record it (it used to open, and every request failed "empty").
        let missing = folder.url.appendingPathComponent("never-written.har")
        let error = #expect(throws: RequestMockerError.self) { try openCassette(missing, record: .none) }
        #expect(
            error?.description
                == "cassette \(missing.path) does not exist, and record mode none only plays back; check the path, "
                + "or record it once: REQUEST_MOCKER_RECORD_MODE=once swift test (or record: .once)")
        #expect(!FileManager.default.fileExists(atPath: missing.path))
    }

    @Test("once records a new cassette and only plays back an existing one")
    func once() async throws {
        let before = try await recordFirstEpisode()
        let registry = MockRegistry()
        await #expect(throws: RequestMockerError.self) {
            try await registry.withCassette(try openCassette(file, record: .once)) { session in
                #expect(text(try await session.data(for: server.get("/counter")).0) == #"{"count": 1}"#)
                _ = try await session.data(for: server.get("/counter"))
            }
        }
        #expect(try Data(contentsOf: file) == before)
    }

    @Test("newEpisodes plays back what matches and appends what doesn't")
    func newEpisodes() async throws {
        _ = try await recordFirstEpisode()
        let registry = MockRegistry()
        let bodies = try await registry.withCassette(try openCassette(file, record: .newEpisodes)) { session in
            [
                text(try await session.data(for: server.get("/counter")).0),
                text(try await session.data(for: server.get("/counter")).0),
            ]
        }
        #expect(bodies == [#"{"count": 1}"#, #"{"count": 2}"#])
        #expect(registry.journal.map { "\($0.disposition)" } == ["answered", "recorded"])
        let cassette = try openCassette(file, record: .none)
        #expect(
            cassette.interactions.map { text($0.response?.body ?? Data()) } == [#"{"count": 1}"#, #"{"count": 2}"#])
    }

    @Test("all sends everything to the network and replaces the old content")
    func all() async throws {
        _ = try await recordFirstEpisode()
        try await MockRegistry().withCassette(try openCassette(file, record: .all)) { session in
            #expect(text(try await session.data(for: server.get("/counter")).0) == #"{"count": 2}"#)
            _ = try await session.data(for: server.get("/echo/other"))
        }
        let cassette = try openCassette(file, record: .none)
        #expect(cassette.interactions.map(\.request.url.path) == ["/counter", "/echo/other"])
        #expect(cassette.interactions.first.map { text($0.response?.body ?? Data()) } == #"{"count": 2}"#)
    }

    @Test("REQUEST_MOCKER_RECORD_MODE overrides the mode in code; a wrong value is an error")
    func environment() throws {
        func mode(_ value: String?, requested: RecordMode = .all) throws -> RecordMode {
            try Cassette(
                contentsOf: file, record: requested, playback: .momentary, matchers: [], redaction: .default,
                hosts: .all, repeatsLastResponse: false,
                environment: value.map { [RecordMode.environmentVariable: $0] } ?? [:]
            ).recordMode
        }
        #expect(try mode(nil) == .all)
        #expect(try mode("") == .all)
        try Data(#"{"log": {"version": "1.2", "entries": []}}"#.utf8).write(to: file)
        #expect(try mode("none") == .none)
        try FileManager.default.removeItem(at: file)
        let missing = #expect(throws: RequestMockerError.self) { try mode("none") }
        #expect(
            missing?.description
                == "cassette \(file.path) does not exist, and record mode none (from REQUEST_MOCKER_RECORD_MODE=none) "
                + "only plays back; check the path, or record it once: REQUEST_MOCKER_RECORD_MODE=once swift test "
                + "(or record: .once)")
        #expect(try mode("NEW_EPISODES", requested: .none) == .newEpisodes)
        #expect(try mode("new-episodes", requested: .none) == .newEpisodes)
        #expect(try mode("newEpisodes", requested: .none) == .newEpisodes)
        #expect(try mode(" once ") == .once)
        #expect(throws: RequestMockerError.self) { try mode("sometimes") }
        do {
            _ = try mode("sometimes")
        } catch {
            #expect(
                "\(error)"
                    == "REQUEST_MOCKER_RECORD_MODE=sometimes is not a record mode; "
                    + "use one of once, new_episodes, none, all, or unset it"
            )
        }
    }

    @Test("a custom mode is a plain value")
    func custom() {
        let replayOnlyNew = RecordMode(name: "replay", playsBack: true, recording: .whenNew, replacesExisting: false)
        #expect(replayOnlyNew.records(isNew: true))
        #expect(!replayOnlyNew.records(isNew: false))
        #expect(RecordMode.all.records(isNew: false))
        #expect(!RecordMode.none.records(isNew: true))
        #expect("\(RecordMode.newEpisodes)" == "new_episodes")
    }

    @Test("recordings that are never saved (a run that crashes) leave the previous cassette as it was")
    func unsavedRecordingsChangeNothing() async throws {
        let before = try await recordFirstEpisode()
        do {
            let registry = MockRegistry()
            let cassette = try openCassette(file, record: .all)
            registry.register(cassette)
            _ = try await registry.makeSession().data(for: server.get("/echo/replacement"))
            #expect(cassette.hasUnsavedChanges)
        }
        #expect(try Data(contentsOf: file) == before)
        #expect(try openCassette(file).interactions.map(\.request.url.path) == ["/counter"])
    }

    @Test("saving is deterministic and atomic: sorted keys, a final newline, no temporary files left")
    func determinism() async throws {
        _ = try await recordFirstEpisode()
        let first = try Data(contentsOf: file)
        #expect(first.last == UInt8(ascii: "\n"))
        let text = String(decoding: first, as: UTF8.self)
        let keys = ["\"cache\"", "\"request\"", "\"response\"", "\"startedDateTime\"", "\"time\"", "\"timings\""]
        let positions = keys.compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == keys.count)
        #expect(positions == positions.sorted())

        // Loading and saving again with nothing new leaves the bytes alone; appending keeps
        // every earlier byte of the entry list as it was.
        let cassette = try openCassette(file, record: .newEpisodes)
        #expect(try cassette.save() == false)
        try await MockRegistry().withCassette(cassette) { session in
            _ = try await session.data(for: server.get("/echo/second"))
        }
        let second = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        let firstEntries = text.components(separatedBy: "\"entries\": [")[1].components(separatedBy: "\n      }")[0]
        #expect(second.contains(firstEntries))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["modes.har"])
    }
}
