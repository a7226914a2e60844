import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// The YAML reader on what real files hold and what they get wrong: YAML 1.2's core schema
/// (no Norway problem), keys kept as text, merge keys, the alias cap, and the refusals, each at
/// its line and column.
@Suite("Reading YAML", .timeLimit(.minutes(3)), .hangGuard)
struct YAMLReaderTests {
    static func read(_ text: String) throws -> JSONValue {
        try YAMLReader.parse(Array(text.utf8)).jsonValue
    }

    /// The line, column and reason reading `text` fails with.
    static func failure(_ text: String) -> String {
        let bytes = Array(text.utf8)
        do {
            _ = try YAMLReader.parse(bytes)
            return "read"
        } catch {
            let (line, column) = DocumentSource(
                url: URL(fileURLWithPath: "/test.yaml"), bytes: bytes, root: DocumentNode(.null, at: 0)
            ).location(of: error.offset)
            return "\(line):\(column) \(error.reason)"
        }
    }

    @Test("the core schema: yes, no, on, off, dates and 1:20 stay text; 0755 is 755; keys stay text")
    func coreSchema() throws {
        let value = try Self.read(
            """
            enum: [new, active, off, archive, yes, no, on, y, n, Yes]
            version: 2024-10-01
            time: 1:20
            octal: 0755
            octalToo: 0o755
            hex: 0x1F
            float: 1.5e3
            infinity: -.inf
            bools: [true, True, TRUE, false]
            nulls: [null, ~, ]
            quoted: ["true", '0755']
            200: ok
            true: yes
            null: nothing
            ~: tilde
            """)
        #expect(
            value
                == [
                    "enum": ["new", "active", "off", "archive", "yes", "no", "on", "y", "n", "Yes"],
                    "version": "2024-10-01", "time": "1:20", "octal": 755, "octalToo": 493, "hex": 31,
                    "float": .double(1500), "infinity": .double(-.infinity), "bools": [true, true, true, false],
                    "nulls": [.null, .null], "quoted": ["true", "0755"], "200": "ok", "true": "yes",
                    "null": "nothing", "~": "tilde",
                ])
    }

    @Test("scalars: folding, escapes, literal and folded blocks with chomping and indentation indicators")
    func scalars() throws {
        let value = try Self.read(
            "plain: a\n  b\n\n  c\n"
                + "double: \"tab\\tuni\\u00e9 \\U0001F600 \\x41 folded\n  line\\\n  joined\"\n"
                + "single: 'it''s\n  here'\n"
                + "literal: |\n  one\n   two\n\n"
                + "strip: |-\n  text\n\n"
                + "keep: |+\n  text\n\n"
                + "folded: >\n  a\n  b\n\n  c\n    indented\n  d\n"
                + "indicator: |2\n    two spaces kept\n"
                + "last: end")
        #expect(value["plain"] == "a b\nc")
        #expect(value["double"] == "tab\tuni\u{e9} \u{1F600} A folded linejoined")
        #expect(value["single"] == "it's here")
        #expect(value["literal"] == "one\n two\n")
        #expect(value["strip"] == "text")
        #expect(value["keep"] == "text\n\n")
        #expect(value["folded"] == "a b\nc\n  indented\nd\n")
        #expect(value["indicator"] == "  two spaces kept\n")
        #expect(value["last"] == "end")
    }

    @Test("anchors, aliases and merge keys; a document's values are capped once aliases expand")
    func anchorsAndMerges() throws {
        let value = try Self.read(
            """
            base: &base {a: 1, b: 2}
            more: &more
              c: 3
            merged:
              <<: [*base, *more]
              b: 20
            copy: *base
            """)
        #expect(value["merged"] == ["a": 1, "b": 20, "c": 3])
        #expect(value["copy"] == ["a": 1, "b": 2])
        // Only a plain << merges; quoted, it is a key like any other (as PyYAML reads it).
        #expect(
            try Self.read(#"quoted: {"<<": "="}"# + "\nsingle:\n  '<<': x\n") == [
                "quoted": ["<<": "="], "single": ["<<": "x"],
            ])
        var laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
        for (index, name) in "bcdefghij".enumerated() {
            let previous = index == 0 ? "a" : String(Array("bcdefghij")[index - 1])
            laughs +=
                "\(name): &\(name) [" + Array(repeating: "*\(previous)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(Self.failure(laughs).contains("the document's aliases stand for more than 1000000 values"))
    }

    @Test("refused, each at its line and column: tags, complex keys, several documents, directives, tabs")
    func refusals() {
        #expect(
            Self.failure("a: !custom 1\n")
                == "1:4 the tag !custom is not read; only the core schema's (!!str, !!int, !!float, !!bool, !!null, "
                + "!!map, !!seq) are: remove it")
        #expect(
            Self.failure("? [a, b]\n: c\n")
                == "1:3 a collection or a block as a key is not read; write the key as a plain or quoted string")
        #expect(
            Self.failure("a: 1\n---\nb: 2\n")
                == "2:1 a second document starts here; a file holds one document (split it into files)")
        #expect(
            Self.failure("%TAG ! tag:x\n---\na\n")
                == "1:1 the directive %TAG is not read; only %YAML 1.2 is, once (remove it)")
        #expect(Self.failure("a:\n\tb: 1\n") == "2:2 a tab indents this line; YAML indents with spaces only")
        #expect(Self.failure("a: 1\na: 2\n") == "2:1 the key \"a\" appears twice in this mapping; remove one")
        #expect(
            Self.failure("%YAML 1.1\n---\na: yes\n")
                == "1:1 this file asks for YAML 1.1 (%YAML), whose rules differ from 1.2's (yes and no are Booleans "
                + "there); only YAML 1.2 is read: change it to %YAML 1.2")
        #expect(Self.failure("a: [1, 2\n") == "1:4 this collection never ends; close it with ]")
        #expect(Self.failure("a: \"open\n") == "1:4 this quoted value never ends; close it with \"")
    }

    @Test("line ends and edges: CRLF, a byte-order mark, no final newline, %YAML 1.2, --- and ...")
    func edges() throws {
        #expect(try Self.read("a: 1\r\nb:\r\n  - x\r\n  - y\r\n") == ["a": 1, "b": ["x", "y"]])
        #expect(try Self.read("\u{FEFF}a: 1") == ["a": 1])
        #expect(try Self.read("%YAML 1.2\n---\na: |\n  text\n...\n") == ["a": "text\n"])
        #expect(try Self.read("# only a comment\n") == .null)
        #expect(try Self.read("- a\n- - b\n  - c\n- k: v\n  l: w\n") == ["a", ["b", "c"], ["k": "v", "l": "w"]])
    }

    @Test("the deepest document allowed is read on the library's smallest thread stack; deeper is refused")
    func depth() async throws {
        let levels = YAMLReader.maximumNesting - 2
        var text = ""
        for level in 0..<levels { text += String(repeating: " ", count: level) + "k:\n" }
        text += String(repeating: " ", count: levels) + "v: 1\n"
        let bytes = Array(text.utf8)
        let read = try await onThread { Result { () throws(DocumentSyntaxError) in try YAMLReader.parse(bytes) } }
        #expect(throws: Never.self) { try read.get() }
        let flow = String(repeating: "[", count: YAMLReader.maximumNesting + 1)
        #expect(Self.failure(flow).hasSuffix("the document nests deeper than \(YAMLReader.maximumNesting) levels"))
    }

    @Test("a stubs file in YAML reads as its JSON would, and its mistakes point at their lines")
    func yamlStubs() throws {
        let folder = try TemporaryFolder()
        let good = try folder.write(
            "stubs.yaml",
            """
            # the same schema as stubs.json
            stubs:
              - request: {method: GET, path: /users/<id>}
                response:
                  status: 200
                  json: {id: "{{id}}", active: yes}
                  template: true
              - request:
                  path: /health
                response: {status: 204}
            """)
        let stubs = try Stub.stubs(contentsOf: good)
        #expect(stubs.count == 2)
        #expect(stubs[0].json["response"]?["json"] == ["id": "{{id}}", "active": "yes"])
        let bad = try folder.write(
            "bad.yaml",
            """
            stubs:
              - request: {path: /a}
                response:
                  delay: soon
            """)
        #expect(throws: RequestMockerError.self) { try Stub.stubs(contentsOf: bad) }
        do {
            _ = try Stub.stubs(contentsOf: bad)
        } catch {
            #expect(
                "\(error)"
                    == "stubs file \(bad.path):4:14: at stubs[0].response.delay: expected a number of seconds from 0 "
                    + "to 3600; fix the file (its schema is stubs.schema.json)")
        }
    }
}
