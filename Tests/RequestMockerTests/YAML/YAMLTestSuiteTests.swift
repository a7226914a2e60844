import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// The YAML test suite's cases (`../shared/openapi/yaml-test-suite`), each read by the YAML
/// reader: where it has one JSON document and uses no refused feature, to the same value; where
/// it must fail, or uses a refused feature, refused with a position; never a crash.
@Suite(
    "The YAML test suite", .enabled(if: RealContracts.available, RealContracts.skipped), .timeLimit(.minutes(3)),
    .hangGuard, .ownThread)
struct YAMLTestSuiteTests {
    /// Tags of the features the reader refuses.
    static let refusedTags: Set<String> = [
        "tag", "local-tag", "unknown-tag", "complex-key", "explicit-key", "directive",
    ]

    struct Outcome {
        var matched: [String] = []
        var mismatched: [String] = []
        var refusedAsExpected: [String] = []
        var acceptedErrors: [String] = []
        var other: [String] = []
    }

    static func cases() throws -> [URL] {
        let data = RealContracts.url("yaml-test-suite/data")
        var cases: [URL] = []
        for id in try FileManager.default.contentsOfDirectory(atPath: data.path).sorted() {
            let folder = data.appendingPathComponent(id)
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("in.yaml").path) {
                cases.append(folder)
            } else {
                for sub in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
                    cases.append(folder.appendingPathComponent(sub))
                }
            }
        }
        return cases
    }

    /// The value with numbers compared as numbers (`1` and `1.0` alike) and objects unordered.
    static func normalized(_ value: JSONValue) -> JSONValue { value.numbersAsDoubles }

    @Test("every case: the same value, or refused with a position, never a crash")
    func everyCase() throws {
        var outcome = Outcome()
        for folder in try Self.cases() {
            let name = folder.path.components(separatedBy: "data/").last ?? folder.path
            let yaml = [UInt8](try Data(contentsOf: folder.appendingPathComponent("in.yaml")))
            let tags = Set(
                ((try? String(contentsOf: folder.appendingPathComponent("tags"), encoding: .utf8)) ?? "")
                    .split(whereSeparator: \.isWhitespace).map(String.init))
            let mustFail = FileManager.default.fileExists(atPath: folder.appendingPathComponent("error").path)
            let json = try? Data(contentsOf: folder.appendingPathComponent("in.json"))
            let result = Result { () throws(DocumentSyntaxError) in try YAMLReader.parse(yaml) }
            if mustFail {
                if case .success = result {
                    outcome.acceptedErrors.append(name)
                } else {
                    outcome.refusedAsExpected.append(name)
                }
                continue
            }
            guard let json else {
                // Valid YAML with no JSON equivalent (complex keys, tags): read or refused, no crash.
                outcome.other.append(name)
                continue
            }
            let text = String(decoding: json, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            let expected = try? JSONValue(parsing: json)
            switch (text.isEmpty, expected, result) {
            case (true, _, .success(let node)) where node.jsonValue == .null:
                // A stream with no document reads as null.
                outcome.matched.append(name)
            case (false, nil, .failure):
                // Several documents: refused.
                outcome.refusedAsExpected.append(name)
            case (false, let expected?, .success(let node)):
                if Self.normalized(node.jsonValue) == Self.normalized(expected) {
                    outcome.matched.append(name)
                } else {
                    outcome.mismatched.append("\(name): \(node.jsonValue) vs \(expected)")
                }
            case (false, _?, .failure(let error)) where !tags.isDisjoint(with: Self.refusedTags):
                // A refused feature (a tag other than the core ones, a complex key, a directive).
                outcome.refusedAsExpected.append(name)
                _ = error
            case (_, _, .failure(let error)):
                outcome.mismatched.append("\(name): refused: \(error.reason)")
            case (_, _, .success(let node)):
                outcome.mismatched.append("\(name): read as \(node.jsonValue), expected \(text.prefix(100))")
            }
        }
        print(
            "yaml-test-suite: \(outcome.matched.count) read to their JSON, \(outcome.refusedAsExpected.count) refused "
                + "as expected, \(outcome.mismatched.count) not read as their JSON, \(outcome.acceptedErrors.count) "
                + "error cases accepted, \(outcome.other.count) others")
        for line in outcome.mismatched { print("  mismatch \(line.prefix(300))") }
        for line in outcome.acceptedErrors { print("  accepted error case \(line)") }
        for line in outcome.other { print("  other \(line)") }
        #expect(outcome.mismatched == [])
        #expect(outcome.acceptedErrors == [])
    }
}
