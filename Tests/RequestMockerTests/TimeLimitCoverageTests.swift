import Foundation
import RequestMockerTestSupport
import Testing

/// Every Swift Testing suite of the package carries a time limit, so a test that hangs fails by
/// itself and the run goes on (the waits it uses end when the time limit cancels it), and the
/// hang guard, which ends the run if a test still hasn't returned a minute after its limit. A
/// suite in a file whose tests are enabled when the published contracts are there runs each test
/// on its own thread (`.ownThread`): their seconds of parsing and generating must not hold the
/// cooperative pool's two threads, which every other test's events need.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct TimeLimitCoverageTests {
    /// The package's `Tests` folder.
    static let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()

    /// What declares tests without a time limit and a hang guard: a `@Suite` whose traits lack
    /// them, a test function outside any type without them, or a type with tests and no `@Suite`
    /// at all (an implicit suite can carry no traits); in a file that reads the published
    /// contracts, a `@Suite` without `.ownThread`.
    static func unbounded(in source: String, file: String) -> [String] {
        var found: [String] = []
        let readsRealContracts = source.contains("RealContracts" + ".available")
        let text = Array(source.utf8)
        var lineNumber = 1
        var index = 0
        var lineStart = true
        var typesWithTests = 0
        var suites = 0
        while index < text.count {
            if lineStart {
                let rest = String(decoding: text[index..<min(index + 200, text.count)], as: UTF8.self)
                let trimmed = rest.drop { $0 == " " }
                let atColumnZero = rest.first != " "
                if trimmed.hasPrefix("@Suite") || (atColumnZero && trimmed.hasPrefix("@Test")) {
                    let attribute = Self.attribute(in: text, from: index + (rest.count - trimmed.count))
                    let isSuite = trimmed.hasPrefix("@Suite")
                    if !(attribute.contains(".timeLimit(") && attribute.contains(".hangGuard"))
                        || (isSuite && readsRealContracts && !attribute.contains(".ownThread"))
                    {
                        found.append("\(file):\(lineNumber): \(attribute)")
                    }
                    if isSuite { suites += 1 }
                } else if trimmed.hasPrefix("@Test") {
                    typesWithTests += 1
                } else if atColumnZero, trimmed.hasPrefix("extension ") {
                    // Tests in an extension belong to a suite declared elsewhere, with its traits.
                    suites += 1
                }
            }
            lineStart = text[index] == UInt8(ascii: "\n")
            if lineStart { lineNumber += 1 }
            index += 1
        }
        if typesWithTests > 0, suites == 0 { found.append("\(file): tests in a type without @Suite") }
        return found
    }

    /// The attribute that starts at `start`, with its parenthesized traits if it has them.
    static func attribute(in text: [UInt8], from start: Int) -> String {
        var end = start
        while end < text.count, text[end] != UInt8(ascii: "("), text[end] != UInt8(ascii: " "),
            text[end] != UInt8(ascii: "\n")
        {
            end += 1
        }
        if end < text.count, text[end] == UInt8(ascii: "(") {
            var depth = 0
            var inString = false
            repeat {
                switch text[end] {
                case UInt8(ascii: "\""): inString.toggle()
                case UInt8(ascii: "(") where !inString: depth += 1
                case UInt8(ascii: ")") where !inString: depth -= 1
                default: break
                }
                end += 1
            } while depth > 0 && end < text.count
        }
        return String(decoding: text[start..<end], as: UTF8.self)
    }

    @Test func everySuiteAndFreeTestHasATimeLimitAndAHangGuard() throws {
        let files = try #require(FileManager.default.enumerator(atPath: Self.testsFolder.path))
            .compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") && !$0.hasPrefix("RequestMockerTestSupport/") }
        #expect(files.count > 50)
        var unbounded: [String] = []
        for file in files.sorted() {
            let source = try String(contentsOf: Self.testsFolder.appendingPathComponent(file), encoding: .utf8)
            unbounded += Self.unbounded(in: source, file: file)
        }
        #expect(unbounded == [])
    }

    /// The check itself finds each kind of omission.
    @Test func theCheckFindsEachOmission() {
        // Lines of a file, written so that this file's own scan doesn't see them as attributes.
        let source = [
            #"@Suite("named") struct A {"#, "    @Test func a() {}", "}",
            "@Suite(.serialized, .timeLimit(.minutes(3)), .hangGuard) struct B {}", "@Test func free() {}",
            "@Test(.timeLimit(.minutes(1)), .hangGuard) func bounded() {}",
            "@Suite(.timeLimit(.minutes(1))) struct D {}",
        ].joined(separator: "\n")
        #expect(
            Self.unbounded(in: source, file: "F.swift") == [
                #"F.swift:1: @Suite("named")"#, "F.swift:5: @Test", "F.swift:7: @Suite(.timeLimit(.minutes(1)))",
            ])
        // Split, so that this file doesn't read as one that reads the contracts.
        let heavy = [
            "@Suite(.enabled(if: RealContracts" + ".available), .timeLimit(.minutes(3)), .hangGuard) struct E {}",
            "@Suite(.timeLimit(.minutes(3)), .hangGuard, .ownThread) struct F {}",
        ].joined(separator: "\n")
        #expect(
            Self.unbounded(in: heavy, file: "E.swift") == [
                "E.swift:1: @Suite(.enabled(if: RealContracts" + ".available), .timeLimit(.minutes(3)), .hangGuard)"
            ])
        #expect(
            Self.unbounded(in: "struct C {\n    @Test func c() {}\n}\n", file: "C.swift") == [
                "C.swift: tests in a type without @Suite"
            ])
    }
}
