import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("JSONValue")
struct JSONValueTests {
    @Test("parses every kind of value")
    func parses() throws {
        let text =
            #"{"s": "a\"b\\c\u00e9\ud83d\ude00", "i": -12, "d": 2.5e1, "t": true, "f": false, "#
            + #""n": null, "a": [1, [2]], "o": {}}"#
        let value = try JSONValue(parsing: Data(text.utf8))
        #expect(value["s"] == "a\"b\\cé😀")
        #expect(value["i"] == .int(-12))
        #expect(value["d"] == .double(25))
        #expect(value["t"] == true)
        #expect(value["f"] == false)
        #expect(value["n"] == .null)
        #expect(value["a"]?[1] == [2])
        #expect(value["o"] == .object([:]))
    }

    @Test("serializes with sorted keys and escapes, and round-trips")
    func serializes() throws {
        let value: JSONValue = ["b": [1, 2.5, true, nil], "a": "x\n\"y\"\u{01}"]
        let text = String(decoding: try value.serialized(), as: UTF8.self)
        #expect(text == #"{"a":"x\n\"y\"\u0001","b":[1,2.5,true,null]}"#)
        #expect(try JSONValue(parsing: value.serialized()) == value)
        let pretty = String(decoding: try (["k": [1]] as JSONValue).serialized(pretty: true), as: UTF8.self)
        #expect(pretty == "{\n  \"k\": [\n    1\n  ]\n}")
    }

    @Test("numbers compare by value; objects ignore order")
    func equality() throws {
        #expect(JSONValue.int(1) == .double(1.0))
        #expect(
            try JSONValue(parsing: Data(#"{"a":1,"b":2}"#.utf8))
                == JSONValue(parsing: Data(#"{ "b" : 2.0, "a" : 1 }"#.utf8)))
    }

    @Test(
        "parse errors give the byte offset",
        arguments: [
            ("{\"a\" 1}", 5, "expected \":\""),
            ("[1, 2", 5, "expected \",\" or \"]\""),
            ("", 0, "empty"),
            ("01", 0, "leading zero"),
            ("[1] x", 4, "unexpected text"),
            ("\"abc", 4, "unterminated string"),
        ])
    func parseErrors(text: String, offset: Int, reason: String) {
        do {
            _ = try JSONValue(parsing: Data(text.utf8))
            Issue.record("expected a parse error for \(text)")
        } catch {
            #expect(error.offset == offset)
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test("deep nesting is an error, not a crash")
    func deepNesting() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: Data(text.utf8)) }
    }

    @Test("Foundation objects convert; the first bad value is named by key path")
    func conversion() throws {
        let object: [String: Any] = [
            "id": 7, "name": "Ada", "ok": true, "ratio": 0.5, "tags": ["a", NSNull()], "n": NSNumber(value: 3),
        ]
        #expect(
            try JSONValue(any: object) == [
                "id": 7, "name": "Ada", "ok": true, "ratio": 0.5, "tags": ["a", nil], "n": 3,
            ])
        let bad: [String: Any] = ["user": ["tags": ["ok", Date(timeIntervalSince1970: 0)]]]
        do {
            _ = try JSONValue(any: bad)
            Issue.record("a Date is not JSON")
        } catch {
            #expect(error.keyPath == "$.user.tags[1]")
            #expect(error.description.hasPrefix("value at $.user.tags[1] is a Date, which JSON cannot hold"))
        }
        #expect(throws: JSONValue.ConversionError.self) { try JSONValue(any: ["x": Double.nan]) }
    }

    @Test("a non-finite number fails serialization with its key path")
    func nonFinite() {
        do {
            _ = try JSONValue.object(["x": [.double(.infinity)]]).serialized()
            Issue.record("infinity is not JSON")
        } catch {
            #expect(error.keyPath == "$.x[0]")
            #expect(error.value == .infinity)
        }
    }
}
