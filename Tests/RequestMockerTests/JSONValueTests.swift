import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("JSONValue", .timeLimit(.minutes(3)), .hangGuard)
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

    /// Arrays and objects nested `depth` levels, around one number.
    static func nested(_ depth: Int) -> (text: String, value: JSONValue) {
        var value: JSONValue = 1
        for level in 0..<depth { value = level.isMultiple(of: 2) ? [value] : ["k": value] }
        let opening = (0..<depth).reversed().map { $0.isMultiple(of: 2) ? "[" : #"{"k":"# }.joined()
        let closing = (0..<depth).map { $0.isMultiple(of: 2) ? "]" : "}" }.joined()
        return (opening + "1" + closing, value)
    }

    @Test("JSON nested to the parser's limit parses, compares, serializes and converts on the smallest stack")
    func deepestAllowedNestingFitsTheSmallestStack() async throws {
        let (text, built) = Self.nested(JSONValue.maximumNesting)
        let results = try await onThread { () -> [String] in
            var failures: [String] = []
            do {
                let parsed = try JSONValue(parsing: Data(text.utf8))
                if parsed != built { failures.append("the parsed value differs from the built one") }
                if try String(decoding: parsed.serialized(), as: UTF8.self) != text {
                    failures.append("serializing did not give the text back")
                }
                if parsed.description != text { failures.append("the description differs") }
                var foundation: Any = 1
                for _ in 0..<JSONValue.maximumNesting { foundation = [foundation] }
                _ = try JSONValue(any: foundation)
            } catch {
                failures.append("\(error)")
            }
            return failures
        }
        #expect(results == [])
    }

    @Test("one level past the limit is a typed error, for parsing and for Foundation objects")
    func onePastTheLimitIsAnError() throws {
        let (text, _) = Self.nested(JSONValue.maximumNesting + 1)
        let parseError = #expect(throws: JSONValue.ParseError.self) { try JSONValue(parsing: Data(text.utf8)) }
        #expect(parseError?.reason == "nesting deeper than 512 levels")
        // The innermost opening bracket, the one just before the number.
        let number = try #require(text.utf8.firstIndex(of: UInt8(ascii: "1")))
        #expect(parseError?.offset == text.utf8.distance(from: text.utf8.startIndex, to: number) - 1)
        var foundation: Any = 1
        for _ in 0...JSONValue.maximumNesting { foundation = [foundation] }
        let conversionError = #expect(throws: JSONValue.ConversionError.self) { try JSONValue(any: foundation) }
        #expect(conversionError?.description.contains("nested deeper than 512 levels") == true)
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

    /// Serialized text, not `==`: `.int(3) == .double(3)`, so only the text shows a number that
    /// turned into a double (what an `as Float` cast does to an `NSNumber` on Apple platforms).
    @Test(
        "NSNumbers keep their kind: Booleans, integers and doubles serialize as they were written",
        arguments: [
            (NSNumber(value: true), "true"), (NSNumber(value: false), "false"), (NSNumber(value: 3), "3"),
            (NSNumber(value: 2.5), "2.5"), (NSNumber(value: Int8(1)), "1"), (NSNumber(value: -7), "-7"),
            (NSNumber(value: UInt64(Int64.max)), "9223372036854775807"), (NSNumber(value: Float(0.5)), "0.5"),
        ])
    func foundationNumbersKeepTheirKind(number: NSNumber, text: String) throws {
        #expect(String(decoding: try JSONValue(any: number).serialized(), as: UTF8.self) == text)
        #expect(String(decoding: try JSONValue(any: ["n": number]).serialized(), as: UTF8.self) == #"{"n":\#(text)}"#)
    }

    @Test("a JSONSerialization round trip serializes to the same text")
    func jsonSerializationRoundTrip() throws {
        let text = #"{"a":[false,0,1,true],"b":true,"d":2.5,"i":3,"n":null,"s":"x","z":-12}"#
        let object = try JSONSerialization.jsonObject(with: Data(text.utf8))
        #expect(String(decoding: try JSONValue(any: object).serialized(), as: UTF8.self) == text)
        let bridged = try #require(object as? NSDictionary)
        #expect(String(decoding: try JSONValue(any: bridged).serialized(), as: UTF8.self) == text)
    }

    @Test("a Decimal converts as the number it bridges to")
    func decimal() throws {
        let price = try #require(Decimal(string: "9.5"))
        #expect(String(decoding: try JSONValue(any: ["price": price]).serialized(), as: UTF8.self) == #"{"price":9.5}"#)
    }

    @Test("an unsigned number past Int.max is a typed error naming it")
    func unsignedPastIntMax() {
        let error = #expect(throws: JSONValue.ConversionError.self) {
            try JSONValue(any: ["big": NSNumber(value: UInt64.max)])
        }
        #expect(error?.keyPath == "$.big")
        #expect(error?.typeName == "NSNumber 18446744073709551615 too large for Int")
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
