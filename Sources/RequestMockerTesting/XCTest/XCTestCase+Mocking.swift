import Foundation
import XCTest

extension XCTestCase {
    /// A ``MockRegistry`` for this test alone, checked when the test ends: no `tearDown` needed.
    ///
    /// XCTest makes a new instance of the test class for every test method, so a registry
    /// made in `setUp` (or in the test) belongs to that one test:
    ///
    /// ```swift
    /// final class UsersTests: XCTestCase {
    ///     private var mocks: MockRegistry!
    ///
    ///     override func setUp() {
    ///         super.setUp()
    ///         mocks = mockRegistry()
    ///         mocks.register(.get("https://api.test/users/7"), respond: .json(["id": 7, "name": "Ada"]))
    ///     }
    ///
    ///     func testLoadsUser() async throws {
    ///         let user = try await UsersClient(session: mocks.session).user(7)
    ///         XCTAssertEqual(user.name, "Ada")
    ///     }
    /// }
    /// ```
    ///
    /// When the test ends (in a teardown block, before `tearDown()`), each request no filter
    /// matched is reported with `XCTFail` at the line that called `mockRegistry()`, and each
    /// filter marked ``RequestFilter/expected(fileID:filePath:line:column:)`` that nothing
    /// matched at the line that marked it. The registry's session is invalidated when the
    /// registry goes away.
    ///
    /// - Parameter unmatchedPolicy: what happens to requests no filter matches; `.fail` (and
    ///   reported) by default.
    public func mockRegistry(
        unmatchedPolicy: UnmatchedRequestPolicy = .fail,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> MockRegistry {
        let registry = MockRegistry(unmatchedPolicy: unmatchedPolicy)
        let place = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        addTeardownBlock {
            EndOfTestReport(registry).record(atTest: .code(place))
        }
        return registry
    }

    /// Registers a cassette named after this test into `registry`, and saves it when the test
    /// ends: `__Cassettes__/<TestFile>/<testMethod>.har` beside the file that calls this.
    ///
    /// ```swift
    /// func testLoadsRepositories() async throws {
    ///     let mocks = mockRegistry()
    ///     try cassette(in: mocks)   // __Cassettes__/GitHubClientTests/testLoadsRepositories.har
    ///     let repositories = try await GitHubClient(session: mocks.session).repositories(of: "swiftlang")
    ///     XCTAssertFalse(repositories.isEmpty)
    /// }
    /// ```
    ///
    /// The cassette answers only what the registry's filters don't, whenever they were
    /// registered. A failure to save is reported with `XCTFail` at this call.
    ///
    /// - Parameters:
    ///   - registry: the registry to play back into and record from.
    ///   - record: when to record; ``RecordMode/automatic`` by default (`once`, or `none` when
    ///     the `CI` environment variable is set); `REQUEST_MOCKER_RECORD_MODE` overrides it.
    ///   - name: the file name instead of the test method's (`.har` is added when missing).
    ///   - directory: where `__Cassettes__` goes instead of beside the calling file.
    ///   - playback: how fast recordings answer; see ``PlaybackMode``.
    ///   - matchers: what a recording must share with a request; ``CassetteMatcher/default``.
    ///   - redaction: what is hidden before writing; ``Redaction/default``.
    ///   - recordsErrors: save a new cassette that recorded only transport errors.
    ///   - savesWhenTestFails: save what the test recorded even when it failed (by default a
    ///     failed test's recordings aren't written).
    /// - Returns: the cassette, to inspect (``Cassette/allPlayed``, ``Cassette/interactions``).
    /// - Throws: the cassette's errors when the file can't be read as HAR, and
    ///   ``TestCassetteError/sharedByTwoTests(path:first:second:)``.
    @discardableResult
    public func cassette(
        in registry: MockRegistry,
        record: RecordMode = .automatic,
        named name: String? = nil,
        directory: URL? = nil,
        playback: PlaybackMode = .momentary,
        matchers: [CassetteMatcher] = CassetteMatcher.default,
        redaction: Redaction = .default,
        recordsErrors: Bool = false,
        savesWhenTestFails: Bool = false,
        fileID: String = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) throws -> Cassette {
        let options = TestCassettes.Options(
            record: record, playback: playback, matchers: matchers, redaction: redaction,
            recordsErrors: recordsErrors, savesWhenTestFails: savesWhenTestFails)
        let cassette = try TestCassettes.cassette(
            ofTest: self.name, in: "\(filePath)", named: name, directory: directory, owner: self.name,
            options: options)
        let handle = registry.registerFallback(cassette)
        let place = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let test = TeardownReference(self)
        addTeardownBlock {
            registry.remove(handle)
            // A failure recorded so far (the teardown runs after the test method).
            if (test.testCase?.testRun?.totalFailureCount ?? 0) > 0 { TestCassettes.markFailed(cassette) }
            do {
                try TestCassettes.saveAtEndOfTest(cassette, registry: registry, options: options)
            } catch {
                MockingIssue.record("\(error)", at: place)
            }
        }
        return cassette
    }
}

/// The test case, weakly, for a teardown block. Apple's XCTest takes `@Sendable @MainActor`
/// teardown blocks, and a test case isn't `Sendable`. @unchecked Sendable: the reference is
/// written once, when made, and read only by the teardown block, which XCTest runs after the
/// test's own code has finished (on the main actor on Apple platforms); loading a weak reference
/// is atomic.
private final class TeardownReference: @unchecked Sendable {
    weak var testCase: XCTestCase?

    init(_ testCase: XCTestCase) {
        self.testCase = testCase
    }
}
