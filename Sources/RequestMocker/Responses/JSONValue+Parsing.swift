extension JSONValue {
    /// JSON text that could not be parsed: where, and what was expected.
    public struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 0-based byte offset of the problem.
        public let offset: Int
        /// What was wrong.
        public let reason: String

        public var description: String { "invalid JSON at byte \(offset): \(reason)" }
    }

    /// Parses UTF-8 JSON text (RFC 8259; any value may be the top level).
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: Data(#"{"id": 7}"#.utf8))
    /// value["id"]?.intValue // 7
    /// ```
    ///
    /// - Throws: ``ParseError`` with the byte offset of the first problem.
    public init(parsing data: Data) throws(ParseError) {
        let result: Result<JSONValue, ParseError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            return Result { () throws(ParseError) in try parser.parseDocument() }
        }
        self = try result.get()
    }
}

extension JSONValue {
    /// Parses as ``init(parsing:)`` does, and also gives the numbers no `Int` or `Double` holds
    /// exactly (each is a `.double` of its nearest value in the result), by their JSON pointer:
    /// what a contract's checks compare exactly.
    package static func parsingExactly(_ data: Data) throws(ParseError) -> (JSONValue, [String: ExactNumber]) {
        let result: Result<(JSONValue, [String: ExactNumber]), ParseError> = data.withUnsafeBytes { raw in
            var parser = JSONParser(bytes: raw.bindMemory(to: UInt8.self))
            parser.keepsExactNumbers = true
            return Result { () throws(ParseError) in (try parser.parseDocument(), parser.exactNumbers) }
        }
        return try result.get()
    }
}

extension JSONValue {
    /// How deeply arrays and objects may nest, in parsed text and in converted Foundation
    /// objects. Deeper input is an error rather than a risk to the thread's stack.
    public static let maximumNesting = 512
}

/// A parser over UTF-8 bytes; ours so that numbers keep their integer or floating-point nature
/// identically on Linux and Apple platforms. Its tokens come from ``JSONScanner``.
///
/// It does not recurse: the arrays and objects still open are kept in ``open``, so nesting up
/// to ``JSONValue/maximumNesting`` costs heap, not stack, on any thread.
private struct JSONParser {
    var scanner: JSONScanner

    /// An array or object whose closing bracket hasn't been read yet. Its children are added
    /// in place, at the top of ``open``, so the collections are never copied.
    private struct Container {
        let isObject: Bool
        var elements: [JSONValue] = []
        var members: [String: JSONValue] = [:]
        /// The key of the member being read.
        var key = ""
    }

    private var open: [Container] = []
    /// Whether to keep the numbers no `Int` or `Double` holds exactly, in ``exactNumbers``.
    var keepsExactNumbers = false
    private(set) var exactNumbers: [String: ExactNumber] = [:]

    init(bytes: UnsafeBufferPointer<UInt8>) {
        scanner = JSONScanner(bytes: bytes, wording: .value)
    }

    /// Forgets the exact numbers at and below the member about to be read again.
    private mutating func forgetExactNumbers() {
        let replaced = pointer
        exactNumbers = exactNumbers.filter { $0.key != replaced && !$0.key.hasPrefix(replaced + "/") }
    }

    /// The JSON pointer of the value being read (RFC 6901: `~` as `~0`, `/` as `~1`).
    private var pointer: String {
        open.map { container in
            container.isObject
                ? "/"
                    + container.key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                : "/\(container.elements.count)"
        }.joined()
    }

    mutating func parseDocument() throws(JSONValue.ParseError) -> JSONValue {
        do throws(JSONScanner.Failure) {
            // A UTF-8 byte order mark is tolerated.
            scanner.skipByteOrderMark()
            scanner.skipWhitespace()
            guard !scanner.isAtEnd else { throw scanner.fail("the text is empty; expected a JSON value") }
            let value = try parseValue()
            scanner.skipWhitespace()
            guard scanner.isAtEnd else { throw scanner.fail("unexpected text after the JSON value") }
            return value
        } catch {
            throw JSONValue.ParseError(offset: error.offset, reason: error.reason)
        }
    }

    /// One whole value, nested containers included.
    private mutating func parseValue() throws(JSONScanner.Failure) -> JSONValue {
        while true {
            // Read a scalar, or open a container and go on to its first element.
            var value: JSONValue
            switch try scanner.readValueStart(depth: open.count, maximumNesting: JSONValue.maximumNesting) {
            case .opened(let isObject):
                open.append(Container(isObject: isObject, key: isObject ? try scanner.readKey().key : ""))
                continue
            case .empty(let isObject): value = isObject ? .object([:]) : .array([])
            case .string(let string): value = .string(string)
            case .bool(let bool): value = .bool(bool)
            case .null: value = .null
            case .number(.int(let int)): value = .int(int)
            case .number(.double(let double)): value = .double(double)
            case .number(.inexact(let double, let exact)):
                value = .double(double)
                if keepsExactNumbers { exactNumbers[pointer] = exact }
            }
            // Hand the value to the containers it completes, innermost first.
            while let top = open.indices.last {
                let isObject = open[top].isObject
                if isObject {
                    open[top].members[open[top].key] = value
                } else {
                    open[top].elements.append(value)
                }
                if try scanner.readSeparator(inObject: isObject) {
                    if isObject {
                        open[top].key = try scanner.readKey().key
                        // A key written again replaces its value, and the exact numbers in it.
                        if !exactNumbers.isEmpty, open[top].members[open[top].key] != nil { forgetExactNumbers() }
                    }
                    break
                }
                let finished = open.removeLast()
                value = isObject ? .object(finished.members) : .array(finished.elements)
            }
            if open.isEmpty { return value }
        }
    }
}
