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
}
