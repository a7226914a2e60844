extension YAMLReader {
    /// `[a, b]` or `{a: 1, b: 2}`, over as many lines as it takes; a `key: value` in a sequence is
    /// a mapping of one pair.
    mutating func parseFlowCollection(depth: Int, parent: Int = -1) throws(DocumentSyntaxError) -> DocumentNode {
        guard depth < Self.maximumNesting else {
            throw error("the document nests deeper than \(Self.maximumNesting) levels")
        }
        let start = position
        let isMapping = current == UInt8(ascii: "{")
        let close = isMapping ? UInt8(ascii: "}") : UInt8(ascii: "]")
        position += 1
        var elements: [DocumentNode] = []
        var object = DocumentObject()
        var expectsEntry = true
        while true {
            if skipSpaceAndComments(), current != nil {
                if column(of: position) <= parent {
                    throw error("this line of a flow collection must be indented more than its parent")
                }
                if parent >= 0 { try checkIndentation(parent: parent) }
            }
            guard let byte = current else {
                throw error("this collection never ends; close it with \(UnicodeScalar(close))", at: start)
            }
            if byte == UInt8(ascii: ","), expectsEntry {
                throw error("an empty entry in a flow collection; remove the extra comma")
            }
            if byte == close {
                position += 1
                break
            }
            if isDocumentMarker(UInt8(ascii: "-")) || isDocumentMarker(UInt8(ascii: ".")) {
                throw error("a document marker inside a flow collection; close it first")
            }
            if byte == UInt8(ascii: "?"), Self.isBlankOrBreakOrEnd(self.byte(at: position + 1)) {
                throw error("a complex key (?) is not read; write the key as a plain or quoted string")
            }
            let entryStart = position
            expectsEntry = false
            let (key, keyText, isSingleLine) = try parseFlowNode(depth: depth)
            let crossedLine = skipSpaceAndComments()
            if crossedLine, !isMapping, current == UInt8(ascii: ":") {
                throw error("a key and its : must be on one line")
            }
            var value: DocumentNode?
            if current == UInt8(ascii: ":") {
                let next = self.byte(at: position + 1)
                // `"a":b` (JSON-like, after a quoted key) needs no space; a plain key does.
                let adjacent = bytes[entryStart] == UInt8(ascii: "\"") || bytes[entryStart] == UInt8(ascii: "'")
                if Self.isBlankOrBreakOrEnd(next) || next.map(Self.flowIndicators.contains) == true || adjacent {
                    guard isSingleLine || isMapping else { throw error("a key must be on one line", at: entryStart) }
                    position += 1
                    skipSpaceAndComments()
                    if let after = current, after == UInt8(ascii: ",") || after == close {
                        value = DocumentNode(.null, at: position)
                    } else {
                        value = try parseFlowNode(depth: depth).node
                    }
                    skipSpaceAndComments()
                }
            }
            if isMapping {
                guard let keyText else { throw error("a collection as a key is not read", at: entryStart) }
                let member = DocumentObject.Member(
                    key: keyText, keyOffset: entryStart, value: value ?? DocumentNode(.null, at: position))
                if let earlier = object.append(member) {
                    var failure = error(
                        "the key \"\(keyText)\" appears twice in this mapping; remove one", at: entryStart)
                    failure.earlierOffset = earlier.keyOffset
                    throw failure
                }
            } else if let value {
                guard let keyText else { throw error("a collection as a key is not read", at: entryStart) }
                var pair = DocumentObject()
                _ = pair.append(.init(key: keyText, keyOffset: entryStart, value: value))
                elements.append(DocumentNode(.object(pair), at: entryStart))
            } else {
                elements.append(key)
            }
            if current == UInt8(ascii: ",") {
                position += 1
                expectsEntry = true
            } else if current == nil {
                throw error("this collection never ends; close it with \(UnicodeScalar(close))", at: start)
            } else if current != close {
                throw error("expected \",\" or \(UnicodeScalar(close)) here")
            }
        }
        return DocumentNode(isMapping ? .object(object) : .array(elements), at: start)
    }

    /// One node inside a flow collection, with its key text when it is a scalar, and whether it
    /// stayed on one line.
    mutating func parseFlowNode(depth: Int) throws(DocumentSyntaxError) -> (node: DocumentNode, keyText: String?, Bool)
    {
        let start = position
        let properties = try parseProperties()
        skipSpaceAndComments()
        if let byte = current, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
            let node = try finish(Self.empty(tagged: properties.tag, at: start), properties, at: start)
            return (node, "", true)
        }
        if current == UInt8(ascii: "[") || current == UInt8(ascii: "{") {
            let node = try finish(try parseFlowCollection(depth: depth + 1), properties, at: start)
            return (node, nil, true)
        }
        let scalar = try parseScalarOrAlias(indent: -1, flow: true)
        return (try finish(scalar.node, properties, at: start), scalar.keyText, !scalar.isMultiline)
    }

    /// A literal (`|`) or folded (`>`) block scalar: its header, then the lines indented more than
    /// its parent (`indent`), kept or folded, with their final breaks chomped.
    mutating func parseBlockScalar(indent: Int) throws(DocumentSyntaxError) -> DocumentNode {
        let start = position
        let folded = current == UInt8(ascii: ">")
        position += 1
        var chomping: UInt8?
        var explicit: Int?
        for _ in 0..<2 {
            if let byte = current, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+"), chomping == nil {
                chomping = byte
                position += 1
            } else if let byte = current, byte >= UInt8(ascii: "1"), byte <= UInt8(ascii: "9"), explicit == nil {
                explicit = Int(byte - UInt8(ascii: "0"))
                position += 1
            }
        }
        skipBlanks()
        if current == UInt8(ascii: "#"), position > start, Self.isBlank(bytes[position - 1]) {
            while let byte = current, !Self.isBreak(byte) { position += 1 }
        }
        guard current == nil || Self.isBreak(current) else {
            throw error("a block scalar's header (| or >, then - or + and a digit) ends its line")
        }
        skipBreak()
        // The lines: their indentation and text, until one is indented no more than the parent.
        var contentIndent = explicit.map { max(indent, 0) + $0 }
        var lines: [(indent: Int, text: ArraySlice<UInt8>)] = []
        while position < bytes.count {
            let lineStart = position
            var spaces = 0
            while current == UInt8(ascii: " ") {
                position += 1
                spaces += 1
            }
            var end = position
            while end < bytes.count, !Self.isBreak(bytes[end]) { end += 1 }
            let isEmpty = bytes[position..<end].allSatisfy { Self.isBlank($0) }
            if isEmpty, bytes[position..<end].contains(0x09), spaces <= indent {
                throw error("a tab in a block scalar's indentation; indent with spaces", at: lineStart)
            }
            if column(of: lineStart) == 0, isDocumentMarkerLine(at: lineStart) {
                position = lineStart
                break
            }
            if contentIndent == nil, !isEmpty {
                if spaces <= indent {
                    position = lineStart
                    break
                }
                if let longest = lines.map(\.indent).max(), longest > spaces {
                    throw error("a leading empty line is indented more than the block's first line", at: lineStart)
                }
                contentIndent = spaces
            }
            if !isEmpty, let contentIndent, spaces < contentIndent {
                if bytes[lineStart..<end].first(where: { !Self.isBlank($0) }) == UInt8(ascii: "#") || spaces <= indent {
                    position = lineStart
                    break
                }
                throw error("this line of the block is indented less than its first line", at: lineStart)
            }
            let keep = contentIndent.map { min($0, spaces) } ?? spaces
            lines.append((spaces, bytes[(lineStart + keep)..<end]))
            position = end
            if position < bytes.count { skipBreak() } else { break }
        }
        let indentation = contentIndent ?? 0
        // A line is empty when nothing is left of it past the indentation.
        let texts = lines.map { line in line.indent < indentation ? line.text[line.text.endIndex...] : line.text }
        var last = texts.count - 1
        while last >= 0, texts[last].isEmpty { last -= 1 }
        let trailing = texts.count - 1 - last
        var text: [UInt8] = []
        var index = 0
        while index <= last, texts[index].isEmpty {
            text.append(0x0A)
            index += 1
        }
        var previous: ArraySlice<UInt8>?
        while index <= last {
            var empties = 0
            while texts[index].isEmpty {
                empties += 1
                index += 1
            }
            let line = texts[index]
            if let previous {
                // Folding: between two lines of text at the indentation, one break is a space and
                // the empty lines between them are breaks; around a more-indented line, every
                // break stays.
                let isSpaced = { (text: ArraySlice<UInt8>) in text.first.map(Self.isBlank) ?? false }
                if folded, !isSpaced(previous), !isSpaced(line) {
                    text += empties == 0 ? [0x20] : Array(repeating: 0x0A, count: empties)
                } else {
                    text += Array(repeating: 0x0A, count: empties + 1)
                }
            }
            text += line
            previous = line
            index += 1
        }
        switch chomping {
        case UInt8(ascii: "-"): break
        case UInt8(ascii: "+"): text += Array(repeating: 0x0A, count: (last >= 0 ? 1 : 0) + trailing)
        default: if last >= 0 { text.append(0x0A) }
        }
        return DocumentNode(.string(String(decoding: text, as: UTF8.self)), at: start)
    }

    /// Whether the line at `offset` starts with `---` or `...` and a blank, a break or the end.
    func isDocumentMarkerLine(at offset: Int) -> Bool {
        guard offset + 3 <= bytes.count else { return false }
        let marker = bytes[offset]
        guard marker == UInt8(ascii: "-") || marker == UInt8(ascii: "."), bytes[offset + 1] == marker,
            bytes[offset + 2] == marker
        else { return false }
        return Self.isBlankOrBreakOrEnd(byte(at: offset + 3))
    }
}
