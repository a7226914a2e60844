extension DocumentNode {
    /// The value as compact JSON text, objects' members in the order they were written (a
    /// contract's example is answered as the contract shows it), built without recursion.
    ///
    /// A number JSON can't hold (YAML's `.inf`) is written as `null`.
    package var jsonBytes: [UInt8] {
        enum Work {
            case node(DocumentNode)
            case byte(UInt8)
            case key(String, first: Bool)
        }
        var output: [UInt8] = []
        var pending: [Work] = [.node(self)]
        while let work = pending.popLast() {
            switch work {
            case .byte(let byte): output.append(byte)
            case .key(let key, let first):
                if !first { output.append(UInt8(ascii: ",")) }
                JSONValue.writeString(key, to: &output)
                output.append(UInt8(ascii: ":"))
            case .node(let node):
                switch node.value {
                case .null: output.append(contentsOf: "null".utf8)
                case .bool(let value): JSONValue.writeScalar(.bool(value), to: &output)
                case .int(let value): JSONValue.writeScalar(.int(value), to: &output)
                case .double(let value):
                    JSONValue.writeScalar(value.isFinite ? .double(value) : .null, to: &output)
                case .exactNumber(let value): output.append(contentsOf: value.description.utf8)
                case .string(let value): JSONValue.writeString(value, to: &output)
                case .array(let elements):
                    output.append(UInt8(ascii: "["))
                    pending.append(.byte(UInt8(ascii: "]")))
                    for (index, element) in elements.enumerated().reversed() {
                        pending.append(.node(element))
                        if index > 0 { pending.append(.byte(UInt8(ascii: ","))) }
                    }
                case .object(let object):
                    output.append(UInt8(ascii: "{"))
                    pending.append(.byte(UInt8(ascii: "}")))
                    for (index, member) in object.members.enumerated().reversed() {
                        pending.append(.node(member.value))
                        pending.append(.key(member.key, first: index == 0))
                    }
                }
            }
        }
        return output
    }

    /// The value as JSON text indented two spaces a level, one member or element a line, for
    /// files people read (a drafted contract); built without recursion.
    package var prettyJSONBytes: [UInt8] {
        enum Work {
            case node(DocumentNode, indent: Int)
            case text([UInt8])
        }
        var output: [UInt8] = []
        var pending: [Work] = [.node(self, indent: 0)]
        func newline(_ indent: Int) -> [UInt8] {
            [UInt8(ascii: "\n")] + Array(repeating: UInt8(ascii: " "), count: indent)
        }
        while let work = pending.popLast() {
            switch work {
            case .text(let bytes): output += bytes
            case .node(let node, let indent):
                switch node.value {
                case .array(let elements) where !elements.isEmpty:
                    output.append(UInt8(ascii: "["))
                    pending.append(.text(newline(indent) + [UInt8(ascii: "]")]))
                    for (index, element) in elements.enumerated().reversed() {
                        pending.append(.node(element, indent: indent + 2))
                        pending.append(.text((index > 0 ? [UInt8(ascii: ",")] : []) + newline(indent + 2)))
                    }
                case .object(let object) where !object.isEmpty:
                    output.append(UInt8(ascii: "{"))
                    pending.append(.text(newline(indent) + [UInt8(ascii: "}")]))
                    for (index, member) in object.members.enumerated().reversed() {
                        pending.append(.node(member.value, indent: indent + 2))
                        var key: [UInt8] = (index > 0 ? [UInt8(ascii: ",")] : []) + newline(indent + 2)
                        JSONValue.writeString(member.key, to: &key)
                        pending.append(.text(key + Array(": ".utf8)))
                    }
                default: output += node.jsonBytes
                }
            }
        }
        return output + [UInt8(ascii: "\n")]
    }
}
