import Foundation

extension YAMLReader {
    /// A scalar (or an alias) as read: its value, the text a key would be, and whether it spans
    /// lines (a key can't).
    struct Scalar {
        let node: DocumentNode
        let keyText: String
        let isMultiline: Bool
    }

    /// A plain or quoted scalar, or an alias, at `position`, inside a parent indented `indent`.
    mutating func parseScalarOrAlias(
        indent: Int, flow: Bool, isKey: Bool = false
    ) throws(DocumentSyntaxError) -> Scalar {
        let start = position
        switch current {
        case UInt8(ascii: "*"):
            position += 1
            // An anchor's name may hold a `:` (`*a:` names the anchor `a:`).
            while let next = current, !Self.isBlankOrBreakOrEnd(next), !Self.flowIndicators.contains(next) {
                position += 1
            }
            let name = String(decoding: bytes[(start + 1)..<position], as: UTF8.self)
            guard let anchored = anchors[name] else {
                throw error("the alias *\(name) names no anchor before it; define &\(name) first", at: start)
            }
            try count(anchored.size)
            var node = anchored.node
            node.offset = start
            return Scalar(node: node, keyText: keyText(of: node), isMultiline: false)
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            let (text, multiline) = try parseQuoted(indent: indent)
            return Scalar(node: DocumentNode(.string(text), at: start), keyText: text, isMultiline: multiline)
        default:
            // `-`, `?` and `:` start a plain value only when something other than a space follows.
            if let byte = current, "-?:".utf8.contains(byte),
                Self.isBlankOrBreakOrEnd(self.byte(at: position + 1))
                    || flow && self.byte(at: position + 1).map(Self.flowIndicators.contains) == true
            {
                throw error("\(UnicodeScalar(byte)) alone is an indicator here, not a value; quote it")
            }
            if let byte = current, Self.reservedStarts.contains(byte) {
                throw error("a plain value can't start with \(UnicodeScalar(byte)); quote it")
            }
            let (text, multiline) = try parsePlain(indent: indent, flow: flow, isKey: isKey)
            guard !text.isEmpty else { throw error("expected a value here") }
            return Scalar(node: DocumentNode(Self.resolve(text), at: start), keyText: text, isMultiline: multiline)
        }
    }

    static let reservedStarts: Set<UInt8> = Set("@`%#,]}".utf8)

    func keyText(of node: DocumentNode) -> String {
        switch node.value {
        case .string(let text): text
        case .null: ""
        case .bool(let value): value ? "true" : "false"
        case .int(let value): String(value)
        case .double(let value): String(value)
        case .exactNumber(let value): value.description
        case .array, .object: ""
        }
    }

    /// A plain scalar: up to `: `, ` #`, the line's end (then on more-indented lines, folded),
    /// and in flow context up to a flow indicator.
    mutating func parsePlain(indent: Int, flow: Bool, isKey: Bool) throws(DocumentSyntaxError) -> (String, Bool) {
        var text: [UInt8] = []
        var multiline = false
        while true {
            // One line's worth.
            let lineStart = position
            while let byte = current, !Self.isBreak(byte) {
                if byte == UInt8(ascii: ":") {
                    let next = self.byte(at: position + 1)
                    if Self.isBlankOrBreakOrEnd(next) || flow && next.map(Self.flowIndicators.contains) == true {
                        break
                    }
                }
                if byte == UInt8(ascii: "#"), position > lineStart, Self.isBlank(bytes[position - 1]) { break }
                if flow, Self.flowIndicators.contains(byte) { break }
                position += 1
            }
            var end = position
            while end > lineStart, Self.isBlank(bytes[end - 1]) { end -= 1 }
            text += bytes[lineStart..<end]
            // Stopped inside the line (at `: `, ` #` or a flow indicator), or a key: done.
            guard !isKey, Self.isBreak(current) else { break }
            // Folding: the next non-empty line continues the scalar if it is indented more than
            // the parent and isn't a comment, a marker or (in block context) a new structure.
            let save = position
            var breaks = 0
            while Self.isBreak(current) {
                skipBreak()
                breaks += 1
                skipBlanks()
            }
            let column = column(of: position)
            let stops =
                current == nil || current == UInt8(ascii: "#") || isDocumentMarker(UInt8(ascii: "-"))
                || isDocumentMarker(UInt8(ascii: ".")) || (!flow && column <= indent)
                || (flow && column <= indent && indent >= 0)
            let startsWithIndicator =
                current == UInt8(ascii: ":")
                && (Self.isBlankOrBreakOrEnd(byte(at: position + 1))
                    || flow && byte(at: position + 1).map(Self.flowIndicators.contains) == true)
            if stops || startsWithIndicator {
                position = save
                break
            }
            if flow, let byte = current, Self.flowIndicators.contains(byte) {
                position = save
                break
            }
            multiline = true
            if breaks == 1 {
                text.append(0x20)
            } else {
                text += Array(repeating: 0x0A, count: breaks - 1)
            }
        }
        return (String(decoding: text, as: UTF8.self), multiline)
    }

