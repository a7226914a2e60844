import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Generated values: the same every time when static, kept inside their schemas' constraints,
/// with `allOf` merged, a `oneOf` branch chosen, cycles ended and the size bounded.
@Suite("Generating values from contract schemas", .timeLimit(.minutes(3)), .hangGuard)
struct SchemaGeneratorTests {
    static func generated(
        _ schema: String, others: [String: String] = [:], direction: SchemaValidator.Direction = .response,
        seed: UInt64? = nil
    ) throws -> String {
        let compiled = try SchemaValidatorTests.schema(schema, others: others)
        let value = try SchemaGenerator.value(for: compiled, direction: direction, seed: seed)
        #expect(SchemaValidator.violations(of: value.jsonValue, against: compiled, direction: direction) == [])
        return String(decoding: value.jsonBytes, as: UTF8.self)
    }

    static let constrained = ##"""
        {"type": "object", "required": ["id"], "properties": {
            "id": {"type": "integer", "format": "int64", "minimum": 1},
            "name": {"type": "string", "minLength": 8},
            "tag": {"type": "string", "maxLength": 3},
            "born": {"type": "string", "format": "date"},
            "seen": {"type": "string", "format": "date-time"},
            "uid": {"type": "string", "format": "uuid"},
            "mail": {"type": "string", "format": "email"},
            "site": {"type": "string", "format": "uri"},
            "host": {"type": "string", "format": "ipv4"},
            "price": {"type": "number", "exclusiveMinimum": 0, "multipleOf": 0.25},
            "even": {"type": "integer", "minimum": 3, "multipleOf": 2},
            "below": {"type": "integer", "maximum": -5},
            "ratio": {"type": "number", "exclusiveMinimum": 0.5, "exclusiveMaximum": 1},
            "flag": {"type": "boolean"},
            "secret": {"type": "string", "writeOnly": true},
            "serial": {"type": "string", "readOnly": true},
            "sid": {"type": "string", "pattern": "^CA[0-9a-f]{4}$"},
            "slug": {"type": "string", "pattern": "^[a-z]+$", "minLength": 5},
            "kind": {"enum": ["cat", "dog"]},
            "fixed": {"const": 7},
            "tags": {"type": "array", "items": {"type": "string"}},
            "codes": {"type": "array", "minItems": 3, "uniqueItems": true, "items": {"type": "integer"}},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "anything": {}
        }}
        """##

    @Test("static values keep every constraint and are written in the schema's order")
    func staticValues() throws {
        let common =
            #"{"id":1,"name":"stringxx","tag":"str","born":"2026-01-01","seen":"2026-01-01T00:00:00Z","#
            + #""uid":"3fa85f64-5717-4562-b3fc-2c9600000000","mail":"user@example.com","site":"https://example.com/","#
            + #""host":"192.0.2.1","price":0.25,"even":4,"below":-5,"ratio":0.75,"flag":true,"#
        let rest =
            #""sid":"CAaaaa","slug":"aaaaa","kind":"cat","fixed":7,"tags":["string"],"codes":[0,1,2],"#
            + #""labels":{"property1":"string"},"anything":{}}"#
        // A response leaves out what only clients send (writeOnly), a request what only servers do.
        #expect(try Self.generated(Self.constrained) == common + #""serial":"string","# + rest)
        #expect(try Self.generated(Self.constrained, direction: .request) == common + #""secret":"string","# + rest)
    }

    @Test("a schema's example comes first, then its default; one that breaks its schema is left out")
    func writtenValues() throws {
        #expect(
            try Self.generated(
                #"{"type": "object", "properties": {"a": {"type": "integer", "example": 5, "default": 3}, "#
                    + #""b": {"type": "integer", "default": 3}, "c": {"type": "integer", "minimum": 1, "example": 0}}}"#
            )
                == #"{"a":5,"b":3,"c":1}"#)
        // The default breaks the enum: the enum's first entry is generated instead.
        #expect(try Self.generated(#"{"type": "string", "enum": ["a", "b"], "default": "c"}"#) == #""a""#)
    }

    @Test("allOf is merged: every property, the tightest bounds, the enum entries both allow")
    func allOfMerged() throws {
        let pet =
            #"{"type": "object", "required": ["name"], "properties": {"name": {"type": "string"}, "#
            + #""status": {"enum": ["sold", "pending", "available"]}}}"#
        #expect(
            try Self.generated(
                #"{"allOf": [{"$ref": "pet.json"}, {"type": "object", "properties": {"status": "#
                    + #"{"enum": ["available", "sold"]}, "age": {"type": "integer", "minimum": 2}}}, "#
                    + #"{"properties": {"age": {"maximum": 9, "minimum": 4}}}]}"#, others: ["pet.json": pet])
                == #"{"name":"string","status":"sold","age":4}"#)
    }

    @Test("oneOf takes the discriminator mapping's first entry and names it, else the first branch that passes")
    func alternatives() throws {
        let branches = [
            "cat.json":
                #"{"type": "object", "required": ["kind", "purrs"], "properties": {"kind": {"type": "string"}, "#
                + #""purrs": {"type": "boolean"}}}"#,
            "dog.json": #"{"type": "object", "required": ["kind"], "properties": {"kind": {"type": "string"}, "#
                + #""barks": {"type": "boolean"}}}"#,
        ]
        let mapped = try Self.generated(
            #"{"oneOf": [{"$ref": "cat.json"}, {"$ref": "dog.json"}], "#
                + #""discriminator": {"propertyName": "kind", "mapping": {"doggo": "dog.json", "cat": "cat.json"}}}"#,
            others: branches)
        #expect(mapped == #"{"kind":"doggo","barks":true}"#)
        // Without a discriminator, {"kind", "purrs"} would pass both branches; the first that
        // passes oneOf alone is taken (a dog, which has no purrs to match the cat).
        #expect(
            try Self.generated(#"{"oneOf": [{"$ref": "dog.json"}, {"$ref": "cat.json"}]}"#, others: branches)
                == #"{"kind":"string","barks":true}"#)
        #expect(try Self.generated(#"{"oneOf": [{"type": "null"}, {"type": "integer", "minimum": 3}]}"#) == "3")
        // A `not` of a required pair: an optional member goes until the value no longer matches it.
        #expect(
            try Self.generated(
                #"{"type": "object", "properties": {"url": {"type": "string"}, "id": {"type": "string"}}, "#
                    + #""anyOf": [{"required": ["url"]}, {"required": ["id"]}], "not": {"required": ["url", "id"]}}"#)
                == #"{"url":"string"}"#)
    }

    @Test("circular schemas end: a schema already being generated is left out if optional, else at its shortest")
    func cycles() throws {
        let tree =
            ##"{"type": "object", "required": ["value", "parent"], "properties": {"value": {"type": "integer"}, "##
            + ##""parent": {"$ref": "#/$defs/Maybe"}, "children": {"type": "array", "items": {"$ref": "#"}}, "##
            + ##""next": {"$ref": "#"}}, "$defs": {"Maybe": {"nullable": true, "allOf": [{"$ref": "#"}]}}}"##
        // An array of a schema being generated is empty; `next` is left out at both levels.
        #expect(
            try Self.generated(tree) == #"{"value":0,"parent":{"value":0,"parent":null,"children":[]},"children":[]}"#)
    }

    @Test("a body past 2,500 values, or nested past 48 levels, fails with the schema's pointer")
    func bounds() throws {
        let large = try SchemaValidatorTests.schema(
            #"{"type": "array", "minItems": 100, "items": {"type": "array", "minItems": 30, "#
                + #""items": {"type": "integer"}}}"#)
        #expect(throws: SchemaGenerator.Failure.self) { try SchemaGenerator.value(for: large, direction: .response) }
        do {
            _ = try SchemaGenerator.value(for: large, direction: .response)
        } catch {
            #expect(error.pointer == "#/items/items")
            #expect(error.reason.hasPrefix("schema too complex: a body would have more than 2500 values"))
        }
        var nested = #"{"type": "integer"}"#
        for _ in 0..<60 { nested = #"{"type": "object", "required": ["a"], "properties": {"a": "# + nested + "}}" }
        let deep = try SchemaValidatorTests.schema(nested)
        #expect(throws: SchemaGenerator.Failure.self) { try SchemaGenerator.value(for: deep, direction: .response) }
        #expect(throws: SchemaGenerator.Failure.self) {
            try SchemaGenerator.value(
                for: try SchemaValidatorTests.schema(#"{"allOf": [{"type": "string"}, {"type": "integer"}]}"#),
                direction: .response)
        }
    }

    @Test("the deepest value allowed, each level a oneOf, is generated on the library's smallest thread stack")
    func deepestOnASmallStack() async throws {
        var nested = #"{"type": "integer"}"#
        // Each level is two: the oneOf's chosen branch is merged one level down.
        for _ in 0..<(SchemaGenerator.maximumDepth / 2) {
            nested = #"{"oneOf": [{"type": "object", "required": ["a"], "properties": {"a": "# + nested + "}}]}"
        }
        let deep = try SchemaValidatorTests.schema(nested)
        let generated = try await onThread { Result { try SchemaGenerator.value(for: deep, direction: .response) } }
        let value = try generated.get().jsonValue
        #expect(SchemaValidator.violations(of: value, against: deep, direction: .response) == [])
    }

    @Test("dynamic values: the same seed gives the same bytes, another seed others, all inside the schema")
    func dynamicValues() throws {
        let first = try Self.generated(Self.constrained, seed: 7)
        #expect(try Self.generated(Self.constrained, seed: 7) == first)
        let others = try (8..<18).map { try Self.generated(Self.constrained, seed: $0) }
        #expect(!others.contains(first))
        #expect(Set(others).count == others.count)
        #expect(first != (try Self.generated(Self.constrained)))
    }
}
