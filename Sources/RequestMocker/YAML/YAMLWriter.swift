/// Writes a document tree as YAML 1.2 in block style, the form contracts are read and reviewed
/// in (issue 38's drafts): objects as `key: value` lines in their members' order, arrays as
/// `- ` entries, two spaces a level, an array entry's object starting on the dash's line.
///
/// What it writes, ``YAMLReader`` reads back as the same tree, and so do YAML 1.1 readers
/// (PyYAML, which OpenAPI tools use): a key or a string is written plain only when it is a
/// single word of letters, digits and `_ . / $ - { }` that starts with a letter, `_`, `/` or `$`
/// and is no word a reader takes for something else (`null`, `true`, `yes`, `on`, `y`, …, in any
/// case); every other string is a double-quoted scalar with JSON's escapes, which YAML's include.
/// Numbers are written as JSON writes them, a `.` before any exponent (a non-finite one as
/// `.inf`, `-.inf` or `.nan`).
///
/// ```swift
/// let tree = try DocumentNode.parseJSON(Array(#"{"paths": {"/pets": {"get": {}}}}"#.utf8))
/// print(YAMLWriter.text(of: tree))
/// // paths:
/// //   /pets:
/// //     get: {}
/// ```
///
/// It works from a list of pending values, not by recursion, so a tree as deep as the readers
/// allow is written on the smallest thread stack.
package enum YAMLWriter {
    /// The tree as YAML text, ending with a newline.
    package static func text(of root: DocumentNode) -> String {
        String(decoding: bytes(of: root), as: UTF8.self)
    }

    /// The tree as the bytes of YAML text, ending with a newline.
    package static func bytes(of root: DocumentNode) -> [UInt8] {
        /// A value to write: what goes before it on its line (its indentation and its key or
        /// dash; none at the top), and the indentation of what it holds.
        struct Pending {
            let node: DocumentNode
            let head: [UInt8]?
            let indent: Int
            /// Whether `head` ends with an array entry's dash, on whose line an object's first
            /// member goes.
            let afterDash: Bool
        }
        var output: [UInt8] = []
        var pending = [Pending(node: root, head: nil, indent: 0, afterDash: false)]
        while let next = pending.popLast() {
            let spaces = [UInt8](repeating: UInt8(ascii: " "), count: next.indent)
            switch next.node.value {
            case .object(let object) where !object.isEmpty:
                var members: [Pending] = []
                for (index, member) in object.members.enumerated() {
                    var head: [UInt8]
                    if index == 0, next.afterDash, let dash = next.head {
                        head = dash + [UInt8(ascii: " ")]
                    } else {
                        head = spaces
                    }
                    head += key(member.key) + [UInt8(ascii: ":")]
                    members.append(Pending(node: member.value, head: head, indent: next.indent + 2, afterDash: false))
                }
                if !next.afterDash, let head = next.head { output += head + [UInt8(ascii: "\n")] }
                pending += members.reversed()
            case .array(let elements) where !elements.isEmpty:
                if let head = next.head { output += head + [UInt8(ascii: "\n")] }
                let dash = spaces + [UInt8(ascii: "-")]
                pending += elements.reversed().map {
                    Pending(node: $0, head: dash, indent: next.indent + 2, afterDash: true)
                }
            default:
                if let head = next.head { output += head + [UInt8(ascii: " ")] }
                output += scalar(next.node.value) + [UInt8(ascii: "\n")]
            }
        }
        return output
    }

    /// A scalar, or an empty object or array, as it is written after its key or dash.
    private static func scalar(_ value: DocumentNode.Value) -> [UInt8] {
        switch value {
        case .null: Array("null".utf8)
        case .bool(let value): Array((value ? "true" : "false").utf8)
        case .int(let value): Array(String(value).utf8)
        case .double(let value):
            if value.isNaN {
                Array(".nan".utf8)
            } else if value.isInfinite {
                Array((value < 0 ? "-.inf" : ".inf").utf8)
            } else {
                // With a `.` before any exponent (`1.0e+20`, not `1e+20`): YAML 1.1 reads a
                // number without one as a string.
                Array(Self.decimal(value).utf8)
            }
        case .exactNumber(let value): Array(value.description.utf8)
        case .string(let text): string(text)
        case .array: Array("[]".utf8)
        case .object: Array("{}".utf8)
        }
    }

    private static func decimal(_ value: Double) -> String {
        let text = value.description
        guard !text.contains("."), let exponent = text.firstIndex(where: { $0 == "e" || $0 == "E" }) else {
            return text
        }
        return text[..<exponent] + ".0" + text[exponent...]
    }

    private static func key(_ text: String) -> [UInt8] { string(text) }

    /// `text` plain when that is safe for every reader, else double-quoted.
    private static func string(_ text: String) -> [UInt8] {
        guard isPlain(text) else { return DocumentNode(.string(text), at: 0).jsonBytes }
        return Array(text.utf8)
    }

    /// Words YAML 1.2's core schema or YAML 1.1 reads as something other than a string.
    private static let reserved: Set<String> = [
        "null", "true", "false", "yes", "no", "on", "off", "y", "n",
    ]

    private static func isPlain(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, !reserved.contains(text.lowercased()) else { return false }
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
        }
        guard isLetter(first) || first == UInt8(ascii: "_") || first == UInt8(ascii: "/") || first == UInt8(ascii: "$")
        else { return false }
        return bytes.allSatisfy { byte in
            isLetter(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || "_./$-{}".utf8.contains(byte)
        }
    }
}
