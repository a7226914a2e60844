import Foundation

/// Where a test's cassette lives, and the cassettes open in this process.
enum TestCassettes {
    /// The folder cassettes of tests in `testFile` go in: `__Cassettes__/<TestFile>/` beside
    /// the test file, or under `directory` when one is given.
    static func folder(forTestFile testFile: String, in directory: URL?) -> URL {
        let file = URL(fileURLWithPath: testFile)
        let base = directory ?? file.deletingLastPathComponent()
        return
            base
            .appendingPathComponent("__Cassettes__", isDirectory: true)
            .appendingPathComponent(file.deletingPathExtension().lastPathComponent, isDirectory: true)
    }

    /// A file name from a test's name: `loadsProfile()` → `loadsProfile`, `loads(user:)` →
    /// `loads(user_)`, XCTest's `-[UsersTests testLoads]` or `UsersTests.testLoads` → `testLoads`.
    static func fileName(forTest name: String) -> String {
        var name = name
        if name.hasPrefix("-["), name.hasSuffix("]"), let space = name.lastIndex(of: " ") {
            name = String(name[name.index(after: space)..<name.index(before: name.endIndex)])
        } else if !name.contains("("), let dot = name.lastIndex(of: ".") {
            name = String(name[name.index(after: dot)...])
        }
        if name.hasSuffix("()") { name.removeLast(2) }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.()")
        let cleaned = String(name.map { allowed.contains($0) ? $0 : "_" })
        return (cleaned.isEmpty ? "unnamed" : cleaned) + ".har"
    }

    /// The cassette of the test named `testName` in `testFile`, opened with `options` the
    /// first time (see ``cassette(at:owner:open:)``).
    static func cassette(
        ofTest testName: String,
        in testFile: String,
        named name: String?,
        directory: URL?,
        owner: String,
        options: Options
    ) throws -> Cassette {
        let fileName = name.map { $0.hasSuffix(".har") ? $0 : $0 + ".har" } ?? self.fileName(forTest: testName)
        let url = folder(forTestFile: testFile, in: directory).appendingPathComponent(fileName)
        return try cassette(at: url, owner: owner) { url in
            try Cassette(
                contentsOf: url, record: options.record, playback: options.playback,
                matchers: options.matchers, redaction: options.redaction, recordsErrors: options.recordsErrors)
        }
    }

    /// How a test's cassette is opened.
    struct Options: Sendable {
        let record: RecordMode
        let playback: PlaybackMode
        let matchers: [CassetteMatcher]
        let redaction: Redaction
        /// Save a new cassette that recorded only transport errors.
        var recordsErrors = false
        /// Save what a test recorded even when it failed.
        var savesWhenTestFails = false
    }

    private struct Open: Sendable {
        let cassette: Cassette
        let owner: String
    }

    private static let open = LockedState([String: Open]())
    /// The cassettes a test (or a case of a parameterized test, which share one) failed with.
    private static let failed = LockedState(Set<String>())

    /// Notes that a test using `cassette` failed: what it recorded isn't saved (unless asked).
    static func markFailed(_ cassette: Cassette) {
        failed.withLock { _ = $0.insert(cassette.url.path) }
    }

    /// Saves `cassette` at the end of a test on `registry`, unless a test that used it failed (or
    /// this one is about to: it has findings to report) and `options` don't say to save anyway.
    static func saveAtEndOfTest(_ cassette: Cassette, registry: MockRegistry, options: Options) throws {
        if !EndOfTestReport(registry).findings.isEmpty { markFailed(cassette) }
        guard options.savesWhenTestFails || !failed.withLock({ $0.contains(cassette.url.path) }) else { return }
        try cassette.save()
    }

    /// The cassette at `url`, opened once per process and shared by the cases of one
    /// parameterized test (so their recordings land in one file instead of overwriting each
    /// other).
    ///
    /// - Throws: ``TestCassetteError/sharedByTwoTests(path:first:second:)`` when another test
    ///   already uses that file; the cassette's own errors when it can't be opened.
    static func cassette(at url: URL, owner: String, open make: (URL) throws -> Cassette) throws -> Cassette {
        try open.withLock { open in
            if let existing = open[url.path] {
                guard existing.owner == owner else {
                    throw TestCassetteError.sharedByTwoTests(path: url.path, first: existing.owner, second: owner)
                }
                return existing.cassette
            }
            let cassette = try make(url)
            open[url.path] = Open(cassette: cassette, owner: owner)
            return cassette
        }
    }
}
