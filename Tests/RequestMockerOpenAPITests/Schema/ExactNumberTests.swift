import Foundation
import RequestMocker
import RequestMockerOpenAPI
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
                (#"{"a": [1, -9223372036854775809, 0.5], "b/c": 0.10000000000000000001, "d": 1e300, "e": "#
                    + #"123456789012345678}"#).utf8))
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
                    " format: -9223372036854775809 is not an int64 (between -9223372036854775808 and "
                        + "9223372036854775807)"
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

    @Test("what a hostile or careless document writes: huge scales, Int bounds past 2^53, keys written twice")
    func edges() throws {
        // A step of 10^-99999 divides every number written with fewer places, at once.
        #expect(try Self.violations("[100, 10, 7]", #"{"items": {"type": "integer", "multipleOf": 1e-99999}}"#) == [])
        #expect(ExactNumber("1e999999")?.isMultiple(of: ExactNumber("7")!) == false)
        #expect(ExactNumber("7e999999")?.isMultiple(of: ExactNumber("7")!) == true)
        #expect(
            try Self.violations("9223372036854775808", #"{"type": "integer", "maximum": 9223372036854775807}"#)
                == [" maximum: 9223372036854775808 is more than the maximum 9223372036854775807"])
        #expect(
            try Self.violations("9223372036854775807", #"{"type": "integer", "maximum": 9223372036854775807}"#) == [])
        // The value a key written twice keeps is the last, and so is its number.
        #expect(
            try Self.violations(#"{"n": 1.00000000000000000001, "n": 500}"#, #"{"properties": {"n": {"maximum": 10}}}"#)
                == ["/n maximum: 500 is more than the maximum 10"])
        #expect(
            try Self.violations(#"{"n": 100000000000000000001, "n": 5}"#, #"{"properties": {"n": {"maximum": 10}}}"#)
                == [])
        #expect(
            try Self.violations("1.00000000000000000001", #"{"type": "integer"}"#) == [
                " type: expected integer, got 1.00000000000000000001"
            ])
    }

    @Test("a form body's numbers past Int64 are judged as written")
    func formBodies() async throws {
        let folder = try TemporaryFolder()
        let contract = try OpenAPIContract(
            contentsOf: try folder.write(
                "api.json",
                #"{"openapi": "3.1.0", "paths": {"/accounts": {"post": {"requestBody": {"content": {"#
                    + #""application/x-www-form-urlencoded": {"schema": {"type": "object", "properties": {"#
                    + #""id": {"type": "integer", "format": "int64"}}}}}}, "responses": {"201": {"description": "#
                    + #""ok"}}}}}}"#
            ))
        let registry = MockRegistry()
        registry.register(contract)
        for (body, status) in [("id=-9223372036854775809", 422), ("id=-9223372036854775808", 201)] {
            var request = URLRequest(url: URL(string: "https://api.example/accounts")!)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(body.utf8)
            let (_, response) = try await registry.makeSession().data(for: request)
            #expect((response as? HTTPURLResponse)?.statusCode == status, "\(body)")
        }
    }
}
