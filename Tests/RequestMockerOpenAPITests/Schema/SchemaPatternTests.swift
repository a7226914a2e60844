import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// The `pattern` engine: what it reads and refuses, matching compared with Python's `re` (an
/// engine no one here wrote), examples that match, and linear time on a pattern that makes
/// backtracking engines take forever.
@Suite("Regular expressions for schema patterns", .timeLimit(.minutes(3)), .hangGuard, .ownThread)
struct SchemaPatternTests {
    /// Patterns and values whose verdicts Python's `re.search` gives too.
    static let cases: [(pattern: String, values: [String])] = [
        (
            "^CA[0-9a-fA-F]{32}$",
            ["CA" + String(repeating: "0", count: 32), "CA0", "ca" + String(repeating: "f", count: 32)]
        ),
        ("^(SM|MM)[0-9a-f]{2}$", ["SMab", "MM00", "XM00", "SMa"]),
        ("^[a-zA-Z0-9_-]+$", ["a-b_C9", "", "a b", "ü"]),
        ("b", ["abc", "xyz", ""]),
        ("^a.c$", ["abc", "a\nc", "ac", "aébc", "aéc"]),
        ("^\\d{3}-\\d{4}$", ["555-1234", "555-123", "5551234"]),
        ("^[^0-9]*$", ["abc", "a1", ""]),
        ("^a{2,}b?$", ["aa", "aaab", "ab", "aabb"]),
        ("^(ab|a)(bc|c)$", ["abc", "abbc", "ac"]),
        ("^\\w+@\\w+\\.(com|org)$", ["ada@example.com", "ada@example.net", "@x.com"]),
        ("^[\\s\\S]{0,3}$", ["", "a b", "abcd"]),
        ("^\\u00e9+$", ["é", "éé", "e"]),
        ("^[.]{2}\\$$", ["..$", "ab$"]),
        ("^(?:a|b)*c(d)?$", ["ababc", "cd", "abd"]),
        ("^[a-c-]+$", ["a-c", "d"]),
    ]

    @Test("matching agrees with Python's re.search on every case")
    func matchingAgreesWithPython() async throws {
        var ours: [[Bool]] = []
        for (pattern, values) in Self.cases {
            let expression = try SchemaPattern(pattern)
            ours.append(values.map(expression.matches))
        }
        let folder = try TemporaryFolder()
        let input = try folder.write(
            "cases.json",
            try JSONSerialization.data(withJSONObject: Self.cases.map { [$0.pattern, $0.values] as [Any] }))
        let result = try await ExternalProcess.python(
            """
            import json, re, sys
            cases = json.load(open(sys.argv[1]))
            print(json.dumps([[re.search(p, v) is not None for v in values] for p, values in cases]))
            """, [input.path])
        #expect(result.status == 0, "\(result.error)")
        let python = try JSONDecoder().decode([[Bool]].self, from: Data(result.output.utf8))
        #expect(ours == python)
        #expect(ours.flatMap { $0 }.contains(true) && ours.flatMap { $0 }.contains(false))
    }

    /// Where ECMA-262 (what JSON Schema names) and Python's `re` read a pattern differently.
    @Test("ECMA-262's readings where Python's differ: a brace that isn't a quantifier, a named group")
    func ecmaReadings() throws {
        // Python reads `{,}` as a quantifier; ECMA-262 reads it as text.
        #expect(try SchemaPattern("x{2}y{,}z").matches("xxy{,}z"))
        #expect(try !SchemaPattern("x{2}y{,}z").matches("xxyz"))
        // Python spells a named group `(?P<name>…)`.
        #expect(try SchemaPattern("^c(?<tail>d)?$").matches("cd"))
    }

    @Test("what isn't read is refused at its column, with the reason")
    func refusals() {
        let refused: [(String, Int, String)] = [
            ("a(?=b)", 2, #"look-arounds and group flags ("(?=") aren't read; write the pattern without them"#),
            ("(a)\\1", 4, "back-references (\\1) aren't read"),
            ("\\bword", 1, "word boundaries (\\b) aren't read"),
            ("(ab", 1, #"a "(" without its ")""#),
            ("ab)", 3, #"an unmatched ")"; remove it or escape it as \)"#),
            ("[ab", 1, #"a "[" without its "]""#),
            ("*a", 1, #""*" has nothing to repeat; escape it as \*"#),
            ("a{3,1}", 2, "{3,1}: the larger number comes second"),
            ("[z-a]", 5, "a range out of order; write the smaller end first"),
            ("^+", 2, #""^" and "$" can't be repeated"#),
            ("\\q", 1, "the escape \\q isn't read"),
            ("a{1000000}", 1, "the pattern repeats too much to check (over 20000 steps)"),
            (String(repeating: "(", count: 65) + String(repeating: ")", count: 65), 65, "groups nested deeper than 64"),
        ]
        for (pattern, column, reason) in refused {
            #expect(throws: SchemaPattern.Error(column: column, reason: reason), "\(pattern)") {
                try SchemaPattern(pattern)
            }
        }
    }

    @Test("an example matches, is the same every time, and reads well")
    func examples() throws {
        #expect(try SchemaPattern("^CA[0-9a-fA-F]{32}$").example == "CA" + String(repeating: "a", count: 32))
        #expect(try SchemaPattern("^(SM|MM)[0-9]{32}$").example == "SM" + String(repeating: "0", count: 32))
        #expect(try SchemaPattern("^tunnel_[a-z0-9]{32}$").example == "tunnel_" + String(repeating: "a", count: 32))
        #expect(try SchemaPattern("^[^a0A_.:/ bB1-]+$").example == "!")
        #expect(try SchemaPattern("^\\d+(\\.\\d{2})?$").example == "0")
        #expect(try SchemaPattern("^[\\u4e00-\\u9fff]{2}$").example == "一一")
        #expect(try SchemaPattern("a^b").example == nil)
    }

    @Test("a pattern that makes backtracking engines take forever is checked in linear time")
    func linearTime() throws {
        let value = String(repeating: "a", count: 50_000)
        #expect(try SchemaPattern("^(a*)*b$").matches(value) == false)
        #expect(try SchemaPattern("(a|aa)+$").matches(value))
        #expect(try SchemaPattern("^(a+)+$").matches(value + "!") == false)
    }

    /// Every pattern of the real contracts is read, and its example matches, by this engine and
    /// by Python's `re`.
    @Test(.enabled(if: RealContracts.available, RealContracts.skipped))
    func realPatterns() async throws {
        var patterns: Set<String> = []
        for file in ["openai/openapi.json", "twilio/spec/json/twilio_api_v2010.json"] {
            let data = try Data(contentsOf: RealContracts.url(file))
            var pending = [try JSONValue(parsing: data)]
            while let value = pending.popLast() {
                switch value {
                case .object(let members):
                    if case .string(let pattern)? = members["pattern"] { patterns.insert(pattern) }
                    pending += members.values
                case .array(let elements): pending += elements
                default: break
                }
            }
        }
        #expect(patterns.count == 42)
        var pairs: [[String]] = []
        for pattern in patterns.sorted() {
            let example = try #require(try SchemaPattern(pattern).example, "\(pattern)")
            pairs.append([pattern, example])
        }
        let folder = try TemporaryFolder()
        let input = try folder.write("pairs.json", try JSONSerialization.data(withJSONObject: pairs))
        let result = try await ExternalProcess.python(
            """
            import json, re, sys
            pairs = json.load(open(sys.argv[1]))
            print(json.dumps([p for p, example in pairs if re.search(p, example) is None]))
            """, [input.path])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "[]\n")
    }
}
