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
        scanner = JSONScanner(bytes: bytes)
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
            guard var value = try parseScalarOrOpen() else { continue }
            while let top = open.indices.last {
                scanner.skipWhitespace()
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
                let closing = isObject ? "}" : "]"
                guard !scanner.isAtEnd else {
                    throw scanner.fail("unexpected end of the file; expected \",\" or \"\(closing)\"")
                }
                if scanner.current == UInt8(ascii: ",") {
                    scanner.index += 1
                    if isObject { try readKey(into: top) }
                    break
                }
                guard scanner.current == UInt8(ascii: isObject ? "}" : "]") else {
                    throw scanner.fail("expected \",\" or \"\(closing)\"")
                }
                scanner.index += 1
                let finished = open.removeLast()
                value = DocumentNode(
                    isObject ? .object(finished.object) : .array(finished.elements), at: finished.offset)
            }
            if open.isEmpty { return value }
        }
    }

    private mutating func parseScalarOrOpen() throws(JSONScanner.Failure) -> DocumentNode? {
        scanner.skipWhitespace()
        guard !scanner.isAtEnd else { throw scanner.fail("unexpected end of the file; expected a value") }
        let start = scanner.index
        switch scanner.current {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            let isObject = scanner.current == UInt8(ascii: "{")
            guard open.count < DocumentNode.maximumNesting else {
                throw scanner.fail("nesting deeper than \(DocumentNode.maximumNesting) levels")
            }
            scanner.index += 1
            scanner.skipWhitespace()
            if !scanner.isAtEnd, scanner.current == UInt8(ascii: isObject ? "}" : "]") {
                scanner.index += 1
                return DocumentNode(isObject ? .object(DocumentObject()) : .array([]), at: start)
            }
            open.append(Container(offset: start, isObject: isObject))
            if isObject { try readKey(into: open.count - 1) }
            return nil
        case UInt8(ascii: "\""): return DocumentNode(.string(try scanner.parseString()), at: start)
        case UInt8(ascii: "t"):
            try scanner.expectLiteral("true")
            return DocumentNode(.bool(true), at: start)
        case UInt8(ascii: "f"):
            try scanner.expectLiteral("false")
            return DocumentNode(.bool(false), at: start)
        case UInt8(ascii: "n"):
            try scanner.expectLiteral("null")
            return DocumentNode(.null, at: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            switch try scanner.parseNumber() {
            case .int(let int): return DocumentNode(.int(int), at: start)
            case .double(let double): return DocumentNode(.double(double), at: start)
            }
        default:
            throw scanner.fail("unexpected character \(scanner.describe(scanner.current)); expected a value")
        }
    }

    /// An object member's key and the colon after it, into the open container at `top`.
    private mutating func readKey(into top: Int) throws(JSONScanner.Failure) {
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current == UInt8(ascii: "\"") else {
            throw scanner.fail("expected a string key")
        }
        open[top].keyOffset = scanner.index
        open[top].key = try scanner.parseString()
        scanner.skipWhitespace()
        guard !scanner.isAtEnd, scanner.current == UInt8(ascii: ":") else {
            throw scanner.fail("expected \":\" after the key \"\(open[top].key)\"")
        }
        scanner.index += 1
    }
}
