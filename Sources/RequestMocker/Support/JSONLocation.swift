import Foundation

/// Where a byte offset of a JSON document is: line and column (from 1), and the path of the
/// value being read there (`log.entries[3].request`), found by re-reading the text before it.
package struct JSONLocation {
    let line: Int
    let column: Int
    let path: String

    init(offset: Int, in data: Data) {
        var scanner = Scanner(bytes: [UInt8](data.prefix(max(0, offset))))
        while scanner.step() != nil {}
        line = scanner.line
        column = scanner.column
        path = Step.path(scanner.path)
    }

    /// Where the value at `steps` starts in `data` (line and column from 1); `nil` when the
    /// document has no such value. Reads without recursion.
    static func position(of steps: [Step], in data: Data) -> (line: Int, column: Int)? {
        var scanner = Scanner(bytes: [UInt8](data))
        while let valueStarts = scanner.step() {
            if valueStarts, scanner.path == steps { return (scanner.line, scanner.column) }
        }
        return nil
    }

    /// One step of a path into a JSON document.
    package enum Step: Hashable, Sendable, CustomStringConvertible {
        case key(String)
        case index(Int)

        package var description: String {
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

    /// Reads JSON text byte by byte, keeping the line, the column and the path of the value
    /// being read (without checking the text: the parser does that).
    private struct Scanner {
        private enum Frame {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }

        private let bytes: [UInt8]
        private var index = 0
        private var stack: [Frame] = []
        private var expectingValue = true
        private(set) var line = 1
        private var lineStart = 0

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        /// The column of the byte `step()` last stopped at, or of the end.
        var column: Int { min(index, bytes.count) - lineStart + 1 }

        /// The path of the value being read: the keys and indexes of the open containers.
        var path: [Step] {
            stack.compactMap { frame in
                switch frame {
                case .object(let key?, false): .key(key)
                case .array(let position): .index(position)
                default: nil
                }
            }
        }

        /// Reads one byte (a whole string at once); returns whether a value starts at it, or `nil`
        /// at the end. When a value starts, `line`, `column` and `path` describe where it is, and
        /// the byte is read by the next call.
        mutating func step() -> Bool? {
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
                index += 1
                return false
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                return false
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                break
            default:
                if expectingValue {
                    expectingValue = false
                    return true
                }
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
                    let key =
                        (try? JSONValue(parsing: quoted))?.stringValue
                        ?? String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
                    stack[stack.count - 1] = .object(key: key, expectingKey: false)
                }
                index = end
            default:
                break
            }
            index += 1
            return false
        }
    }
}
