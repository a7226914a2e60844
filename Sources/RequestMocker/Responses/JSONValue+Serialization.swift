extension JSONValue {
    /// A number JSON can't hold (`nan`, `inf`) found while serializing.
    public struct SerializationError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The key path of the number, `$` being the root.
        public let keyPath: String
        public let value: Double

        public var description: String {
            "number at \(keyPath) is \(value), which JSON cannot hold; use a finite number or null"
        }
    }

    /// Serializes to UTF-8 JSON text with keys sorted, so equal values give equal bytes.
    ///
    /// - Parameter pretty: indent with two spaces and put each member on its own line.
    /// - Throws: ``SerializationError`` for `nan` and infinite numbers.
    public func serialized(pretty: Bool = false) throws(SerializationError) -> Data {
        var output: [UInt8] = []
        output.reserveCapacity(64)
        // The key path of the value being written, one component per open array or object.
        var path: [String] = []
        try walk(keysInOrder: <) { (step, depth) throws(SerializationError) in
            switch step {
            case .scalar(.double(let value)) where !value.isFinite:
                throw SerializationError(keyPath: "$" + path.joined(), value: value)
            case .scalar(let value):
                Self.writeScalar(value, to: &output)
            case .startArray:
                output.append(UInt8(ascii: "["))
                path.append("")
            case .startObject:
                output.append(UInt8(ascii: "{"))
                path.append("")
            case .element(let index):
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(&output, pretty: pretty, indent: depth)
                path[path.count - 1] = "[\(index)]"
            case .member(let key, let index):
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(&output, pretty: pretty, indent: depth)
                Self.writeString(key, to: &output)
                output.append(contentsOf: pretty ? Array(": ".utf8) : [UInt8(ascii: ":")])
                path[path.count - 1] = ".\(key)"
            case .end(let isObject, let count):
                if count > 0 { Self.newline(&output, pretty: pretty, indent: depth) }
                output.append(UInt8(ascii: isObject ? "}" : "]"))
                path.removeLast()
            }
        }
        return Data(output)
    }

    /// Writes `null`, a Boolean, a finite number or a string.
    static func writeScalar(_ value: JSONValue, to output: inout [UInt8]) {
        switch value {
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .int(let value): output.append(contentsOf: String(value).utf8)
        case .double(let value): output.append(contentsOf: value.description.utf8)
        case .string(let value): writeString(value, to: &output)
        case .null, .array, .object: output.append(contentsOf: "null".utf8)
        }
    }

    private static func newline(_ output: inout [UInt8], pretty: Bool, indent: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    package static func writeString(_ string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hex[Int(byte >> 4)])
                output.append(hex[Int(byte & 0x0F)])
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
