import Foundation

/// The rows of MockDataNaming.md's worked-examples table, which tests check the naming code and
/// the `request-mocker name` command against.
package struct MockDataNamingExample: Sendable, CustomStringConvertible {
    /// `METHOD /path?query`.
    package let request: String
    /// `Name: value` lines.
    package let headers: [String]
    package let body: String?
    /// `wildcards`, `headers: A, B`, or nothing.
    package let options: String
    /// The names, without extension, in lookup order.
    package let names: [String]

    package var description: String { request + (options.isEmpty ? "" : " (\(options))") }

    package var method: String { String(request.split(separator: " ", maxSplits: 1)[0]) }
    package var target: String { String(request.split(separator: " ", maxSplits: 1)[1]) }
    package var allowsWildcards: Bool { options.contains("wildcards") }

    /// The header names the row puts in the names.
    package var headersInName: [String] {
        options.components(separatedBy: "headers: ").dropFirst().first?
            .components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
    }

    /// Every row, read from the document at the package root.
    package static func all() throws -> [MockDataNamingExample] {
        let document = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // RequestMockerTestSupport
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
            .appendingPathComponent("MockDataNaming.md")
        let text = try String(contentsOf: document, encoding: .utf8)
        let table = text.components(separatedBy: "## Worked examples")[1]
        return table.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let placeholder = "\u{1}"
            let cells = line.replacingOccurrences(of: "\\|", with: placeholder)
                .split(separator: "|", omittingEmptySubsequences: false)
                .dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: placeholder, with: "|") }
            func list(_ cell: String) -> [String] {
                cell.isEmpty
                    ? []
                    : cell.components(separatedBy: "<br>").map {
                        $0.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                    }
            }
            return MockDataNamingExample(
                request: list(cells[0])[0], headers: list(cells[1]), body: list(cells[2]).first, options: cells[3],
                names: list(cells[4]))
        }
    }
}
