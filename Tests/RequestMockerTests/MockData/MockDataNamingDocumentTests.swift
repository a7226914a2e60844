import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Checks every row of MockDataNaming.md's worked-examples table against the naming code.
@Suite("MockDataNaming.md")
struct MockDataNamingDocumentTests {
    struct Row: CustomStringConvertible {
        let request: String
        let headers: [String]
        let body: String?
        let options: String
        let names: [String]

        var description: String { request + (options.isEmpty ? "" : " (\(options))") }
    }

    static func rows() throws -> [Row] {
        let document = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
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
            return Row(
                request: list(cells[0])[0], headers: list(cells[1]), body: list(cells[2]).first, options: cells[3],
                names: list(cells[4]))
        }
    }

    @Test("the table has the examples the issue asks for")
    func coverage() throws {
        let rows = try Self.rows()
        #expect(rows.count >= 15)
        #expect(rows.contains { $0.options.contains("wildcards") })
        #expect(rows.contains { $0.options.contains("headers:") })
        #expect(rows.contains { $0.request.hasSuffix(".json") })
    }

    @Test("every worked example matches the code", arguments: try rows())
    func example(row: Row) throws {
        let parts = row.request.split(separator: " ", maxSplits: 1).map(String.init)
        var headers = HTTPHeaders()
        for header in row.headers {
            let pair = header.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            headers.add(HTTPHeaders.Name(pair[0]), pair[1])
        }
        let request = MockRequest(
            method: HTTPMethod(rawValue: parts[0]),
            url: try #require(URL(string: "http://example.com" + parts[1])),
            headers: headers,
            body: row.body.map { Data($0.utf8) }
        )
        let headerNames =
            row.options.components(separatedBy: "headers: ").dropFirst().first?
            .components(separatedBy: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        let naming = MockDataNaming(allowsWildcards: row.options.contains("wildcards"), headersInName: headerNames)
        #expect(naming.candidates(for: request) == row.names)
    }
}
