extension GraphQLLexer {
    /// A string: `"…"` on one line, its escapes read (`\n`, `\u00E9`, `\u{1F600}`, and a
    /// surrogate pair written as two fixed-width escapes).
    mutating func readString() throws(GraphQLSyntaxError) -> GraphQLToken {
        let start = position
        position += 1
        var value: [UInt8] = []
        while true {
            guard let byte = peek(position), byte != 0x0A, byte != 0x0D else {
                throw GraphQLSyntaxError(at: position, "Unterminated string: close it with \" on the same line.")
            }
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return GraphQLToken(
                    kind: .string, start: start, end: position, value: String(decoding: value, as: UTF8.self))
            case UInt8(ascii: "\\"):
                let scalar = try readEscape()
                value.append(contentsOf: Array(String(Character(scalar)).utf8))
            default:
                let length = try scalarLength(at: position)
                value.append(contentsOf: bytes[position..<position + length])
                position += length
            }
        }
    }

    /// The escape at `position` (a backslash), read and passed.
    private mutating func readEscape() throws(GraphQLSyntaxError) -> Unicode.Scalar {
        let start = position
        guard let kind = peek(position + 1) else {
            throw GraphQLSyntaxError(at: position, "Unterminated string: close it with \" on the same line.")
        }
        position += 2
        switch kind {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"): break
        default:
            position = start
            let length = (try? scalarLength(at: start + 1)) ?? 1
            throw GraphQLSyntaxError(
                at: start,
                "Invalid character escape sequence: \"\(text(start, min(bytes.count, start + 1 + length)))\""
                    + " (a string escapes \\\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u).")
        }
        if peek(position) == UInt8(ascii: "{") {
            // \u{…}: one to six hex digits, at most U+10FFFF, never a surrogate.
            var value: UInt32 = 0
            var digits = 0
            position += 1
            while let next = peek(position), let digit = Self.hexValue(next) {
                value = value &* 16 &+ UInt32(digit)
                digits += 1
                position += 1
                if digits > 8 { break }
            }
            guard peek(position) == UInt8(ascii: "}"), digits > 0, digits <= 8, let scalar = Unicode.Scalar(value)
            else { throw invalidUnicodeEscape(from: start) }
            position += 1
            return scalar
        }
        guard let unit = fixedWidthUnit(at: position) else { throw invalidUnicodeEscape(from: start) }
        position += 4
        if let scalar = Unicode.Scalar(unit) { return scalar }
        // A leading surrogate only as the first half of a pair written as two escapes.
        guard (0xD800...0xDBFF).contains(unit), peek(position) == UInt8(ascii: "\\"),
            peek(position + 1) == UInt8(ascii: "u"), let trailing = fixedWidthUnit(at: position + 2),
            (0xDC00...0xDFFF).contains(trailing),
            let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (trailing - 0xDC00))
        else { throw invalidUnicodeEscape(from: start) }
        position += 6
        return scalar
    }

    /// The four hex digits at `index` as a number, or `nil` when they aren't four hex digits.
    private func fixedWidthUnit(at index: Int) -> UInt32? {
        guard index + 4 <= bytes.count else { return nil }
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = Self.hexValue(bytes[index + offset]) else { return nil }
            value = value * 16 + UInt32(digit)
        }
        return value
    }

    private func invalidUnicodeEscape(from start: Int) -> GraphQLSyntaxError {
        var end = start + 2
        while end < bytes.count, end < start + 12, bytes[end] != UInt8(ascii: "\""), bytes[end] >= 0x20,
            bytes[end] < 0x80
        {
            end += 1
            if bytes[end - 1] == UInt8(ascii: "}") { break }
        }
        return GraphQLSyntaxError(
            at: start,
            "Invalid Unicode escape sequence: \"\(text(start, min(end, bytes.count)))\" (write \\u{1F600} or"
                + " four hex digits as \\u00E9, a surrogate only as the first of a pair).")
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A block string: `"""…"""` over any number of lines, `\"""` its only escape, its value
    /// dedented as the specification's BlockStringValue() says.
    mutating func readBlockString() throws(GraphQLSyntaxError) -> GraphQLToken {
        let start = position
        position += 3
        var lines: [[UInt8]] = [[]]
        while true {
            guard let byte = peek(position) else {
                throw GraphQLSyntaxError(at: position, "Unterminated string: close the block string with \"\"\".")
            }
            if byte == UInt8(ascii: "\""), peek(position + 1) == byte, peek(position + 2) == byte {
                position += 3
                let value = String(decoding: Self.blockStringValue(lines), as: UTF8.self)
                return GraphQLToken(kind: .blockString, start: start, end: position, value: value)
            }
            if byte == UInt8(ascii: "\\"), peek(position + 1) == UInt8(ascii: "\""),
                peek(position + 2) == UInt8(ascii: "\""), peek(position + 3) == UInt8(ascii: "\"")
            {
                lines[lines.count - 1].append(contentsOf: Array("\"\"\"".utf8))
                position += 4
            } else if byte == 0x0A || byte == 0x0D {
                position += byte == 0x0D && peek(position + 1) == 0x0A ? 2 : 1
                lines.append([])
            } else {
                let length = try scalarLength(at: position)
                lines[lines.count - 1].append(contentsOf: bytes[position..<position + length])
                position += length
            }
        }
    }

    /// The specification's BlockStringValue(): the common indentation of every line but the
    /// first removed, blank lines at the start and the end dropped, lines joined by `\n`.
    static func blockStringValue(_ rawLines: [[UInt8]]) -> [UInt8] {
        func indentation(_ line: [UInt8]) -> Int {
            line.prefix(while: { $0 == 0x20 || $0 == 0x09 }).count
        }
        var lines = rawLines
        var common: Int?
        for line in lines.dropFirst() {
            let indent = indentation(line)
            if indent < line.count, common.map({ indent < $0 }) ?? true { common = indent }
        }
        if let common {
            for index in lines.indices.dropFirst() { lines[index].removeFirst(min(common, lines[index].count)) }
        }
        // Sliced, not removed one by one: a hostile string may hold a million blank lines.
        let isBlank = { (line: [UInt8]) in indentation(line) == line.count }
        guard let first = lines.firstIndex(where: { !isBlank($0) }),
            let last = lines.lastIndex(where: { !isBlank($0) })
        else { return [] }
        return Array(lines[first...last].joined(separator: [0x0A]))
    }
}
