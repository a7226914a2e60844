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

    struct ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        let line: Int
        let reason: String

        var description: String { "line \(line): \(reason)" }
    }

    /// The status line and headers; the body is whatever follows them in the file.
    struct Head: Sendable, Equatable {
        let status: HTTPStatus
        let httpVersion: String
        let headers: HTTPHeaders
        /// Where the body starts: just after the first blank line, or at the end of a file that
        /// has none.
        let bodyOffset: Int
    }

    /// The most a head may take: larger files are read head first, and only this much of it.
    static let maximumHeadSize = 64 * 1024

    init(parsing data: Data) throws(ParseError) {
        let head = try Self.head(of: data, isWholeFile: true)
        status = head.status
        httpVersion = head.httpVersion
        headers = head.headers
        body = data.subdata(in: (data.startIndex + head.bodyOffset)..<data.endIndex)
    }

    /// Parses the head at the start of `bytes`, which are the whole file or its first bytes.
    static func head(of bytes: Data, isWholeFile: Bool) throws(ParseError) -> Head {
        let bytes = [UInt8](bytes)
        var position = 0
        var lineNumber = 0

        // Only the head is split into lines: the body may be anything.
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
        guard statusLine.ended || isWholeFile else {
            throw ParseError(line: 1, reason: "the status line is longer than \(maximumHeadSize / 1024) KiB")
        }
        let parts = statusLine.text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/") else {
            throw ParseError(
                line: 1, reason: "\"\(statusLine.text)\" is not a status line; write it as \"HTTP/1.1 200 OK\"")
        }
        guard parts[1].count == 3, parts[1].allSatisfy({ ("0"..."9").contains($0) }), let status = Int(parts[1]),
            (100...999).contains(status)
        else {
            throw ParseError(line: 1, reason: "\"\(parts[1])\" is not a status code; use three digits from 100 to 999")
        }

        var headers = HTTPHeaders()
        while let line = nextLine() {
            guard line.ended || isWholeFile else {
                throw ParseError(
                    line: lineNumber,
                    reason: "the head (status line and headers) is longer than \(maximumHeadSize / 1024) KiB; "
                        + "put a blank line before the body")
            }
            if line.text.isEmpty {
                return Head(
                    status: HTTPStatus(status), httpVersion: String(parts[0]), headers: headers, bodyOffset: position)
            }
            if let first = line.text.first, first == " " || first == "\t" {
                guard !headers.isEmpty else {
                    throw ParseError(
                        line: lineNumber, reason: "a continuation line (starting with a space) needs a header above it")
                }
                let value = line.text.trimmingCharacters(in: .whitespaces)
                try checkValue(value, line: lineNumber)
                headers.continueLastValue(value)
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
            let name = String(line.text[..<colon])
            guard HTTPHeaders.Name.isValid(name) else {
                throw ParseError(
                    line: lineNumber,
                    reason: "\"\(name)\" is not a header name; use letters, digits and !#$%&'*+-.^_`|~ only")
            }
            let value = line.text[line.text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            try checkValue(value, line: lineNumber)
            headers.add(HTTPHeaders.Name(name), value)
        }
        guard isWholeFile else {
            throw ParseError(
                line: lineNumber,
                reason: "the head (status line and headers) is longer than \(maximumHeadSize / 1024) KiB; "
                    + "put a blank line before the body")
        }
        return Head(status: HTTPStatus(status), httpVersion: String(parts[0]), headers: headers, bodyOffset: position)
    }

    /// A value may hold any byte but the ones that end a line or a string.
    private static func checkValue(_ value: String, line: Int) throws(ParseError) {
        guard HTTPHeaders.isValidValue(value) else {
            throw ParseError(line: line, reason: "the value holds a carriage return or a NUL byte; remove it")
        }
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
