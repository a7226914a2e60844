/// A document's text that could not be read: where, and what was wrong.
package struct DocumentSyntaxError: Error, Sendable {
    /// The byte offset of the problem.
    package let offset: Int
    package let reason: String
    /// The JSON pointer of the value being read when it went wrong.
    package let pointer: String
    /// Another place the problem involves: where a duplicated key first appeared.
    package var earlierOffset: Int? = nil
}

extension DocumentNode {
    /// How deeply a document's arrays and objects may nest: contracts nest a few dozen levels;
    /// deeper input is an error, not a risk.
    package static let maximumNesting = 512

    /// Reads JSON text (RFC 8259) into a tree. A key that appears twice in one object is an error
    /// naming both places, as it usually is a mistake in a contract.
    package static func parseJSON(_ bytes: [UInt8]) throws(DocumentSyntaxError) -> DocumentNode {
        try bytes.withUnsafeBufferPointer { buffer throws(DocumentSyntaxError) in
            var parser = DocumentJSONParser(bytes: buffer)
            return try parser.parseDocument()
        }
    }
}

/// The JSON reader behind ``DocumentNode/parseJSON(_:)``; its tokens come from ``JSONScanner``.
/// It does not recurse: containers still open are kept in ``open``, so nesting costs heap, not
/// stack.
private struct DocumentJSONParser {
    var scanner: JSONScanner

    private struct Container {
        let offset: Int
        let isObject: Bool
        var elements: [DocumentNode] = []
        var object = DocumentObject()
        var key = ""
        var keyOffset = 0
    }

    private var open: [Container] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes: bytes, wording: .document)
    }

    mutating func parseDocument() throws(DocumentSyntaxError) -> DocumentNode {
        do {
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw scanner.fail("the file is empty; expected a JSON object") }
            let value = try parseValue()
            scanner.skipWhitespace()
            guard scanner.isAtEnd else { throw scanner.fail("unexpected text after the JSON value") }
            return value
        } catch let error as DocumentSyntaxError {
            throw error
        } catch let error as JSONScanner.Failure {
            throw DocumentSyntaxError(offset: error.offset, reason: error.reason, pointer: pointer)
        } catch {
            throw DocumentSyntaxError(offset: scanner.index, reason: "\(error)", pointer: pointer)
        }
    }

    /// The pointer of the value being read, from the containers still open.
    private var pointer: String {
        open.map { container in
            let step = container.isObject ? container.key : String(container.elements.count)
            return "/" + step.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }.joined()
    }

    private mutating func parseValue() throws -> DocumentNode {
        while true {
            scanner.skipWhitespace()
            let start = scanner.index
            var value: DocumentNode
            switch try scanner.readValueStart(depth: open.count, maximumNesting: DocumentNode.maximumNesting) {
            case .opened(let isObject):
                open.append(Container(offset: start, isObject: isObject))
                if isObject { try readKey(into: open.count - 1) }
                continue
            case .empty(let isObject):
                value = DocumentNode(isObject ? .object(DocumentObject()) : .array([]), at: start)
            case .string(let string): value = DocumentNode(.string(string), at: start)
            case .bool(let bool): value = DocumentNode(.bool(bool), at: start)
            case .null: value = DocumentNode(.null, at: start)
            case .number(.int(let int)): value = DocumentNode(.int(int), at: start)
            case .number(.double(let double)): value = DocumentNode(.double(double), at: start)
            case .number(.inexact(_, let exact)): value = DocumentNode(.exactNumber(exact), at: start)
            }
            while let top = open.indices.last {
                let isObject = open[top].isObject
                if isObject {
                    let member = DocumentObject.Member(key: open[top].key, keyOffset: open[top].keyOffset, value: value)
                    if let earlier = open[top].object.append(member) {
                        var error = DocumentSyntaxError(
                            offset: member.keyOffset, reason: "the key \"\(member.key)\" appears twice in one object",
                            pointer: pointer)
                        error.earlierOffset = earlier.keyOffset
                        throw error
                    }
                } else {
                    open[top].elements.append(value)
                }
                if try scanner.readSeparator(inObject: isObject) {
                    if isObject { try readKey(into: top) }
                    break
                }
                let finished = open.removeLast()
                value = DocumentNode(
                    isObject ? .object(finished.object) : .array(finished.elements), at: finished.offset)
            }
            if open.isEmpty { return value }
        }
    }

    /// An object member's key and the colon after it, into the open container at `top`.
    private mutating func readKey(into top: Int) throws(JSONScanner.Failure) {
        (open[top].key, open[top].keyOffset) = try scanner.readKey()
    }
}

extension DocumentNode {
    /// The value as a ``JSONValue`` (objects lose their order), built without recursion.
    package var jsonValue: JSONValue {
        // Post-order over an explicit stack: each container is built once its children are.
        var results: [JSONValue] = []
        var pending: [(node: DocumentNode, expanded: Bool)] = [(self, false)]
        while let (node, expanded) = pending.popLast() {
            switch node.value {
            case .null: results.append(.null)
            case .bool(let value): results.append(.bool(value))
            case .int(let value): results.append(.int(value))
            case .double(let value): results.append(.double(value))
            case .exactNumber(let value): results.append(.double(value.double))
            case .string(let value): results.append(.string(value))
            case .array(let elements):
                if expanded {
                    let values = Array(results.suffix(elements.count))
                    results.removeLast(elements.count)
                    results.append(.array(values))
                } else {
                    pending.append((node, true))
                    pending.append(contentsOf: elements.reversed().map { ($0, false) })
                }
            case .object(let object):
                if expanded {
                    let values = results.suffix(object.members.count)
                    var members: [String: JSONValue] = [:]
                    for (member, value) in zip(object.members, values) { members[member.key] = value }
                    results.removeLast(object.members.count)
                    results.append(.object(members))
                } else {
                    pending.append((node, true))
                    pending.append(contentsOf: object.members.reversed().map { ($0.value, false) })
                }
            }
        }
        return results.last ?? .null
    }

    /// The number, if this is one.
    package var number: Double? {
        switch value {
        case .int(let value): Double(value)
        case .double(let value): value
        case .exactNumber(let value): value.double
        default: nil
        }
    }

    /// The number as a non-negative count, if it is one.
    package var count: Int? {
        if case .int(let value) = value, value >= 0 { value } else { nil }
    }
}
