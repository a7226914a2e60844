import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Checks every row of MockDataNaming.md's worked-examples table against the naming code.
@Suite("MockDataNaming.md", .timeLimit(.minutes(3)), .hangGuard)
struct MockDataNamingDocumentTests {
    @Test("the table has the examples the issue asks for")
    func coverage() throws {
        let rows = try MockDataNamingExample.all()
        #expect(rows.count >= 15)
        #expect(rows.contains { $0.allowsWildcards })
        #expect(rows.contains { !$0.headersInName.isEmpty })
        #expect(rows.contains { $0.request.hasSuffix(".json") })
    }

    @Test("every worked example matches the code", arguments: try MockDataNamingExample.all())
    func example(row: MockDataNamingExample) throws {
        var headers = HTTPHeaders()
        for header in row.headers {
            let pair = header.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            headers.add(HTTPHeaders.Name(pair[0]), pair[1])
        }
        let request = MockRequest(
            method: HTTPMethod(rawValue: row.method),
            url: try #require(URL(string: "http://example.com" + row.target)),
            headers: headers,
            body: row.body.map { Data($0.utf8) }
        )
        let naming = MockDataNaming(allowsWildcards: row.allowsWildcards, headersInName: row.headersInName)
        #expect(naming.candidates(for: request) == row.names)
    }
}
