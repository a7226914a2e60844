extension JSONValue {
    /// JSON text that could not be parsed: where, and what was expected.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 0-based byte offset of the problem.
        public let offset: Int
        /// What was wrong.
        public let reason: String

        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Parses UTF-8 JSON text (RFC 8259; any value may be the top level).
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: Data(#"{"id": 7}"#.utf8))
    /// value["id"]?.intValue // 7
    /// ```
    ///
    /// - Throws: ``ParseError`` with the byte offset of the first problem.
    public init(parsing data: Data) throws(ParseError) {
        let result: Result<JSONValue, ParseError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return Result { () throws(ParseError) in try parser.parseDocument() }
        }
        self = try result.get()
    }
}

extension JSONValue {
    /// How deeply arrays and objects may nest, in parsed text and in converted Foundation
    /// objects. Deeper input is an error rather than a risk to the thread's stack.
    public static let maximumNesting = 512
}

/// A parser over UTF-8 bytes; ours so that numbers keep their integer or floating-point nature
/// identically on Linux and Apple platforms.
///
/// It does not recurse: the arrays and objects still open are kept in ``open``, so nesting up
/// to ``JSONValue/maximumNesting`` costs heap, not stack, on any thread.
private struct JSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// An array or object whose closing bracket hasn't been read yet. Its children are added
    /// in place, at the top of ``open``, so the collections are never copied.
    private struct Container {
        let isObject: Bool
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// The key of the member being read.
        var key = ""
    }

    private var open: [Container] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func parseDocument() throws(JSONValue.ParseError) -> JSONValue {
        // A UTF-8 byte order mark is tolerated.
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw fail("the text is empty; expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected text after the JSON value") }
        return value
    }

    private func fail(_ reason: String) -> JSONValue.ParseError {
        JSONValue.ParseError(offset: index, reason: reason)
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// One whole value, nested containers included.
    private mutating func parseValue() throws(JSONValue.ParseError) -> JSONValue {
        while true {
            // Read a scalar, or open a container and go on to its first element.
            guard var value = try parseScalarOrOpen() else { continue }
            // Hand the value to the containers it completes, innermost first.
            while let top = open.indices.last {
                skipWhitespace()
                if open[top].isObject {
                    open[top].members[open[top].key] = value
                    guard index < bytes.count else { throw fail("unexpected end of text; expected \",\" or \"}\"") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        open[top].key = try parseKey()
                        break
                    }
                    guard bytes[index] == UInt8(ascii: "}") else { throw fail("expected \",\" or \"}\" in an object") }
                    index += 1
                    value = .object(open.removeLast().members)
                } else {
                    open[top].elements.append(value)
                    guard index < bytes.count else { throw fail("unexpected end of text; expected \",\" or \"]\"") }
                    if bytes[index] == UInt8(ascii: ",") {
                        index += 1
                        break
                    }
                    guard bytes[index] == UInt8(ascii: "]") else { throw fail("expected \",\" or \"]\" in an array") }
                    index += 1
                    value = .array(open.removeLast().elements)
                }
            }
            if open.isEmpty { return value }
        }
    }

    /// A scalar, an empty container, or `nil` after opening a container whose first element
    /// comes next.
    private mutating func parseScalarOrOpen() throws(JSONValue.ParseError) -> JSONValue? {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of text; expected a value") }
        switch bytes[index] {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = bytes[index] == UInt8(ascii: "{")
            try enter()
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                index += 1
                return isObject ? .object([:]) : .array([])
            }
            open.append(Container(isObject: isObject, key: isObject ? try parseKey() : ""))
            return nil
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character \(describe(bytes[index])); expected a value")
        }
    }

    /// An object member's key and the colon after it.
    private mutating func parseKey() throws(JSONValue.ParseError) -> String {
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
        let key = try parseString()
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw fail("expected \":\" after key \"\(key)\"")
        }
        index += 1
        return key
    }

    /// Checks that one more container fits; the one being opened is at `index`.
    private func enter() throws(JSONValue.ParseError) {
        guard open.count < JSONValue.maximumNesting else {
            throw fail("nesting deeper than \(JSONValue.maximumNesting) levels")
        }
    }

    private func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "0x" + String(byte, radix: 16)
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONValue.ParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == literal.utf8Start[$0] })
        else { throw fail("expected \(literal)") }
        index += count
    }

    private mutating func parseString() throws(JSONValue.ParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character \(describe(byte)) in a string; escape it") }
            index += 1
        }
        var scalars: [UInt8] = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800..<0xDC00).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
                            bytes[index + 1] == UInt8(ascii: "u")
                        else { throw fail("a high surrogate \\u escape must be followed by a low one") }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate in \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw fail("\\u escape is not a Unicode scalar") }
                    scalars.append(contentsOf: Array(String(scalar).utf8))
                default:
                    index -= 1
                    throw fail("unknown escape \\\(describe(escape))")
                }
            default:
                if byte < 0x20 { throw fail("control character \(describe(byte)) in a string; escape it") }
                scalars.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    private mutating func parseHex4() throws(JSONValue.ParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("\\u escape needs four hex digits") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw fail("\\u escape needs four hex digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }

    private mutating func parseNumber() throws(JSONValue.ParseError) -> JSONValue {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout JSONParser) -> Int {
            let first = parser.index
            while parser.index < parser.bytes.count,
                (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index])
            {
                parser.index += 1
            }
            return parser.index - first
        }
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw fail("expected a digit") }
        if integerDigits > 1, bytes[start + (bytes[start] == UInt8(ascii: "-") ? 1 : 0)] == UInt8(ascii: "0") {
            throw JSONValue.ParseError(offset: start, reason: "leading zero in a number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits(&self) > 0 else { throw fail("expected a digit after \".\"") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard digits(&self) > 0 else { throw fail("expected a digit in the exponent") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        guard let double = Double(text), double.isFinite else {
            throw JSONValue.ParseError(offset: start, reason: "number \(text) is out of range")
        }
        return .double(double)
    }
}
