import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// The schema validator: its verdicts against Python's `jsonschema` (a validator no one here
/// wrote) on JSON Schema's shared keywords, and OpenAPI's own readings, messages and bounds.
@Suite("Validating values against contract schemas", .timeLimit(.minutes(3)), .hangGuard)
struct SchemaValidatorTests {
    /// The schema `text` (JSON), compiled from a file of its own beside `others`.
    static func schema(_ text: String, others: [String: String] = [:]) throws -> Schema {
        let folder = try TemporaryFolder()
        for (name, contents) in others { try folder.write(name, contents) }
        return try SchemaCompiler.compile(fileAt: try folder.write("schema.json", text))
    }

    static func violations(
        _ value: JSONValue, _ schema: Schema, _ direction: SchemaValidator.Direction = .response
    ) -> [String] {
        SchemaValidator.violations(of: value, against: schema, direction: direction).map {
            "\($0.pointer) \($0.keyword): \($0.message)"
        }
    }

    @Test("every verdict on the shared keywords is the one Python's jsonschema gives (Draft 2020-12)")
    func verdictsAgreeWithJSONSchema() async throws {
        let fixture = try #require(
            Bundle.module.url(forResource: "Fixtures/OpenAPI/schema-cases", withExtension: "json"))
        guard case .array(let cases) = try JSONValue(parsing: try Data(contentsOf: fixture)) else {
            Issue.record("the fixture is not an array")
            return
        }
        var ours: [[Bool]] = []
        for item in cases {
            let schema = try Self.schema(String(decoding: try #require(item["schema"]).serialized(), as: UTF8.self))
            guard case .array(let instances)? = item["instances"] else { continue }
            ours.append(
                instances.map { SchemaValidator.violations(of: $0, against: schema, direction: .response).isEmpty })
        }
        let result = try await ExternalProcess.python(
            """
            import json, sys
            from jsonschema import Draft202012Validator
            cases = json.load(open(sys.argv[1]))
            print(json.dumps([[Draft202012Validator(c["schema"]).is_valid(i) for i in c["instances"]] for c in cases]))
            """, [fixture.path])
        try await Tool.jsonschema.require()
        #expect(result.status == 0, "\(result.error)")
        let python = try JSONDecoder().decode([[Bool]].self, from: Data(result.output.utf8))
        #expect(ours.count == 24)
        #expect(ours == python)
    }

    /// Where Python's jsonschema divides binary floats exactly, and 0.3 is then no multiple of 0.1.
    @Test("multipleOf reads decimals as written: 0.3 is a multiple of 0.1, 0.35 is not")
    func decimalMultiples() throws {
        let schema = try Self.schema(#"{"multipleOf": 0.1}"#)
        #expect(Self.violations(0.3, schema) == [])
        #expect(Self.violations(0.35, schema) == [" multipleOf: 0.35 is not a multiple of 0.1"])
        #expect(Self.violations(9_007_199_254_740_993, try Self.schema(#"{"multipleOf": 2}"#)).count == 1)
    }

    @Test("messages name the pointer, the keyword, what was expected and what came")
    func messages() throws {
        let schema = try Self.schema(
            #"{"type": "object", "required": ["name", "id"], "additionalProperties": false, "properties": {"#
                + #""id": {"type": "integer", "format": "int32"}, "name": {"type": "string"}, "#
                + #""tags": {"type": "array", "items": {"enum": ["a", "b"]}, "uniqueItems": true}}}"#)
        #expect(
            Self.violations(["name": 12, "tags": ["a", "c", "a"], "x/y": true], schema) == [
                " required: missing the required property \"id\"",
                "/name type: expected string, got 12",
                "/tags/2 uniqueItems: repeats item 0; items must be unique",
                "/tags/1 enum: expected one of \"a\", \"b\"; got \"c\"",
                "/x~1y additionalProperties: the property \"x/y\" is not allowed here",
            ])
        #expect(
            Self.violations(["name": "n", "id": 3_000_000_000], schema) == [
                "/id format: 3000000000 is not an int32 (between -2147483648 and 2147483647)"
            ])
    }

    @Test("OpenAPI 3.0's readings: nullable, Boolean exclusive bounds, readOnly and writeOnly by direction")
    func openAPI30() throws {
        let schema = try Self.schema(
            #"{"type": "object", "required": ["id", "secret", "score"], "properties": {"#
                + #""id": {"type": "integer", "readOnly": true}, "secret": {"type": "string", "writeOnly": true}, "#
                + #""score": {"type": "number", "minimum": 0, "exclusiveMinimum": true, "nullable": true, "#
                + #""enum": [1, 2]}}}"#
        )
        #expect(Self.violations(["secret": "s", "score": nil], schema, .request) == [])
        #expect(Self.violations(["id": 1, "score": 1], schema, .response) == [])
        #expect(
            Self.violations(["id": 1, "secret": "s", "score": 0], schema, .request) == [
                "/score enum: expected one of 1, 2; got 0", "/score exclusiveMinimum: 0 must be more than 0",
            ])
        #expect(
            Self.violations(["score": 1], schema, .request) == [" required: missing the required property \"secret\""])
    }

    @Test("a $ref with keywords beside it keeps both; a discriminator picks one branch; a schema may refer to itself")
    func references() throws {
        let schema = try Self.schema(
            #"{"type": "object", "properties": {"pet": {"$ref": "pets.json#/Pet", "nullable": true}, "#
                + #""node": {"$ref": "pets.json#/Node"}}}"#,
            others: [
                "pets.json":
                    ##"{"Pet": {"oneOf": [{"$ref": "#/Cat"}, {"$ref": "#/Dog"}], "##
                    + ##""discriminator": {"propertyName": "kind", "mapping": {"dog": "#/Dog"}}}, "##
                    + ##""Cat": {"type": "object", "required": ["kind", "lives"]}, "##
                    + ##""Dog": {"type": "object", "required": ["kind", "barks"]}, "##
                    + ##""Node": {"type": "object", "properties": {"next": {"$ref": "#/Node"}, "##
                    + #""v": {"type": "integer"}}}}"#
            ])
        #expect(Self.violations(["pet": nil], schema) == [])
        #expect(Self.violations(["pet": ["kind": "dog", "barks": true]], schema) == [])
        #expect(Self.violations(["pet": ["kind": "Cat", "lives": 9]], schema) == [])
        #expect(
            Self.violations(["pet": ["kind": "dog", "lives": 9]], schema) == [
                "/pet required: missing the required property \"barks\""
            ])
        // With a mapping, a value that names neither a mapped schema nor a branch by its own name
        // is refused, naming the values allowed, even where a branch would take the rest.
        let unknown = #"/pet/kind discriminator: "fish" names no schema of the oneOf; expected one of "dog", "Cat""#
        #expect(Self.violations(["pet": ["kind": "fish"]], schema) == [unknown])
        #expect(Self.violations(["pet": ["kind": "fish", "barks": true]], schema) == [unknown])
        // Without a mapping, a value that names no branch decides nothing: the branches are tried.
        let unmapped = try Self.schema(
            #"{"oneOf": [{"$ref": "pets.json#/Cat"}, {"$ref": "pets.json#/Dog"}], "#
                + #""discriminator": {"propertyName": "kind"}}"#,
            others: [
                "pets.json":
                    #"{"Cat": {"type": "object", "required": ["kind", "lives"]}, "#
                    + #""Dog": {"type": "object", "required": ["kind", "barks"]}}"#
            ])
        #expect(Self.violations(["kind": "fish"], unmapped) == [" oneOf: matches none of the 2 schemas of oneOf"])
        #expect(Self.violations(["kind": "fish", "barks": true], unmapped) == [])
        #expect(
            Self.violations(["kind": "Cat", "barks": true], unmapped) == [
                #" required: missing the required property "lives""#
            ])
        var deep: JSONValue = ["v": "bottom"]
        for _ in 0..<50 { deep = ["next": deep, "v": 1] }
        #expect(
            Self.violations(["node": deep], schema) == [
                "/node" + String(repeating: "/next", count: 50) + "/v type: expected integer, got \"bottom\""
            ])
    }

    @Test("formats: what each accepts and refuses; unknown formats pass")
    func formats() throws {
        let cases: [(format: String, good: [String], bad: [String])] = [
            ("date", ["2024-02-29", "2026-11-27"], ["2023-02-29", "2026-13-01", "26-11-27", "2026-11-27T00:00:00Z"]),
            (
                "date-time", ["2026-11-27T09:30:00Z", "2026-11-27t09:30:00.123+01:00"],
                ["2026-11-27", "2026-11-27T25:00:00Z", "2026-11-27T09:30:00"]
            ),
            (
                "uuid", ["123e4567-e89b-12d3-a456-426614174000"],
                ["123e4567e89b12d3a456426614174000", "123e4567-e89b-12d3-a456-42661417400g"]
            ),
            ("email", ["ada@example.com"], ["ada", "@example.com", "ada@", "a da@example.com"]),
            ("uri", ["https://example.com/x", "urn:isbn:0451450523"], ["example.com", "/relative", "1http://x"]),
            ("ipv4", ["127.0.0.1"], ["256.0.0.1", "::1", "1.2.3"]),
            ("ipv6", ["::1", "2001:db8::8a2e:370:7334"], ["127.0.0.1", "2001:db8:::1"]),
            ("color", ["anything"], []),
        ]
        for (format, good, bad) in cases {
            let schema = try Self.schema(#"{"type": "string", "format": "\#(format)"}"#)
            for value in good { #expect(Self.violations(.string(value), schema) == [], "\(format): \(value)") }
            for value in bad { #expect(Self.violations(.string(value), schema).count == 1, "\(format): \(value)") }
        }
    }

    @Test("bounds: 64 KiB for a pattern, 100 levels of schema, no loops, a budget for alternatives")
    func bounds() throws {
        let pattern = try Self.schema(#"{"type": "string", "pattern": "^a+$"}"#)
        #expect(Self.violations(.string(String(repeating: "a", count: 65_536)), pattern) == [])
        #expect(
            Self.violations(.string(String(repeating: "a", count: 65_537)), pattern) == [
                " pattern: is longer than 64 KiB, more than a pattern is checked on; send a shorter value"
            ])
        // A schema that is its own allOf, met again for the same value, adds nothing.
        let allOf = try Self.schema(
            ##"{"$ref": "#/$defs/loop", "$defs": {"loop": {"allOf": [{"$ref": "#/$defs/loop"}]}}}"##)
        #expect(Self.violations(1, allOf) == [])
        // A value deeper than 100 levels of its recursive schema is checked down to there.
        let list = try Self.schema(##"{"type": "object", "properties": {"next": {"$ref": "#"}}}"##)
        var deep: JSONValue = ["next": 1]
        for _ in 0..<150 { deep = ["next": deep] }
        #expect(
            Self.violations(deep, list) == [
                String(repeating: "/next", count: 100)
                    + " depth: nested deeper than 100 levels of schema; not checked further"
            ])
        // Eight alternatives of eight alternatives, seven levels down (each level names the one
        // below eight times): 8^7 checks, cut at the budget.
        var levels = [#""l0": {"type": "string"}"#]
        for level in 1...7 {
            let below = Array(repeating: ##"{"$ref": "#/$defs/l\##(level - 1)"}"##, count: 8).joined(separator: ", ")
            levels.append(#""l\#(level)": {"anyOf": [\#(below)]}"#)
        }
        let text = ##"{"$ref": "#/$defs/l7", "$defs": {"## + levels.joined(separator: ", ") + "}}"
        #expect(
            Self.violations(1, try Self.schema(text)).last
                == " complexity: the schema's alternatives multiply past 200000 checks; not checked further")
    }
}
