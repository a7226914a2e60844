/// A place in your source code, captured with `#fileID`, `#filePath`, `#line` and `#column` so a
/// report can point at it: a test framework marks the line, and messages quote `File.swift:12`.
///
/// APIs that take one give it default arguments, so you rarely write one yourself:
///
/// ```swift
/// registry.register(.get("/users/7").expected(), respond: .json(["id": 7]))
/// // the filter's `expectedAt` is this line
/// ```
package struct CodeLocation: Sendable, CustomStringConvertible {
    /// `Module/File.swift`.
    package let fileID: String
    /// The file's full path, as XCTest wants it.
    package let filePath: StaticString
    /// The line, from 1.
    package let line: UInt
    /// The column, from 1.
    package let column: UInt

    /// The place this initializer is called from, unless given.
    package init(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) {
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
        self.column = column
    }

    /// `File.swift:12`.
    package var description: String {
        "\(fileID.split(separator: "/").last.map(String.init) ?? fileID):\(line)"
    }
}