    /// A single- or double-quoted scalar, its escapes read and its line breaks folded.
    mutating func parseQuoted(indent: Int) throws(DocumentSyntaxError) -> (String, Bool) {
        let start = position
        let quote = bytes[position]
        position += 1
        var text: [UInt8] = []
        // What escapes wrote stays: folding trims only the blanks written as they are.
        var escaped = 0
        var multiline = false
        while true {
            guard let byte = current else {
                throw error("this quoted value never ends; close it with \(UnicodeScalar(quote))", at: start)
            }
            if byte == quote {
                if quote == UInt8(ascii: "'"), self.byte(at: position + 1) == quote {
                    text.append(quote)
                    position += 2
                    continue
                }
                position += 1
                break
            }
            if Self.isBreak(byte) {
                // Folding: trailing blanks go; one break is a space, more are newlines.
                while text.count > escaped, let last = text.last, Self.isBlank(last) { text.removeLast() }
                multiline = true
                var breaks = 0
                while Self.isBreak(current) {
                    skipBreak()
                    breaks += 1
                    skipBlanks()
                }
                if isDocumentMarker(UInt8(ascii: "-")) || isDocumentMarker(UInt8(ascii: ".")) {
                    throw error("a document marker inside a quoted value; close the quote first")
                }
                if current != nil, column(of: position) <= indent, current != quote {
                    throw error("this line of a quoted value must be indented more than its parent")
                }
                if current != nil, indent >= 0 { try checkIndentation(parent: indent) }
                if breaks == 1 { text.append(0x20) } else { text += Array(repeating: 0x0A, count: breaks - 1) }
                continue
            }
            if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") {
                position += 1
                if Self.isBreak(current) {
                    // An escaped break joins the lines, and the next line's leading blanks go.
                    skipBreak()
                    skipBlanks()
                    multiline = true
                    continue
                }
                text += try parseEscape()
                escaped = text.count
                continue
            }
            text.append(byte)
            position += 1
        }
        return (String(decoding: text, as: UTF8.self), multiline)
    }

    /// One escape of a double-quoted scalar (after its `\`), as UTF-8.
    mutating func parseEscape() throws(DocumentSyntaxError) -> [UInt8] {
        guard let byte = current else { throw error("a \\ ends the file; finish the escape") }
        position += 1
        if let bytes = Self.simpleEscapes[byte] { return bytes }
        return try parseHexEscape(byte)
    }

    static let simpleEscapes: [UInt8: [UInt8]] = [
        UInt8(ascii: "0"): [0], UInt8(ascii: "a"): [7], UInt8(ascii: "b"): [8], UInt8(ascii: "t"): [9],
        9: [9], UInt8(ascii: "n"): [10], UInt8(ascii: "v"): [11], UInt8(ascii: "f"): [12],
        UInt8(ascii: "r"): [13], UInt8(ascii: "e"): [27], UInt8(ascii: " "): [32], UInt8(ascii: "\""): [34],
        UInt8(ascii: "/"): [47], UInt8(ascii: "\\"): [92], UInt8(ascii: "N"): Array("\u{85}".utf8),
        UInt8(ascii: "_"): Array("\u{A0}".utf8), UInt8(ascii: "L"): Array("\u{2028}".utf8),
        UInt8(ascii: "P"): Array("\u{2029}".utf8),
    ]

    /// `\x`, `\u` or `\U` and their hexadecimal digits.
    mutating func parseHexEscape(_ byte: UInt8) throws(DocumentSyntaxError) -> [UInt8] {
        let digits: Int
        switch byte {
        case UInt8(ascii: "x"): digits = 2
        case UInt8(ascii: "u"): digits = 4
        case UInt8(ascii: "U"): digits = 8
        default: throw error("\\\(UnicodeScalar(byte)) is not an escape YAML has", at: position - 2)
        }
        guard position + digits <= bytes.count,
            let value = UInt32(String(decoding: bytes[position..<position + digits], as: UTF8.self), radix: 16),
            let scalar = Unicode.Scalar(value)
        else { throw error("the escape needs \(digits) hexadecimal digits of a Unicode scalar", at: position - 2) }
        position += digits
        return Array(String(Character(scalar)).utf8)
    }

    /// Whether `bytes` (without a sign) are `.5`, `5.`, `5.5`, each with an optional exponent,
    /// or digits with an exponent: the core schema's floats.
    static func isFloat(_ bytes: ArraySlice<UInt8>) -> Bool {
        var index = bytes.startIndex
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        var digits = 0
        while index < bytes.endIndex, isDigit(bytes[index]) {
            index += 1
            digits += 1
        }
        var hasPoint = false
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: ".") {
            hasPoint = true
            index += 1
            while index < bytes.endIndex, isDigit(bytes[index]) {
                index += 1
                digits += 1
            }
        }
        guard digits > 0 else { return false }
        if index < bytes.endIndex, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.endIndex, bytes[index] == UInt8(ascii: "-") || bytes[index] == UInt8(ascii: "+") {
                index += 1
            }
            let start = index
            while index < bytes.endIndex, isDigit(bytes[index]) { index += 1 }
            guard index > start else { return false }
            return index == bytes.endIndex
        }
        return hasPoint && index == bytes.endIndex
    }

    /// A plain scalar's value by the core schema: null, a Boolean, an integer, a float, else text.
    static func resolve(_ text: String) -> DocumentNode.Value {
        switch text {
        case "", "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: break
        }
        let utf8 = Array(text.utf8)
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        let unsigned = utf8.first == UInt8(ascii: "-") || utf8.first == UInt8(ascii: "+") ? utf8.dropFirst() : utf8[...]
        if !unsigned.isEmpty, unsigned.allSatisfy(isDigit) {
            let digits = utf8.first == UInt8(ascii: "+") ? String(text.dropFirst()) : text
            if let value = Int(digits) { return .int(value) }
            if let value = Double(digits) {
                return ExactNumber.inexact(digits, readingAs: value).map { .exactNumber($0) } ?? .double(value)
            }
            return .string(text)
        }
        if utf8.count > 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "o"),
            let value = Int(text.dropFirst(2), radix: 8)
        {
            return .int(value)
        }
        if utf8.count > 2, utf8[0] == UInt8(ascii: "0"), utf8[1] == UInt8(ascii: "x"),
            let value = Int(text.dropFirst(2), radix: 16)
        {
            return .int(value)
        }
        if Self.isFloat(unsigned), let value = Double(text) {
            return ExactNumber.inexact(text, readingAs: value).map { .exactNumber($0) } ?? .double(value)
        }
        return .string(text)
    }
}
