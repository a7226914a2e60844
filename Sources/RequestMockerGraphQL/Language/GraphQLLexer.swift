/// Reads a GraphQL document's bytes into tokens, one at a time, as the specification's lexical
/// grammar says (its Appendix C): ignored tokens skipped (byte order mark, white space, line
/// terminators, commas, comments), names, numbers with the look-ahead rules, strings with their
/// escapes, block strings dedented.
///
/// Every byte is checked: text that isn't UTF-8 is an error where it starts, so a hostile
/// document never reaches the parser as anything but tokens.
package struct GraphQLLexer {
    let bytes: [UInt8]
    var position = 0

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The next token, or `.end` past the last.
    package mutating func next() throws(GraphQLSyntaxError) -> GraphQLToken {
        try skipIgnored()
        let start = position
        guard position < bytes.count else { return GraphQLToken(kind: .end, start: start, end: start, value: "") }
        let first = bytes[position]
        let punctuator: GraphQLToken.Kind? =
            switch first {
            case UInt8(ascii: "!"): .bang
            case UInt8(ascii: "$"): .dollar
            case UInt8(ascii: "&"): .ampersand
            case UInt8(ascii: "("): .parenLeft
            case UInt8(ascii: ")"): .parenRight
            case UInt8(ascii: ":"): .colon
            case UInt8(ascii: "="): .equals
            case UInt8(ascii: "@"): .at
            case UInt8(ascii: "["): .bracketLeft
            case UInt8(ascii: "]"): .bracketRight
            case UInt8(ascii: "{"): .braceLeft
            case UInt8(ascii: "|"): .pipe
            case UInt8(ascii: "}"): .braceRight
            default: nil
            }
        if let punctuator {
            position += 1
            return GraphQLToken(kind: punctuator, start: start, end: position, value: "")
        }
        switch first {
        case UInt8(ascii: "."):
            guard peek(position + 1) == UInt8(ascii: "."), peek(position + 2) == UInt8(ascii: ".") else {
                throw GraphQLSyntaxError(at: start, "Unexpected character: \".\" (a spread is three dots: \"...\").")
            }
            position += 3
            return GraphQLToken(kind: .spread, start: start, end: position, value: "")
        case UInt8(ascii: "\""):
            if peek(position + 1) == UInt8(ascii: "\""), peek(position + 2) == UInt8(ascii: "\"") {
                return try readBlockString()
            }
            return try readString()
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try readNumber()
        default:
            guard Self.isNameStart(first) else { throw unexpectedCharacter(at: start) }
            position += 1
            while position < bytes.count, Self.isNameContinue(bytes[position]) { position += 1 }
            return GraphQLToken(kind: .name, start: start, end: position, value: text(start, position))
        }
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "_")
    }

    static func isNameContinue(_ byte: UInt8) -> Bool {
        isNameStart(byte) || isDigit(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    func peek(_ index: Int) -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    func text(_ start: Int, _ end: Int) -> String {
        String(decoding: bytes[start..<end], as: UTF8.self)
    }

    private mutating func skipIgnored() throws(GraphQLSyntaxError) {
        while position < bytes.count {
            switch bytes[position] {
            case 0x09, 0x20, 0x0A, 0x0D, UInt8(ascii: ","):
                position += 1
            case 0xEF where peek(position + 1) == 0xBB && peek(position + 2) == 0xBF:
                position += 3
            case UInt8(ascii: "#"):
                position += 1
                while position < bytes.count, bytes[position] != 0x0A, bytes[position] != 0x0D {
                    position += try scalarLength(at: position)
                }
            default:
                return
            }
        }
    }

    /// The length of the UTF-8 sequence at `index`, or an error when it isn't one (a stray
    /// continuation byte, a sequence cut short, an overlong form, a surrogate, past U+10FFFF).
    func scalarLength(at index: Int) throws(GraphQLSyntaxError) -> Int {
        let lead = bytes[index]
        if lead < 0x80 { return 1 }
        let (length, low, high): (Int, UInt8, UInt8) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xE1...0xEC, 0xEE...0xEF: (3, 0x80, 0xBF)
            case 0xED: (3, 0x80, 0x9F)
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            case 0xF4: (4, 0x80, 0x8F)
            default: (0, 0, 0)
            }
        guard length > 0, index + length <= bytes.count, (low...high).contains(bytes[index + 1]),
            (index + 2..<index + length).allSatisfy({ bytes[$0] & 0xC0 == 0x80 })
        else {
            throw GraphQLSyntaxError(at: index, "Invalid UTF-8: the document must be text in UTF-8.")
        }
        return length
    }

    private func unexpectedCharacter(at index: Int) -> GraphQLSyntaxError {
        let byte = bytes[index]
        if byte < 0x80 {
            let shown =
                byte < 0x20 || byte == 0x7F
                ? "U+" + hex(UInt32(byte), width: 4) : "\"\(Character(Unicode.Scalar(byte)))\""
            return GraphQLSyntaxError(at: index, "Unexpected character: \(shown).")
        }
        guard let length = try? scalarLength(at: index) else {
            return GraphQLSyntaxError(at: index, "Invalid UTF-8: the document must be text in UTF-8.")
        }
        return GraphQLSyntaxError(at: index, "Unexpected character: \"\(text(index, index + length))\".")
    }

    func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    // MARK: Numbers

    private mutating func readNumber() throws(GraphQLSyntaxError) -> GraphQLToken {
        let start = position
        var isFloat = false
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        if peek(position) == UInt8(ascii: "0") {
            position += 1
            if let next = peek(position), Self.isDigit(next) {
                throw GraphQLSyntaxError(
                    at: position, "Invalid number, unexpected digit after 0: \"\(text(position, position + 1))\".")
            }
        } else {
            try readDigits()
        }
        if peek(position) == UInt8(ascii: ".") {
            isFloat = true
            position += 1
            try readDigits()
        }
        if let next = peek(position), next | 0x20 == UInt8(ascii: "e") {
            isFloat = true
            position += 1
            if let sign = peek(position), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { position += 1 }
            try readDigits()
        }
        // A number runs into no name and no dot: `1.2.3`, `0x1F` and `123abc` are mistakes.
        if let next = peek(position), next == UInt8(ascii: ".") || Self.isNameStart(next) {
            throw GraphQLSyntaxError(
                at: position, "Invalid number, expected digit but got: \(described(at: position)).")
        }
        return GraphQLToken(kind: isFloat ? .float : .int, start: start, end: position, value: text(start, position))
    }

    private mutating func readDigits() throws(GraphQLSyntaxError) {
        guard let first = peek(position), Self.isDigit(first) else {
            throw GraphQLSyntaxError(
                at: position, "Invalid number, expected digit but got: \(described(at: position)).")
        }
        while let next = peek(position), Self.isDigit(next) { position += 1 }
    }

    private func described(at index: Int) -> String {
        guard index < bytes.count else { return "<EOF>" }
        let byte = bytes[index]
        if byte < 0x80, byte >= 0x20, byte != 0x7F { return "\"\(Character(Unicode.Scalar(byte)))\"" }
        if byte < 0x80 { return "U+" + hex(UInt32(byte), width: 4) }
        let length = (try? scalarLength(at: index)) ?? 1
        return "\"\(text(index, index + length))\""
    }
}
