import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("HTTPResponseFile", .timeLimit(.minutes(3)), .hangGuard)
struct HTTPResponseFileTests {
    func parse(_ text: String) throws -> HTTPResponseFile {
        try HTTPResponseFile(parsing: Data(text.utf8))
    }

    @Test("status, headers and body, LF or CRLF alike")
    func basic() throws {
        for ending in ["\n", "\r\n"] {
            let file = try parse(
                ["HTTP/1.1 201 CREATED", "Content-Type:  application/json ", "X-A: 1", "", #"{"id": 63}"#, ""].joined(
                    separator: ending))
            #expect(file.status == 201)
            #expect(file.httpVersion == "HTTP/1.1")
            #expect(file.headers.fields.map(\.name) == ["Content-Type", "X-A"])
            #expect(file.headers["content-type"] == "application/json")
            #expect(file.body == Data((#"{"id": 63}"# + ending).utf8))
        }
    }

    @Test("the split is at the first blank line; a body keeps its blank lines and trailing newlines")
    func firstBlankLine() throws {
        #expect(try parse("HTTP/1.1 200 OK\nA: b\n\nline1\n\nline2").body == Data("line1\n\nline2".utf8))
        #expect(try parse("HTTP/1.1 200 OK\n\nbody\n\n").body == Data("body\n\n".utf8))
    }

    @Test("no blank line means headers only; a status line alone works")
    func noBody() throws {
        let headersOnly = try parse("HTTP/1.1 202 Accepted\nContent-Length: 0")
        #expect(headersOnly.status == 202)
        #expect(headersOnly.headers["Content-Length"] == "0")
        #expect(headersOnly.body.isEmpty)
        #expect(try parse("HTTP/1.1 202 Accepted\n").headers.isEmpty)
        #expect(try parse("HTTP/1.1 202 Accepted").status == 202)
        #expect(try parse("HTTP/1.1 202 Accepted\n\n").body.isEmpty)
    }

    @Test("repeated headers are kept; continuation lines fold into the previous header")
    func repeatedHeaders() throws {
        let file = try parse("HTTP/1.1 200 OK\nSet-Cookie: a=1\nSet-Cookie: b=2\nX-Long: part one\n  part two\n\n")
        #expect(file.headers.values(for: "set-cookie") == ["a=1", "b=2"])
        #expect(file.headers["X-Long"] == "part one part two")
    }

    @Test("a binary body is kept byte for byte")
    func binaryBody() throws {
        var data = Data("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\n\r\n".utf8)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0x0A, 0x0A]
        data.append(contentsOf: png)
        #expect(try HTTPResponseFile(parsing: data).body == Data(png))
    }

    @Test(
        "mistakes name the line and say what to write",
        arguments: [
            ("", 1, "the file is empty"),
            ("200 OK\n\n", 1, "is not a status line"),
            ("HTTP/1.1 OK\n\n", 1, "is not a status code"),
            ("HTTP/1.1 2000 OK\n\n", 1, "is not a status code"),
            ("HTTP/1.1 200 OK\nContent-Type application/json\n\nbody", 2, "has no \":\""),
            ("HTTP/1.1 200 OK\n continued\n\n", 2, "continuation line"),
            ("HTTP/1.1 200 OK\nA: 1\nBad Name: 2\n\n", 3, "is not a header name"),
            ("HTTP/1.1 200 OK\nX-A\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nX-B: 1\n\n", 2, "has no \":\""),
            ("HTTP/1.1 200 OK\nX(evil): 1\n\n", 2, "is not a header name"),
            ("HTTP/1.1 200 OK\nX-A : 1\n\n", 2, "is not a header name"),
            ("HTTP/1.1 200 OK\nX-A: 1\r2\n\n", 2, "carriage return"),
            ("HTTP/1.1 200 OK\nX-A: 1\u{0}2\n\n", 2, "NUL"),
            ("HTTP/1.1 -7 OK\n\n", 1, "is not a status code"),
            ("HTTP/1.1 099 OK\n\n", 1, "is not a status code"),
            ("HTTP/1.1 1000000 OK\n\n", 1, "is not a status code"),
        ])
    func mistakes(text: String, line: Int, reason: String) {
        #expect {
            _ = try parse(text)
        } throws: { error in
            guard let error = error as? HTTPResponseFile.ParseError else { return false }
            return error.line == line && error.reason.contains(reason)
        }
    }

    @Test("statuses are three digits from 100 to 999")
    func statusRange() throws {
        #expect(try parse("HTTP/1.1 100 Continue\n\n").status == 100)
        #expect(try parse("HTTP/1.1 999 Whatever\n\n").status == 999)
    }

    @Test("a head is read from a file's first bytes; one longer than 64 KiB is an error naming its line")
    func headFromFirstBytes() throws {
        let text = "HTTP/1.1 200 OK\nX-A: 1\n\nbody that is not read"
        let head = try HTTPResponseFile.head(of: Data(text.utf8.prefix(30)), isWholeFile: false)
        #expect(head.headers["X-A"] == "1")
        #expect(head.bodyOffset == 24)
        let long = "HTTP/1.1 200 OK\nX-Long: " + String(repeating: "a", count: HTTPResponseFile.maximumHeadSize)
        #expect {
            _ = try HTTPResponseFile.head(
                of: Data(long.utf8.prefix(HTTPResponseFile.maximumHeadSize)), isWholeFile: false)
        } throws: { error in
            guard let error = error as? HTTPResponseFile.ParseError else { return false }
            return error.line == 2 && error.reason.contains("longer than 64 KiB")
        }
    }
}
