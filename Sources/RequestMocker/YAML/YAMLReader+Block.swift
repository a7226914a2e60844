extension YAMLReader {
    /// A node's anchor and tag, written before it.
    struct Properties {
        var anchor: String?
        var tag: String?
    }

    /// The core schema's tags, the only ones read.
    static let coreTags: Set<String> = ["!!str", "!!int", "!!float", "!!bool", "!!null", "!!map", "!!seq"]

    /// Reads `&anchor` and `!!tag`, in either order.
    mutating func parseProperties() throws(DocumentSyntaxError) -> Properties {
        var properties = Properties()
        while let byte = current, byte == UInt8(ascii: "&") || byte == UInt8(ascii: "!") {
            let start = position
            position += 1
            while let next = current, !Self.isBlankOrBreakOrEnd(next), !Self.flowIndicators.contains(next) {
                position += 1
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if byte == UInt8(ascii: "&") {
                guard text.count > 1, properties.anchor == nil else {
                    throw error("an anchor needs one name", at: start)
                }
                properties.anchor = String(text.dropFirst())
            } else {
                guard Self.coreTags.contains(text), properties.tag == nil else {
                    throw error(
                        "the tag \(text) is not read; only the core schema's (!!str, !!int, !!float, !!bool, !!null, "
                            + "!!map, !!seq) are: remove it", at: start)
                }
                properties.tag = text
            }
            skipBlanks()
        }
        return properties
    }

    /// The node at `position` (content, not space), in block context, inside a parent indented
    /// `indent` columns (-1 at the top). `inline`: it follows its key on the key's line, where a
    /// mapping can't start.
    mutating func parseBlockNode(
        indent: Int, depth: Int, inline: Bool = false, outer: Bool = false
    ) throws(DocumentSyntaxError) -> DocumentNode {
        guard depth < Self.maximumNesting else {
            throw error("the document nests deeper than \(Self.maximumNesting) levels")
        }
        let start = position
        let properties = try parseProperties()
        if atLineEnd {
            // Properties alone on their line: the node is on the lines below, or empty.
            skipSpaceAndComments()
            let isMarker = isDocumentMarker(UInt8(ascii: "-")) || isDocumentMarker(UInt8(ascii: "."))
            if current != nil, column(of: position) > indent, !isMarker {
                try checkIndentation(parent: indent)
                return try finish(
                    try parseBlockNode(indent: indent, depth: depth, outer: true), properties, at: start)
            }
            // A sequence may sit at its key's own indentation.
            if current == UInt8(ascii: "-"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)),
                column(of: position) == indent, !isMarker
            {
                return try finish(try parseBlockSequence(column: indent, depth: depth + 1), properties, at: start)
            }
            return try finish(Self.empty(tagged: properties.tag, at: start), properties, at: start)
        }
        let nodeStart = position
        let column = column(of: position)
        if current == UInt8(ascii: "*"), properties.anchor != nil || properties.tag != nil {
            throw error("an alias can't have an anchor or a tag; it is the anchored value")
        }
        if outer, properties.anchor != nil || properties.tag != nil, !startsMapping() {
            throw error("this value has two anchors or tags, one on the line above; keep one", at: start)
        }
        let node: DocumentNode
        switch current {
        case UInt8(ascii: "-") where Self.isBlankOrBreakOrEnd(byte(at: position + 1)):
            guard !inline, properties.anchor == nil, properties.tag == nil else {
                throw error("a sequence can't start on this line; put it on the next line")
            }
            node = try parseBlockSequence(column: column, depth: depth)
        case UInt8(ascii: "?") where Self.isBlankOrBreakOrEnd(byte(at: position + 1)):
            guard !inline else { throw error("a mapping can't start on its key's line; put it on the next line") }
            node = try parseBlockMapping(column: column, firstKey: nil, depth: depth)
        case UInt8(ascii: "|"), UInt8(ascii: ">"):
            node = try parseBlockScalar(indent: indent)
        case UInt8(ascii: "["), UInt8(ascii: "{"):
            let flow = try parseFlowCollection(depth: depth, parent: indent)
            skipBlanks()
            if current == UInt8(ascii: ":"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)) {
                throw error("a collection as a key is not read; write the key as a plain or quoted string")
            }
            node = flow
        default:
            let scalar = try parseScalarOrAlias(indent: indent, flow: false)
            skipBlanks()
            if current == UInt8(ascii: ":"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)) {
                guard !inline else {
                    throw error("a mapping can't start on its key's line; put it on the next line, indented")
                }
                guard !scalar.isMultiline else {
                    throw error("a key must be on one line", at: nodeStart)
                }
                // Properties on the key's line belong to the key; the mapping has none.
                if let anchor = properties.anchor { anchors[anchor] = (scalar.node, 1) }
                let mapping = try parseBlockMapping(
                    column: self.column(of: start), firstKey: (scalar.keyText, nodeStart), depth: depth)
                return mapping
            } else {
                node = scalar.node
            }
        }
        return try finish(node, properties, at: start)
    }

    /// Whether the line from `position` is a `key: value` (so properties before it are the
    /// key's): a `: ` on the line, outside quotes.
    func startsMapping() -> Bool {
        var offset = position
        var quote: UInt8?
        while let byte = self.byte(at: offset), !Self.isBreak(byte) {
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: ":"), Self.isBlankOrBreakOrEnd(self.byte(at: offset + 1)) {
                return true
            } else if byte == UInt8(ascii: "#"), offset > 0, Self.isBlank(bytes[offset - 1]) {
                return false
            }
            offset += 1
        }
        return false
    }

    /// The value of a node with nothing written: `""` when tagged `!!str`, else null.
    static func empty(tagged tag: String?, at offset: Int) -> DocumentNode {
        DocumentNode(tag == "!!str" ? .string("") : .null, at: offset)
    }

    /// Applies a node's tag and records its anchor.
    mutating func finish(
        _ node: DocumentNode, _ properties: Properties, at offset: Int
    ) throws(DocumentSyntaxError) -> DocumentNode {
        var node = node
        switch (properties.tag, node.value) {
        case (nil, _), ("!!map", .object), ("!!seq", .array), ("!!null", .null), ("!!bool", .bool),
            ("!!int", .int), ("!!float", .double), ("!!str", .string):
            break
        case ("!!float", .int(let value)): node.value = .double(Double(value))
        case ("!!str", _):
            guard let text = sourceText(of: node) else {
                throw error("!!str tags a collection here; it tags scalars", at: offset)
            }
            node.value = .string(text)
        default:
            throw error("the value doesn't fit its tag \(properties.tag ?? "")", at: offset)
        }
        if let anchor = properties.anchor { anchors[anchor] = (node, size(of: node)) }
        return node
    }

    /// The text a plain scalar was written as, for `!!str`.
    func sourceText(of node: DocumentNode) -> String? {
        switch node.value {
        case .string(let text): return text
        case .object, .array: return nil
        default:
            var end = node.offset
            while end < bytes.count, !Self.isBlankOrBreakOrEnd(bytes[end]), !Self.flowIndicators.contains(bytes[end]),
                !(bytes[end] == UInt8(ascii: ":") && Self.isBlankOrBreakOrEnd(byte(at: end + 1)))
            {
                end += 1
            }
            return String(decoding: bytes[node.offset..<end], as: UTF8.self)
        }
    }

    /// How many values `node` holds, itself included.
    func size(of node: DocumentNode) -> Int {
        var count = 0
        var pending = [node]
        while let next = pending.popLast() {
            count += 1
            switch next.value {
            case .array(let elements): pending += elements
            case .object(let object): pending += object.members.map(\.value)
            default: break
            }
        }
        return count
    }

    mutating func parseBlockSequence(column: Int, depth: Int) throws(DocumentSyntaxError) -> DocumentNode {
        let start = position
        var elements: [DocumentNode] = []
        while true {
            // At the entry's `-`.
            let entry = position
            position += 1
            skipBlanks()
            if atLineEnd {
                skipSpaceAndComments()
                if current != nil, self.column(of: position) > column, !isDocumentMarker(UInt8(ascii: "-")),
                    !isDocumentMarker(UInt8(ascii: "."))
                {
                    try checkIndentation(parent: column)
                    elements.append(try parseBlockNode(indent: column, depth: depth + 1))
                } else {
                    elements.append(DocumentNode(.null, at: entry))
                }
            } else {
                // A block collection on the entry's line is indented by spaces, never a tab.
                let startsCollection =
                    (current == UInt8(ascii: "-") || current == UInt8(ascii: "?"))
                    && Self.isBlankOrBreakOrEnd(byte(at: position + 1)) || startsMapping()
                if bytes[(entry + 1)..<position].contains(0x09), startsCollection {
                    throw error("a tab indents this entry's collection; YAML indents with spaces only")
                }
                elements.append(try parseBlockNode(indent: column, depth: depth + 1))
            }
            skipSpaceAndComments()
            guard current != nil, !isDocumentMarker(UInt8(ascii: "-")), !isDocumentMarker(UInt8(ascii: ".")) else {
                break
            }
            let next = self.column(of: position)
            if next > column { throw error("this line is indented more than the sequence's entries above it") }
            guard next == column, current == UInt8(ascii: "-"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)) else {
                break
            }
            try checkIndentation()
        }
        return DocumentNode(.array(elements), at: start)
    }

    /// Counts the values an alias stands for against ``maximumNodes``.
    mutating func count(_ values: Int) throws(DocumentSyntaxError) {
        nodes += values
        guard nodes <= Self.maximumNodes else {
            throw error(
                "the document's aliases stand for more than \(Self.maximumNodes) values; "
                    + "it is refused (a \"billion laughs\" file looks like this)")
        }
    }

    /// A block mapping whose first key, `firstKey`, was read up to its `:`; or, with `nil`, one
    /// that starts with an explicit key (`? key`).
    mutating func parseBlockMapping(
        column: Int, firstKey: (String, Int)?, depth: Int
    ) throws(DocumentSyntaxError) -> DocumentNode {
        let start = firstKey?.1 ?? position
        var object = DocumentObject()
        var merges: [DocumentNode] = []
        var implicitKey = firstKey
        while true {
            let key: (String, Int)
            let value: DocumentNode
            if let implicitKey {
                // At the `:` after the key.
                key = implicitKey
                position += 1
                value = try parseMappingValue(keyColumn: column, depth: depth)
            } else {
                (key, value) = try parseExplicitEntry(column: column, depth: depth)
            }
            // Only a plain `<<` merges: a quoted one is a key like any other (YAML 1.1's merge
            // type, as PyYAML reads it, resolves plain scalars alone).
            if key.0 == "<<", byte(at: key.1) == UInt8(ascii: "<") {
                merges.append(value)
            } else if let earlier = object.append(.init(key: key.0, keyOffset: key.1, value: value)) {
                var failure = error("the key \"\(key.0)\" appears twice in this mapping; remove one", at: key.1)
                failure.earlierOffset = earlier.keyOffset
                throw failure
            }
            skipSpaceAndComments()
            guard current != nil, !isDocumentMarker(UInt8(ascii: "-")), !isDocumentMarker(UInt8(ascii: ".")) else {
                break
            }
            let next = self.column(of: position)
            if next > column { throw error("this line is indented more than the mapping's keys above it") }
            guard next == column else { break }
            try checkIndentation()
            if current == UInt8(ascii: "?"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)) {
                implicitKey = nil
                continue
            }
            if current == UInt8(ascii: "-"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)) {
                throw error("a sequence entry where the mapping's next key should be; indent it under a key")
            }
            let keyStart = position
            let keyProperties = try parseProperties()
            if current == UInt8(ascii: "*"), keyProperties.anchor != nil || keyProperties.tag != nil {
                throw error("an alias can't have an anchor or a tag; it is the anchored value")
            }
            let scalar = try parseScalarOrAlias(indent: column, flow: false, isKey: true)
            if let anchor = keyProperties.anchor { anchors[anchor] = (scalar.node, 1) }
            skipBlanks()
            guard current == UInt8(ascii: ":"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)), !scalar.isMultiline
            else {
                throw error("expected \"key: value\" here, at the mapping's indentation", at: keyStart)
            }
            implicitKey = (scalar.keyText, keyStart)
        }
        for merge in merges { try mergeKeys(merge, into: &object) }
        return DocumentNode(.object(object), at: start)
    }

    /// `? key` and, on a line of its own at the mapping's indentation, `: value` (emitters write
    /// long keys so). The key must be a scalar: a collection as a key has no JSON equivalent.
    mutating func parseExplicitEntry(
        column: Int, depth: Int
    ) throws(DocumentSyntaxError) -> (key: (String, Int), value: DocumentNode) {
        let indicator = position
        position += 1
        skipBlanks()
        var key = ("", indicator)
        // The key is on the `?` line, or more indented on the lines below, or empty.
        var hasKey = !atLineEnd
        if !hasKey {
            skipSpaceAndComments()
            hasKey = current != nil && self.column(of: position) > column
        }
        if hasKey {
            if let byte = current,
                byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{")
                    || "-?|>".utf8.contains(byte) && Self.isBlankOrBreakOrEnd(self.byte(at: position + 1))
            {
                throw error("a collection or a block as a key is not read; write the key as a plain or quoted string")
            }
            let keyStart = position
            let properties = try parseProperties()
            let scalar = try parseScalarOrAlias(indent: column, flow: false)
            let node = try finish(scalar.node, properties, at: keyStart)
            key = (node.string ?? scalar.keyText, keyStart)
        }
        skipSpaceAndComments()
        guard current == UInt8(ascii: ":"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)),
            self.column(of: position) == column
        else {
            return (key, DocumentNode(.null, at: indicator))
        }
        position += 1
        skipBlanks()
        // A value on the `:` line may itself be a block collection, indented past the `:` (as
        // after a sequence's `-`).
        if !atLineEnd {
            return (key, try parseBlockNode(indent: column, depth: depth + 1))
        }
        return (key, try parseMappingValue(keyColumn: column, depth: depth))
    }

    /// `<<: *base` (or a list of them): the members of each mapping not already present.
    func mergeKeys(_ merge: DocumentNode, into object: inout DocumentObject) throws(DocumentSyntaxError) {
        let sources: [DocumentNode] =
            if case .array(let elements) = merge.value { elements } else { [merge] }
        for source in sources {
            guard case .object(let members) = source.value else {
                throw error("a merge key (<<) takes a mapping or a list of mappings", at: merge.offset)
            }
            for member in members.members where object[member.key] == nil { _ = object.append(member) }
        }
    }

    /// The value after a key's `:`: on the same line, or on the lines below (more indented, or a
    /// sequence at the key's own indentation), or empty.
    mutating func parseMappingValue(keyColumn: Int, depth: Int) throws(DocumentSyntaxError) -> DocumentNode {
        let colon = position
        skipBlanks()
        if atLineEnd {
            skipSpaceAndComments()
            guard current != nil, !isDocumentMarker(UInt8(ascii: "-")), !isDocumentMarker(UInt8(ascii: ".")) else {
                return DocumentNode(.null, at: colon)
            }
            let next = column(of: position)
            if next > keyColumn {
                try checkIndentation(parent: keyColumn)
                return try parseBlockNode(indent: keyColumn, depth: depth + 1)
            }
            if next == keyColumn, current == UInt8(ascii: "-"), Self.isBlankOrBreakOrEnd(byte(at: position + 1)) {
                try checkIndentation()
                return try parseBlockSequence(column: next, depth: depth + 1)
            }
            return DocumentNode(.null, at: colon)
        }
        return try parseBlockNode(indent: keyColumn, depth: depth + 1, inline: true)
    }
}
