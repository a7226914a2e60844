/// Where a byte offset of a JSON document is: line and column (from 1), and the path of the
/// value being read there (`log.entries[3].request`), found by re-reading the text before it.
struct JSONLocation {
    let line: Int
    let column: Int
    let path: String

    init(offset: Int, in data: Data) {
        enum Frame {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }
        let bytes = [UInt8](data.prefix(max(0, offset)))
        var stack: [Frame] = []
        var line = 1
        var lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
            case UInt8(ascii: "{"):
                stack.append(.object(key: nil, expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                switch stack.last {
                case .object(let key, _)?: stack[stack.count - 1] = .object(key: key, expectingKey: true)
                case .array(let position)?: stack[stack.count - 1] = .array(index: position + 1)
                case nil: break
                }
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if case .object(_, true)? = stack.last {
                    let key = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
                    stack[stack.count - 1] = .object(key: key, expectingKey: false)
                }
                index = end
            default:
                break
            }
            index += 1
        }
        self.line = line
        column = bytes.count - lineStart + 1
        var path = ""
        for frame in stack {
            switch frame {
            case .object(let key?, false): path += path.isEmpty ? key : ".\(key)"
            case .array(let position): path += "[\(position)]"
            default: continue
            }
        }
        self.path = path.isEmpty ? "(root)" : path
    }
}

extension JSONLocation {
    /// One step of a path into a JSON document.
    enum Step: Hashable, Sendable, CustomStringConvertible {
        case key(String)
        case index(Int)

        var description: String {
            switch self {
            case .key(let key): key
            case .index(let index): "[\(index)]"
            }
        }

        /// `stubs[2].response.status`, or `(root)`.
        static func path(_ steps: [Step]) -> String {
            var text = ""
            for step in steps {
                switch step {
                case .key(let key): text += text.isEmpty ? key : ".\(key)"
                case .index(let index): text += "[\(index)]"
                }
            }
            return text.isEmpty ? "(root)" : text
        }
    }

    /// Where the value at `steps` starts in `data` (line and column from 1), found by reading
    /// the text up to it; `nil` when the document has no such value. Reads without recursion.
    static func position(of steps: [Step], in data: Data) -> (line: Int, column: Int)? {
        enum Frame {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }
        let bytes = [UInt8](data)
        var stack: [Frame] = []
        var expectingValue = true
        var line = 1
        var lineStart = 0
        var index = 0
        func atTarget() -> Bool {
            guard stack.count == steps.count else { return false }
            for (frame, step) in zip(stack, steps) {
                switch (frame, step) {
                case (.object(let key?, false), .key(let wanted)) where key == wanted: continue
                case (.array(let position), .index(let wanted)) where position == wanted: continue
                default: return false
                }
            }
            return true
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
                index += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                continue
            default:
                break
            }
            let closes = byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
            if expectingValue, !closes {
                if atTarget() { return (line, index - lineStart + 1) }
                expectingValue = false
            }
            switch byte {
            case UInt8(ascii: "{"):
                stack.append(.object(key: nil, expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
                expectingValue = true
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
                expectingValue = false
            case UInt8(ascii: ","):
                switch stack.last {
                case .object(let key, _)?: stack[stack.count - 1] = .object(key: key, expectingKey: true)
                case .array(let position)?:
                    stack[stack.count - 1] = .array(index: position + 1)
                    expectingValue = true
                case nil: break
                }
            case UInt8(ascii: ":"):
                expectingValue = true
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if case .object(_, true)? = stack.last {
                    let quoted = Data(bytes[index..<min(end + 1, bytes.count)])
                    let key = (try? JSONValue(parsing: quoted))?.stringValue ?? ""
                    stack[stack.count - 1] = .object(key: key, expectingKey: false)
                }
                index = end
            default:
                break
            }
            index += 1
        }
        return nil
    }
}
