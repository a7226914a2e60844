import Foundation
import RequestMockerServer
import RequestMockerTestSupport
import Testing

@testable import RequestMockerTesting

@Suite(.timeLimit(.minutes(3)), .hangGuard) struct CassetteTraitTests {
    // Plays back __Cassettes__/CassetteTraitTests/playsBackTheCassetteNamedAfterIt.har.
    @Test(.cassette(record: .none)) func playsBackTheCassetteNamedAfterIt() async throws {
        let session = MockRegistry.current.session
        #expect(try await get("https://api.profile.test/me", through: session).body == #"{"name":"Ada","plan":"pro"}"#)
        #expect(try await get("https://api.profile.test/settings", through: session).body == #"{"theme":"dark"}"#)
        #expect(MockRegistry.current.journal.map(\.entryIndex) == [0, 1])
    }

    @Test(
        .mocking { $0.register(.get("https://api.profile.test/me"), respond: .json(["name": "Stub"])) },
        .cassette(record: .none))
    func filtersTheTestRegistersWinOverTheCassette() async throws {
        let session = MockRegistry.current.session
        // Registered after the cassette, and still tried first.
        MockRegistry.current.register(.get("https://api.profile.test/settings"), respond: .json(["theme": "light"]))
        #expect(try await get("https://api.profile.test/me", through: session).body == #"{"name":"Stub"}"#)
        #expect(try await get("https://api.profile.test/settings", through: session).body == #"{"theme":"light"}"#)
        #expect(MockRegistry.current.journal.allSatisfy { $0.file == nil })
    }

    @Test func recordsIntoAFileNamedAfterTheTestAndSavesItWhenTheTestEnds() async throws {
        let test = try #require(Test.current)
        try await withRecordingSetup { directory, server, base in
            let trait = CassetteTrait.cassette(record: .once, in: directory)
            try await trait.provideScope(for: test, testCase: Test.Case.current) {
                let answer = try await get(base.absoluteString + "/greeting", through: MockRegistry.current.session)
                #expect(answer.body == #"{"hello":"world"}"#)
                #expect(MockRegistry.current.journal.map(\.disposition.isRecorded) == [true])
            }

            let file = directory.appendingPathComponent(
                "__Cassettes__/CassetteTraitTests/recordsIntoAFileNamedAfterTheTestAndSavesItWhenTheTestEnds.har"
            )
            server.stop()
            let replay = MockRegistry()
            replay.register(try Cassette(contentsOf: file, record: .none))
            let replayed = try await get(base.absoluteString + "/greeting", through: replay.session)
            #expect(replayed.status == 200)
            #expect(replayed.body == #"{"hello":"world"}"#)
        }
    }

    @Test func aMissingPlaybackOnlyCassetteFailsTheTestBeforeItRuns() async throws {
        let test = try #require(Test.current)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("RequestMockerTestingTests-\(UUID().uuidString)", isDirectory: true)
        let trait = CassetteTrait.cassette(record: .none, named: "typo", in: directory)
        let ran = LockedState(false)
        let error = await #expect(throws: RequestMockerError.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.withLock { $0 = true } }
        }
        #expect(
            error?.description
                == "cassette \(directory.path)/__Cassettes__/CassetteTraitTests/typo.har does not exist, and record "
                + "mode none only plays back; check the path, or record it once: "
                + "REQUEST_MOCKER_RECORD_MODE=once swift test (or record: .once)")
        #expect(ran.withLock { $0 } == false)
    }

    @Test(arguments: [false, true])
    func aTestThatFailsSavesNothingUnlessAsked(savesWhenTestFails: Bool) async throws {
        let test = try #require(Test.current)
        try await withRecordingSetup { directory, _, base in
            let trait = CassetteTrait.cassette(
                record: .once, named: "failing-\(savesWhenTestFails)", in: directory,
                savesWhenTestFails: savesWhenTestFails)
            await #expect(throws: CancellationError.self) {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    _ = try await get(base.absoluteString + "/greeting", through: MockRegistry.current.session)
                    throw CancellationError()  // the test fails here, after recording
                }
            }
            let file = directory.appendingPathComponent(
                "__Cassettes__/CassetteTraitTests/failing-\(savesWhenTestFails).har")
            #expect(FileManager.default.fileExists(atPath: file.path) == savesWhenTestFails)
        }
    }

    @Test func aTestWithFindingsToReportSavesNothing() async throws {
        let test = try #require(Test.current)
        try await withRecordingSetup { directory, _, base in
            let trait = CassetteTrait.cassette(record: .once, named: "findings", in: directory)
            await withKnownIssue {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    _ = try await get(base.absoluteString + "/greeting", through: MockRegistry.current.session)
                    // A filter that never answers: the end-of-test report will say so.
                    MockRegistry.current.register(.get("https://api.test/<id>"), respond: .status(200))
                    MockRegistry.current.register(.get("https://api.test/7"), respond: .status(404))
                }
            }
            let file = directory.appendingPathComponent("__Cassettes__/CassetteTraitTests/findings.har")
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func aFailedExpectationCountsAsAFailedTest() async throws {
        let test = try #require(Test.current)
        try await withRecordingSetup { directory, _, base in
            let trait = CassetteTrait.cassette(record: .once, named: "expectation", in: directory)
            // The failing expectation is dropped outside the trait, so this test doesn't fail; the
            // trait, inside, sees it first.
            let dropping = IssueHandlingTrait.filterIssues { _ in false }
            try await dropping.provideScope(for: test, testCase: Test.Case.current) {
                try await trait.provideScope(for: test, testCase: Test.Case.current) {
                    _ = try await get(base.absoluteString + "/greeting", through: MockRegistry.current.session)
                    Issue.record("an expectation failed after recording")
                }
            }
            let file = directory.appendingPathComponent("__Cassettes__/CassetteTraitTests/expectation.har")
            #expect(!FileManager.default.fileExists(atPath: file.path))
        }
    }

    @Test func twoTestsCantShareACassette() throws {
        let file = URL(fileURLWithPath: "/nonexistent/__Cassettes__/Shared/name.har")
        _ = try TestCassettes.cassette(at: file, owner: "First.test()") { try Cassette(contentsOf: $0, record: .once) }
        let again = try TestCassettes.cassette(at: file, owner: "First.test()") { _ in
            Issue.record("opened a second time")
            return try Cassette(contentsOf: file, record: .once)
        }
        #expect(again.url == file)
        #expect {
            try TestCassettes.cassette(at: file, owner: "Second.test()") { try Cassette(contentsOf: $0, record: .once) }
        } throws: { error in
            "\(error)" == "the cassette /nonexistent/__Cassettes__/Shared/name.har is already used by First.test(), "
                + "so Second.test() can't use it too: give one of them its own name with .cassette(named: \"…\")"
        }
    }

    @Test(arguments: [
        ("loadsProfile()", "loadsProfile.har"),
        ("loads(user:)", "loads(user_).har"),
        ("UsersTests.testLoads", "testLoads.har"),
        ("-[UsersTests testLoads]", "testLoads.har"),
        ("with space/and slash", "with_space_and_slash.har"),
        ("", "unnamed.har"),
    ])
    func fileNamesComeFromTestNames(name: String, fileName: String) {
        #expect(TestCassettes.fileName(forTest: name) == fileName)
    }

    @Test func theFolderIsBesideTheTestFile() {
        let folder = TestCassettes.folder(forTestFile: "/work/Tests/AppTests/ProfileTests.swift", in: nil)
        #expect(folder.path == "/work/Tests/AppTests/__Cassettes__/ProfileTests")
        let elsewhere = TestCassettes.folder(
            forTestFile: "/work/Tests/AppTests/ProfileTests.swift", in: URL(fileURLWithPath: "/fixtures"))
        #expect(elsewhere.path == "/fixtures/__Cassettes__/ProfileTests")
    }
}

extension JournalEntry.Disposition {
    var isRecorded: Bool {
        if case .recorded = self { true } else { false }
    }
}

/// A folder for cassettes and a real server with `GET /greeting`, for a test that records,
/// removed and stopped when `body` returns (a test may stop the server earlier).
private func withRecordingSetup(
    _ body: (_ directory: URL, _ server: MockServer, _ base: URL) async throws -> Void
) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("RequestMockerTestingTests-\(UUID().uuidString)", isDirectory: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let origin = MockRegistry()
    origin.register(.get("/greeting"), respond: .json(["hello": "world"]))
    let server = MockServer(registry: origin)
    let base = try server.start()
    defer { server.stop() }
    try await body(directory, server, base)
}
