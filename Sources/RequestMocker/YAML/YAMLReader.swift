import Foundation

/// Reads YAML 1.2 text into the tree the contract reader reads JSON into (``DocumentNode``, with
/// each value's byte offset), by the core schema: `true`, `false`, `null`, `~`, integers
/// (decimal, `0o`, `0x`) and floats (`.inf`, `.nan`) are typed; every other plain scalar is a
/// string (`yes`, `no`, `on`, dates). Keys stay text (`200:` is the key "200").
///
/// Read: block mappings and sequences (compact `- key: value` too), plain, single- and
/// double-quoted scalars with every escape and line folding, literal `|` and folded `>` blocks
/// with chomping and indentation indicators, flow collections over several lines, comments,
/// `---` and `...`, anchors and aliases, `<<` merge keys, and explicit `?` keys whose key is a
/// scalar. Refused, at their line and column: tags other than the core ones, keys that are
/// collections, several documents, directives other than `%YAML 1.2`, tabs as indentation, and a
/// duplicate key (naming both places).
///
/// The reader recurses once per level of nesting, at most ``maximumNesting`` levels, and
/// expands aliases into at most ``maximumNodes`` values, so a "billion laughs" file is an error.
package struct YAMLReader {
    /// How deeply collections may nest.
    package static let maximumNesting = 200
    /// How many values a document's aliases may stand for in all, once expanded: a file
    /// writes its values out, so only aliases can make it larger than it is.
    package static let maximumNodes = 1_000_000

    let bytes: [UInt8]
    var position = 0
    /// The values of the anchors seen so far, by name, and how many values each holds.
    var anchors: [String: (node: DocumentNode, size: Int)] = [:]
    /// How many values the document's aliases have stood for so far.
    var nodes = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The stack the reader runs on: a level of nesting takes up to about 17 KiB of it in a
    /// debug build (measured), so 200 levels need several MiB, more than a server connection's
    /// or a concurrency thread's stack; the reader runs on a thread of its own.
    static let stackSize = 16 * 1024 * 1024

    /// Reads `bytes`, one YAML document, into a tree, on a thread with a stack that fits the
    /// deepest document allowed (the caller waits for it).
    package static func parse(_ bytes: [UInt8]) throws(DocumentSyntaxError) -> DocumentNode {
        let outcome = LockedState<Result<DocumentNode, DocumentSyntaxError>?>(nil)
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            var reader = YAMLReader(bytes)
            let result = Result { () throws(DocumentSyntaxError) in try reader.parseStream() }
            outcome.withLock { $0 = result }
            done.signal()
        }
        thread.stackSize = stackSize
        thread.start()
        done.wait()
        guard let result = outcome.withLock({ $0 }) else {
            throw DocumentSyntaxError(offset: 0, reason: "the reader's thread ended without a result", pointer: "")
        }
        return try result.get()
    }

    // MARK: Bytes

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    func byte(at offset: Int) -> UInt8? { offset >= 0 && offset < bytes.count ? bytes[offset] : nil }

    static func isBreak(_ byte: UInt8?) -> Bool { byte == 0x0A || byte == 0x0D }

    /// Whether nothing but a comment is left on this line.
    var atLineEnd: Bool { current == nil || Self.isBreak(current) || current == UInt8(ascii: "#") }
    static func isBlank(_ byte: UInt8?) -> Bool { byte == 0x20 || byte == 0x09 }
    static func isBlankOrBreakOrEnd(_ byte: UInt8?) -> Bool { byte == nil || isBlank(byte) || isBreak(byte) }
    static let flowIndicators: Set<UInt8> = Set(",[]{}".utf8)

    func error(_ reason: String, at offset: Int? = nil) -> DocumentSyntaxError {
        DocumentSyntaxError(offset: offset ?? position, reason: reason, pointer: "")
    }

    /// The column (from 0) of `offset`, in bytes.
    func column(of offset: Int) -> Int {
        var start = offset
        while start > 0, !Self.isBreak(bytes[start - 1]) { start -= 1 }
        return offset - start
    }

    /// Moves past a line break (`\n`, `\r\n` or `\r`).
    mutating func skipBreak() {
        if current == 0x0D { position += 1 }
        if current == 0x0A { position += 1 }
    }

    /// Moves past spaces and tabs on this line.
    mutating func skipBlanks() {
        while Self.isBlank(current) { position += 1 }
    }

    /// Moves past blanks, comments and line breaks, to the next content; returns whether a line
    /// break was crossed. Tabs may separate, but not indent: content after a tab at a line's
    /// start is refused by the caller through ``checkIndentation()``.
    @discardableResult
    mutating func skipSpaceAndComments() -> Bool {
        var crossed = false
        while let byte = current {
            if Self.isBlank(byte) {
                position += 1
            } else if byte == UInt8(ascii: "#"), position == 0 || Self.isBlankOrBreakOrEnd(self.byte(at: position - 1))
            {
                while let next = current, !Self.isBreak(next) { position += 1 }
            } else if Self.isBreak(byte) {
                skipBreak()
                crossed = true
            } else {
                break
            }
        }
        return crossed
    }

    /// Refuses content indented with a tab: YAML indents with spaces only (a tab may separate
    /// content after an indicator, as in `-\tvalue`).
    ///
    /// - Parameter parent: the parent's indentation: the spaces before a tab must indent the
    ///   line past it. At the top, a tab may lead only a flow collection.
    func checkIndentation(parent: Int = -1) throws(DocumentSyntaxError) {
        var start = position
        while start > 0, !Self.isBreak(bytes[start - 1]) { start -= 1 }
        let prefix = bytes[start..<position]
        guard prefix.allSatisfy(Self.isBlank), let tab = prefix.firstIndex(of: 0x09) else { return }
        let spaces = tab - start
        let isFlow = current == UInt8(ascii: "[") || current == UInt8(ascii: "{")
        if isFlow || parent >= 0 && spaces > parent { return }
        throw error("a tab indents this line; YAML indents with spaces only")
    }

    /// Whether the text at `position` is `---` or `...` at a line's start, followed by a blank,
    /// a break or the end.
    func isDocumentMarker(_ marker: UInt8) -> Bool {
        guard column(of: position) == 0, position + 3 <= bytes.count,
            bytes[position] == marker, bytes[position + 1] == marker, bytes[position + 2] == marker
        else { return false }
        return Self.isBlankOrBreakOrEnd(byte(at: position + 3))
    }

    // MARK: Stream

    mutating func parseStream() throws(DocumentSyntaxError) -> DocumentNode {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        var sawStart = false
        var sawDirective = false
        while true {
            skipSpaceAndComments()
            guard current == UInt8(ascii: "%"), column(of: position) == 0 else { break }
            let start = position
            while let byte = current, !Self.isBreak(byte) { position += 1 }
            let directive = String(decoding: bytes[start..<position], as: UTF8.self)
                .split(whereSeparator: { $0 == " " || $0 == "\t" }).prefix { !$0.hasPrefix("#") }
            if directive.first == "%YAML", directive.count == 2, directive.last != "1.2" {
                throw error(
                    "this file asks for YAML \(directive.last ?? "") (%YAML), whose rules differ from 1.2's "
                        + "(yes and no are Booleans there); only YAML 1.2 is read: change it to %YAML 1.2",
                    at: start)
            }
            guard directive.first == "%YAML", directive.count == 2, !sawDirective else {
                throw error(
                    "the directive \(directive.first ?? "%") is not read; only %YAML 1.2 is, once (remove it)",
                    at: start)
            }
            sawDirective = true
        }
        if isDocumentMarker(UInt8(ascii: "-")) {
            position += 3
            sawStart = true
        } else if sawDirective {
            throw error("a directive must be followed by --- and the document")
        }
        // A block collection can't start on the `---` line.
        let startLine = sawStart
        skipBlanks()
        let onMarkerLine = startLine && !atLineEnd
        skipSpaceAndComments()
        let root: DocumentNode
        if current == nil || isDocumentMarker(UInt8(ascii: ".")) || isDocumentMarker(UInt8(ascii: "-")) {
            root = DocumentNode(.null, at: position)
            if !sawStart, current == nil { return root }
        } else {
            try checkIndentation()
            root = try parseBlockNode(indent: -1, depth: 0, inline: onMarkerLine)
        }
        skipSpaceAndComments()
        if isDocumentMarker(UInt8(ascii: ".")) {
            position += 3
            skipSpaceAndComments()
        }
        if current != nil {
            if isDocumentMarker(UInt8(ascii: "-")) {
                throw error("a second document starts here; a file holds one document (split it into files)")
            }
            throw error("unexpected text after the document; check its indentation")
        }
        return root
    }
}
