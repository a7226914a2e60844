import Foundation
import Testing

/// A Swift Testing trait that plays back, and records, a cassette named after the test:
/// `__Cassettes__/<TestFile>/<testName>.har` beside the test's source file.
///
/// The first run records the real traffic (in the default `.once` mode); later runs play it
/// back offline. The cassette answers only what the test's own filters don't, so stubs you
/// register win over recordings:
///
/// ```swift
/// @Test(.cassette()) func loadsRepositories() async throws {
///     let repositories = try await GitHubClient(session: MockRegistry.current.session).repositories(of: "swiftlang")
///     #expect(!repositories.isEmpty)
/// }
/// // REQUEST_MOCKER_RECORD_MODE=all swift test   re-records every cassette
/// ```
///
/// The trait gives the test a registry of its own, as ``MockingTrait`` does (with the same
/// reports at the end), or uses the one an outer `.mocking` trait made. The cassette is saved
/// when the test ends, unless the test failed (an issue was recorded, it threw, or the registry
/// has findings to report, such as an unmatched request), so a recording made while something was
/// wrong doesn't become the fixture every later run replays; `savesWhenTestFails: true` saves it
/// anyway. Cases of a parameterized test share their test's cassette, and one failing case keeps
/// it from being saved. Before Swift 6.3 only a thrown error or a finding counts as failing.
///
/// Keep the cassettes in git, and tell SwiftPM they aren't sources: `exclude: ["__Cassettes__"]`
/// in the test target.
public struct CassetteTrait: TestTrait, SuiteTrait, TestScoping {
    let name: String?
    let directory: URL?
    let options: TestCassettes.Options

    /// Applies to every test of a suite, each with its own cassette.
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> CassetteTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let cassette = try TestCassettes.cassette(
            ofTest: test.name, in: test.sourceLocation.filePath, named: name, directory: directory,
            owner: "\(test.id)", options: options
        )
        try await TestRegistryScope.run(unmatchedPolicy: .fail, reportingAt: test.sourceLocation, configure: nil) {
            registry in
            let handle = registry.registerFallback(cassette)
            defer {
                registry.remove(handle)
                do {
                    try TestCassettes.saveAtEndOfTest(cassette, registry: registry, options: options)
                } catch {
                    MockingIssue.record("\(error)", at: .test(test.sourceLocation))
                }
            }
            do {
                #if compiler(>=6.3)
                    // Sees every issue the test records, to know whether it failed
                    // (`Issue.isFailure` is Swift 6.3's; before it, only a thrown error counts).
                    let watching = IssueHandlingTrait.compactMapIssues { issue in
                        if issue.isFailure { TestCassettes.markFailed(cassette) }
                        return issue
                    }
                    try await watching.provideScope(for: test, testCase: testCase, performing: function)
                #else
                    try await function()
                #endif
            } catch {
                TestCassettes.markFailed(cassette)
                throw error
            }
        }
    }
}

extension Trait where Self == CassetteTrait {
    /// Plays back and records `__Cassettes__/<TestFile>/<testName>.har`; see ``CassetteTrait``.
    ///
    /// ```swift
    /// @Test(.cassette()) func loadsProfile() async throws { ... }
    /// @Test(.cassette(record: .none)) func neverTouchesTheNetwork() async throws { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - record: when to record; ``RecordMode/automatic`` by default (`once`, or `none` when
    ///     the `CI` environment variable is set); `REQUEST_MOCKER_RECORD_MODE` overrides it, as
    ///     it does for every cassette, so a developer can re-record everything with `all`.
    ///   - name: the file name instead of the test's name (`.har` is added when missing).
    ///   - directory: where `__Cassettes__` goes instead of beside the test file.
    ///   - playback: how fast recordings answer; see ``PlaybackMode``.
    ///   - matchers: what a recording must share with a request; ``CassetteMatcher/default``.
    ///   - redaction: what is hidden before writing; ``Redaction/default``.
    ///   - recordsErrors: save a new cassette that recorded only transport errors (by default it
    ///     isn't written, so a first run without network doesn't become the fixture).
    ///   - savesWhenTestFails: save what the test recorded even when it failed.
    public static func cassette(
        record: RecordMode = .automatic,
        named name: String? = nil,
        in directory: URL? = nil,
        playback: PlaybackMode = .momentary,
        matchers: [CassetteMatcher] = CassetteMatcher.default,
        redaction: Redaction = .default,
        recordsErrors: Bool = false,
        savesWhenTestFails: Bool = false
    ) -> Self {
        CassetteTrait(
            name: name,
            directory: directory,
            options: .init(
                record: record, playback: playback, matchers: matchers, redaction: redaction,
                recordsErrors: recordsErrors, savesWhenTestFails: savesWhenTestFails)
        )
    }
}
