/// The text of a GraphQL document (a schema or an operation), as UTF-8 bytes, with what turns a
/// byte offset into the line and column a message names.
///
/// Lines and columns count from 1; a column counts Unicode scalars, as graphql-core does, so a
/// message and a client's editor point at the same character.
package struct GraphQLSource: Sendable {
    package let bytes: [UInt8]
    /// Where the text came from, for messages: a file's path, or `nil` for a request's query.
    package let name: String?
    /// The offset each line starts at, the first line's (0) included.
    private let lineStarts: [Int]

    package init(_ text: String, name: String? = nil) {
        self.init(bytes: Array(text.utf8), name: name)
    }

    package init(bytes: [UInt8], name: String? = nil) {
        self.bytes = bytes
        self.name = name
        var starts = [0]
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case 0x0A:
                starts.append(index + 1)
            case 0x0D:
                // CR LF is one line terminator.
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            default: break
            }
            index += 1
        }
        lineStarts = starts
    }

    /// The line and column of `offset`.
    package func location(of offset: Int) -> GraphQLLocation {
        let offset = min(max(0, offset), bytes.count)
        // The last line that starts at or before the offset.
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        var column = 1
        var index = lineStarts[low]
        while index < offset {
            // A scalar's continuation bytes don't start a column.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return GraphQLLocation(line: low + 1, column: column)
    }

    /// `file:line:column: ` for a message about `offset`, or `line:column: ` for a source without
    /// a name.
    package func prefix(at offset: Int) -> String {
        let location = location(of: offset)
        return (name.map { "\($0):" } ?? "") + "\(location.line):\(location.column)"
    }
}

/// A line and a column in a GraphQL document, both from 1, as a GraphQL error's `locations`
/// gives them.
public struct GraphQLLocation: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, counted in Unicode scalars.
    public var column: Int

    /// The place at `line` and `column`.
    ///
    /// ```swift
    /// GraphQLLocation(line: 3, column: 7).description  // "3:7"
    /// ```
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `line:column`.
    public var description: String { "\(line):\(column)" }
}
