/// A `.http` mock-data file: a status line, header lines, a blank line, then the body.
///
/// Parsed as bytes, one line at a time, so files written by hand or saved from a real response work:
/// - lines may end in LF or CRLF;
/// - the headers end at the **first** blank line, so a body may contain blank lines;
/// - header names and values are trimmed, and repeated headers are all kept;
/// - the body is any bytes (it need not be UTF-8) and is kept exactly;
/// - a file with no blank line is a status line and headers only;
/// - a header line that starts with a space or tab continues the previous header.
///
/// ```text
/// HTTP/1.1 201 Created
/// Content-Type: application/json
///
/// {"id": 63}
/// ```
struct HTTPResponseFile: Sendable, Equatable {
    let status: HTTPStatus
    let httpVersion: String
    let headers: HTTPHeaders
    let body: Data

    /// What is wrong with a `.http` file, and on which line.
    struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// The 1-based line number.
        let line: Int
        let reason: String

        var description: String { "line \(line): \(reason)" }
    }

    init(parsing data: Data) throws(ParseError) {
        let bytes = [UInt8](data)
        var position = 0
        var lineNumber = 0

        /// The next line without its LF or CRLF, and whether a line ending followed it.
        func nextLine() -> (text: String, ended: Bool)? {
            guard position < bytes.count else { return nil }
            lineNumber += 1
            let end = bytes[position...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
            var lineEnd = end
            if lineEnd > position, bytes[lineEnd - 1] == UInt8(ascii: "\r") { lineEnd -= 1 }
            let text = String(decoding: bytes[position..<lineEnd], as: UTF8.self)
            position = min(end + 1, bytes.count)
            return (text, end < bytes.count)
        }

        guard let statusLine = nextLine() else {
            throw ParseError(
                line: 1, reason: "the file is empty; start it with a status line such as \"HTTP/1.1 200 OK\"")
        }
        let parts = statusLine.text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else {
            throw ParseError(
                line: 1, reason: "\"\(statusLine.text)\" is not a status line; write it as \"HTTP/1.1 200 OK\"")
        }
        guard parts[1].count == 3, let status = Int(parts[1]), (100...599).contains(status) else {
            throw ParseError(line: 1, reason: "\"\(parts[1])\" is not a status code; use three digits from 100 to 599")
        }
        self.status = HTTPStatus(status)
        httpVersion = String(parts[0])

        var headers = HTTPHeaders()
        var body = Data()
        while let line = nextLine() {
            if line.text.isEmpty {
                body = Data(bytes[position...])
                break
            }
            if let first = line.text.first, first == " " || first == "\t" {
                guard !headers.isEmpty else {
                    throw ParseError(
                        line: lineNumber, reason: "a continuation line (starting with a space) needs a header above it")
                }
                headers.continueLastValue(line.text.trimmingCharacters(in: .whitespaces))
                continue
            }
            guard let colon = line.text.firstIndex(of: ":") else {
                throw ParseError(
                    line: lineNumber,
                    reason:
                        "\"\(line.text)\" has no \":\"; "
                        + "write headers as \"Name: value\" and put a blank line before the body"
                )
            }
            let name = line.text[..<colon].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, !name.contains(" ") else {
                throw ParseError(line: lineNumber, reason: "\"\(name)\" is not a header name")
            }
            headers.add(
                HTTPHeaders.Name(name), line.text[line.text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
        self.headers = headers
        self.body = body
    }
}

extension HTTPResponseFile {
    /// The status line, the header fields and the body. The body is stored decoded and whole,
    /// so the framing fields that described the wire (`Content-Encoding`, `Transfer-Encoding`,
    /// `Content-Length`) are left out; the loader works out the length.
    static func contents(of response: RecordedResponse) -> Data {
        var text =
            "\(response.httpVersion) \(response.status.code) \(response.status.reasonPhrase)"
            .trimmingCharacters(in: .whitespaces) + "\n"
        for field in response.headers.removing(HTTPHeaders.Name.framingAndCoding) {
            text += "\(field.name): \(field.value)\n"
        }
        text += "\n"
        return Data(text.utf8) + response.body
    }
}
