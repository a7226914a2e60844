import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// Numbers no `Int` or `Double` holds exactly (an integer past Int64, a decimal with more digits
/// than a Double keeps), in bodies and parameters as in the contract's bounds, `enum`s and
/// `const`s: every check compares them as written.
@Suite("Numbers compared as written", .timeLimit(.minutes(3)), .hangGuard)
struct ExactNumberTests {
    /// The violations of the JSON text `body` against `schema`, its numbers kept exactly.
    static func violations(_ body: String, _ schema: String) throws -> [String] {
        let (value, exact) = try JSONValue.parsingExactly(Data(body.utf8))
        return SchemaValidator.violations(
            of: value, against: try SchemaValidatorTests.schema(schema), direction: .request, exactNumbers: exact
        ).map { "\($0.pointer) \($0.keyword): \($0.message)" }
    }

    @Test("the decimal is read, ordered and divided as written")
    func arithmetic() throws {
        let numbers = [
            "-9223372036854775809", "-9223372036854775808", "-1.5", "-0", "0.1", "0.10000000000000000001",
            "1e2", "100.5", "18446744073709551615", "18446744073709551616",
        ].map { ExactNumber($0) }
        #expect(numbers.allSatisfy { $0 != nil })
        let read = numbers.compactMap { $0 }
        #expect(read == read.sorted())
        #expect(Set(read).count == read.count)
        #expect(ExactNumber("-0") == ExactNumber("0.0"))
        #expect(ExactNumber("1e2") == ExactNumber("100"))
        #expect(ExactNumber(0.1) == ExactNumber("0.1"))
        #expect(
            read.map(\.description) == [
                "-9223372036854775809", "-9223372036854775808", "-1.5", "0", "0.1", "0.10000000000000000001", "100",
                "100.5", "18446744073709551615", "18446744073709551616",
            ])
        #expect(ExactNumber("-1.25e300")?.description == "-1.25e300")
        #expect(ExactNumber("7e-50")?.description == "7e-50")
        for bad in ["", "-", "1.", ".5", "+1", "1e", "1e+", "0x1", "1 ", "1e9999999"] {
            #expect(ExactNumber(bad) == nil, "\(bad)")
        }
        #expect(ExactNumber("0.3")?.isMultiple(of: ExactNumber("0.1")!) == true)
        #expect(ExactNumber("0.30000000000001")?.isMultiple(of: ExactNumber("0.1")!) == false)
        #expect(ExactNumber("18446744073709551615")?.isMultiple(of: ExactNumber("5")!) == true)
        #expect(ExactNumber("18446744073709551616")?.isMultiple(of: ExactNumber("5")!) == false)
        #expect(ExactNumber("1e30")?.isMultiple(of: ExactNumber("0.25")!) == true)
    }

    @Test("JSON keeps only the numbers a Double doesn't hold, by their pointer")
    func parsing() throws {
        let (value, exact) = try JSONValue.parsingExactly(
            Data(
                #"{"a": [1, -9223372036854775809, 0.5], "b/c": 0.10000000000000000001, "d": 1e300, "e": 123456789012345678}"#
                    .utf8))
        #expect(
            exact == ["/a/1": ExactNumber("-9223372036854775809")!, "/b~1c": ExactNumber("0.10000000000000000001")!])
        #expect(value["a"]?[1] == .double(-9_223_372_036_854_775_808))
        #expect(value["e"] == .int(123_456_789_012_345_678))
    }

    @Test("format int32 and int64, minimum, maximum, multipleOf, enum and const judge the written number")
    func bodies() throws {
        #expect(
            try Self.violations("-9223372036854775809", #"{"type": "integer", "format": "int64"}"#)
                == [
                    " format: -9223372036854775809 is not an int64 (between -9223372036854775808 and 9223372036854775807)"
                ])
        #expect(try Self.violations("-9223372036854775808", #"{"type": "integer", "format": "int64"}"#) == [])
        #expect(
            try Self.violations("2147483648.0000000000001", #"{"type": "number", "format": "int32"}"#)
                == [" format: 2147483648.0000000000001 is not an int32 (a whole number)"])
        #expect(
            try Self.violations("1.00000000000000000001", #"{"type": "number", "maximum": 1}"#)
                == [" maximum: 1.00000000000000000001 is more than the maximum 1"])
        #expect(
            try Self.violations(
                "0.99999999999999999999", #"{"type": "number", "exclusiveMinimum": 0.99999999999999999998}"#)
                == [])
        #expect(
            try Self.violations("18446744073709551616", #"{"type": "integer", "maximum": 18446744073709551615}"#)
                == [" maximum: 18446744073709551616 is more than the maximum 18446744073709551615"])
        #expect(
            try Self.violations("18446744073709551615", #"{"type": "integer", "maximum": 18446744073709551615}"#) == [])
        // The nearest Double of 18446744073709551615 is 2^64: the Double alone would let it through.
        #expect(
            try Self.violations("18446744073709551616", #"{"enum": [18446744073709551615]}"#).first?.hasPrefix(" enum:")
                == true)
        #expect(try Self.violations("18446744073709551615", #"{"const": 18446744073709551615}"#) == [])
        #expect(
            try Self.violations("0.30000000000001", #"{"multipleOf": 0.1}"#)
                == [" multipleOf: 0.30000000000001 is not a multiple of 0.1"])
        #expect(try Self.violations("0.3", #"{"multipleOf": 0.1}"#) == [])
    }
}
