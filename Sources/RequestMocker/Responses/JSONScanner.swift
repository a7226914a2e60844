/// The byte-level half of reading JSON (RFC 8259): white space, literals, strings and numbers
/// over UTF-8 bytes. ``JSONValue``'s parser and the contract reader's build different trees from
/// the same tokens, so they share this and keep only their containers apart.
struct JSONScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    /// What went wrong, and at which byte.
    struct Failure: Error {
        let offset: Int
        let reason: String
    }

    /// A number, integral or not as its text was written.
    enum Number {
        case int(Int)
        case double(Double)
        /// A number no `Int` or `Double` holds exactly (an integer past `Int`'s range, a decimal
        /// with more digits than a `Double` keeps): its nearest `Double`, and the number itself.
        case inexact(Double, ExactNumber)
    }

    /// How the messages about structure are worded, so each parser keeps its own.
    struct Wording {
        /// What the input is called where it ends: "text", "the file".
        let input: String
        /// Whether a misplaced separator's message names the container ("… in an object").
        let namesContainers: Bool
        /// What a key is called after it: "key", "the key".
        let key: String

        static let value = Wording(input: "text", namesContainers: true, key: "key")
        static let document = Wording(input: "the file", namesContainers: false, key: "the key")
    }

    /// How a value starts: a whole scalar, an empty container, or a container's opening bracket,
    /// read (its elements come next).
    enum Start {
        case opened(isObject: Bool)
        case empty(isObject: Bool)
        case string(String)
        case bool(Bool)
        case null
        case number(Number)
    }

    let wording: Wording

    init(bytes: UnsafeBufferPointer<UInt8>, wording: Wording) {
        self.bytes = bytes
        self.wording = wording
    }

    /// Reads the start of the next value, after white space. `depth` containers are open; one
    /// more than `maximumNesting` is an error.
    mutating func readValueStart(depth: Int, maximumNesting: Int) throws(Failure) -> Start {
        skipWhitespace()
        guard !isAtEnd else { throw fail("unexpected end of \(wording.input); expected a value") }
        switch current {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = current == UInt8(ascii: "{")
            guard depth < maximumNesting else { throw fail("nesting deeper than \(maximumNesting) levels") }
            index += 1
            skipWhitespace()
            if !isAtEnd, current == UInt8(ascii: isObject ? "}" : "]") {
                index += 1
                return .empty(isObject: isObject)
            }
            return .opened(isObject: isObject)
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
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw fail("unexpected character \(describe(current)); expected a value")
        }
    }

    /// After a container's element: `true` when a comma follows (another element comes), `false`
    /// when the container's closing bracket does (it is read).
    mutating func readSeparator(inObject isObject: Bool) throws(Failure) -> Bool {
        skipWhitespace()
        let closing = isObject ? "}" : "]"
        guard !isAtEnd else { throw fail("unexpected end of \(wording.input); expected \",\" or \"\(closing)\"") }
        if current == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard current == UInt8(ascii: isObject ? "}" : "]") else {
            let container = wording.namesContainers ? (isObject ? " in an object" : " in an array") : ""
            throw fail("expected \",\" or \"\(closing)\"\(container)")
        }
        index += 1
        return false
    }

    /// An object member's key and the colon after it, with the key's offset.
    mutating func readKey() throws(Failure) -> (key: String, offset: Int) {
        skipWhitespace()
        guard !isAtEnd, current == UInt8(ascii: "\"") else { throw fail("expected a string key") }
        let offset = index
        let key = try parseString()
        skipWhitespace()
        guard !isAtEnd, current == UInt8(ascii: ":") else {
            throw fail("expected \":\" after \(wording.key) \"\(key)\"")
        }
        index += 1
        return (key, offset)
    }

    var isAtEnd: Bool { index >= bytes.count }

    /// The byte at the current position; only when not ``isAtEnd``.
    var current: UInt8 { bytes[index] }

    func fail(_ reason: String, at offset: Int? = nil) -> Failure {
        Failure(offset: offset ?? index, reason: reason)
    }

    /// Skips a UTF-8 byte order mark at the very start.
    mutating func skipByteOrderMark() {
        if index == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    /// A byte as a message shows it: the character, or its hex value.
    func describe(_ byte: UInt8) -> String {
        byte >= 0x20 && byte < 0x7F ? "\"\(Character(Unicode.Scalar(byte)))\"" : "0x" + String(byte, radix: 16)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(Failure) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count,
            (0..<count).allSatisfy({ bytes[index + $0] == literal.utf8Start[$0] })
        else { throw fail("expected \(literal)") }
        index += count
    }

    /// A string whose opening quote is at the current position.
    mutating func parseString() throws(Failure) -> String {
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
        var utf8 = Array(UnsafeBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            }
            guard byte == UInt8(ascii: "\\") else {
                if byte < 0x20 { throw fail("control character \(describe(byte)) in a string; escape it") }
                utf8.append(byte)
                index += 1
                continue
            }
            guard index + 1 < bytes.count else { break }
            let escape = bytes[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): utf8.append(escape)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "u"): utf8.append(contentsOf: try parseUnicodeEscape())
            default: throw fail("unknown escape \\\(describe(escape))", at: index - 1)
            }
        }
        throw fail("unterminated string")
    }

    /// The scalar of a `\u` escape (after its `\u`), a surrogate pair included, as UTF-8.
    private mutating func parseUnicodeEscape() throws(Failure) -> String.UTF8View {
        var code = try parseHex4()
        if (0xD800..<0xDC00).contains(code) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else { throw fail("a high surrogate \\u escape must be followed by a low one") }
            index += 2
            let low = try parseHex4()
            guard (0xDC00..<0xE000).contains(low) else { throw fail("invalid low surrogate in \\u escape") }
            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
        }
        guard let scalar = Unicode.Scalar(code) else { throw fail("\\u escape is not a Unicode scalar") }
        return String(scalar).utf8
    }

    private mutating func parseHex4() throws(Failure) -> UInt32 {
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

    /// A number whose first character (`-` or a digit) is at the current position.
    mutating func parseNumber() throws(Failure) -> Number {
        let start = index
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        let integerStart = index
        skipDigits()
        guard index > integerStart else { throw fail("expected a digit") }
        if index - integerStart > 1, bytes[integerStart] == UInt8(ascii: "0") {
            throw fail("leading zero in a number", at: start)
        }
        var mantissaDigits = index - integerStart
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            let fraction = index
            skipDigits()
            guard index > fraction else { throw fail("expected a digit after \".\"") }
            mantissaDigits += index - fraction
        }
        var exponentDigits = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            let exponent = index
            skipDigits()
            guard index > exponent else { throw fail("expected a digit in the exponent") }
            exponentDigits = index - exponent
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if isInteger, let int = Int(text) { return .int(int) }
        guard let double = Double(text), double.isFinite else {
            throw fail("number \(text) is out of range", at: start)
        }
        // At most 15 digits, at a scale a Double reaches: the Double is the number. Else compare
        // the number with what the Double prints as (rare: long integers, long fractions).
        if !isInteger, mantissaDigits <= 15, exponentDigits <= 2 { return .double(double) }
        return ExactNumber.inexact(text, readingAs: double).map { .inexact(double, $0) } ?? .double(double)
    }

    private mutating func skipDigits() {
        while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
    }
}
