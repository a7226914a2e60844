import Foundation

/// A value read from a contract's file, with the byte offset where it was written, so every
/// error can point into the file the user wrote. Objects keep their members in document order
/// (a contract's first example, its paths' order and its statuses' order all matter).
///
/// JSON is read into this tree now; a YAML reader hands over the same tree, so the contract
/// reader never knows which syntax a file used.
package struct DocumentNode: Sendable {
    package enum Value: Sendable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        /// A number no `Int` or `Double` holds exactly (`18446744073709551615`), as written.
        case exactNumber(ExactNumber)
        case string(String)
        case array([DocumentNode])
        case object(DocumentObject)
    }

    package var value: Value
    /// Where the value starts in its file, in bytes from the start.
    package var offset: Int

    package init(_ value: Value, at offset: Int) {
        self.value = value
        self.offset = offset
    }

    /// The member `key`, if this is an object that has it.
    package subscript(key: String) -> DocumentNode? {
        if case .object(let object) = value { object[key] } else { nil }
    }

    package var object: DocumentObject? {
        if case .object(let object) = value { object } else { nil }
    }

    package var string: String? {
        if case .string(let string) = value { string } else { nil }
    }

    package var bool: Bool? {
        if case .bool(let bool) = value { bool } else { nil }
    }

    /// The value a JSON pointer's `steps` lead to from here, or the deepest one on the way that is
    /// there, with how many steps were taken (an array index as RFC 6901 writes it: digits
    /// without a leading zero).
    package func deepest(at steps: [String]) -> (node: DocumentNode, reached: Int) {
        var node = self
        for (taken, step) in steps.enumerated() {
            switch node.value {
            case .object(let object):
                guard let member = object[step] else { return (node, taken) }
                node = member
            case .array(let elements):
                guard let index = Int(step), step == String(index), elements.indices.contains(index) else {
                    return (node, taken)
                }
                node = elements[index]
            default: return (node, taken)
            }
        }
        return (node, steps.count)
    }

    /// What kind of value this is, for messages: "an object", "a string".
    package var kind: String {
        switch value {
        case .null: "null"
        case .bool: "a Boolean"
        case .int, .double, .exactNumber: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// An object's members in document order, found by key in constant time once it is large.
package struct DocumentObject: Sendable {
    package struct Member: Sendable {
        package let key: String
        /// Where the key starts in its file.
        package let keyOffset: Int
        package let value: DocumentNode

        package init(key: String, keyOffset: Int, value: DocumentNode) {
            self.key = key
            self.keyOffset = keyOffset
            self.value = value
        }
    }

    package private(set) var members: [Member] = []
    /// Member positions by key, built once an object has more members than a scan should pass.
    private var positions: [String: Int] = [:]
    private static let scanLimit = 12

    package init() {}

    /// Adds a member; returns the existing member when `key` is already there (a duplicate key,
    /// which the reader refuses with both positions).
    package mutating func append(_ member: Member) -> Member? {
        if let existing = self[member: member.key] { return existing }
        members.append(member)
        if members.count > Self.scanLimit {
            if positions.isEmpty {
                for (position, member) in members.enumerated() { positions[member.key] = position }
            } else {
                positions[member.key] = members.count - 1
            }
        }
        return nil
    }

    package subscript(key: String) -> DocumentNode? { self[member: key]?.value }

    package subscript(member key: String) -> Member? {
        if members.count > Self.scanLimit { return positions[key].map { members[$0] } }
        return members.first { $0.key == key }
    }

    package var isEmpty: Bool { members.isEmpty }
}

/// A file the contract reader has read: its tree, and its bytes, which turn an offset into a
/// line and a column when an error needs one.
package struct DocumentSource: Sendable {
    package let url: URL
    package let root: DocumentNode
    private let bytes: [UInt8]

    package init(url: URL, bytes: [UInt8], root: DocumentNode) {
        self.url = url
        self.root = root
        self.bytes = bytes
    }

    /// The 1-based line and column of `offset`; columns count characters (Unicode scalars), so
    /// an editor lands on the spot.
    package func location(of offset: Int) -> (line: Int, column: Int) {
        Self.location(of: offset, in: bytes)
    }

    /// The 1-based lines of `offsets`, counted in one pass over the file (a report of many
    /// problems in a large file).
    package func lines(of offsets: [Int]) -> [Int] {
        let order = offsets.indices.sorted { offsets[$0] < offsets[$1] }
        var lines = Array(repeating: 1, count: offsets.count)
        var line = 1
        var position = 0
        for index in order {
            let end = min(max(offsets[index], 0), bytes.count)
            while position < end {
                if bytes[position] == UInt8(ascii: "\n") { line += 1 }
                position += 1
            }
            lines[index] = line
        }
        return lines
    }

    /// Counted from the start only when asked: errors are rare, and reading a contract
    /// shouldn't pay for a table of its lines.
    package static func location(of offset: Int, in bytes: [UInt8]) -> (line: Int, column: Int) {
        let end = min(max(offset, 0), bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<end] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }
}
