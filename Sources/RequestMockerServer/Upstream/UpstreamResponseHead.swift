import Foundation
import RequestMocker

/// A response head from an upstream, read strictly (RFC 9112 §4 and §5): the status line, then
/// fields that are tokens with values free of control characters, no line folding.
struct UpstreamResponseHead {
    let status: HTTPStatus
    let minorVersion: Int
    let headers: HTTPHeaders

    /// How the body that follows is framed (RFC 9112 §6.3).
    enum Framing: Equatable {
        case none
        case length(Int)
        case chunked
        /// Until the upstream closes the connection.
        case close
    }

    /// Why a head can't be read.
    struct Invalid: Error {
        let reason: String
    }

    static let maximumSize = 64 * 1024

    /// The head that starts at `start`, and the index after it; `nil` while it is incomplete.
    static func parse(_ buffer: [UInt8], from start: Int) throws(Invalid) -> (UpstreamResponseHead, Int)? {
        let window = buffer[start..<min(buffer.count, start + maximumSize)]
        // The head ends at an empty line (a bare LF is read as a line end too).
        var lineStart = window.startIndex
        var lines: [ArraySlice<UInt8>] = []
        var end: Int?
        var index = window.startIndex
        while index < window.endIndex {
            if window[index] == .lf {
                var line = window[lineStart..<index]
                if line.last == .cr { line = line.dropLast() }
                if line.isEmpty, !lines.isEmpty {
                    end = index + 1
                    break
                }
                if !line.isEmpty || !lines.isEmpty { lines.append(line) }
                lineStart = index + 1
            }
            index += 1
        }
        guard let end else {
            if window.count >= maximumSize { throw Invalid(reason: "its head is longer than 64 KiB") }
            return nil
        }
        return (try head(lines), end)
    }

    private static func head(_ lines: [ArraySlice<UInt8>]) throws(Invalid) -> UpstreamResponseHead {
        let statusLine = Array(lines[0])
        // `HTTP/1.x SP 3DIGIT [SP reason]`
        let prefix = Array("HTTP/1.".utf8)
        guard statusLine.count >= 12, Array(statusLine[0..<7]) == prefix, statusLine[7].isDecimalDigit,
            statusLine[8] == .space, Array(statusLine[9...11]).allSatisfy({ $0.isDecimalDigit }),
            statusLine.count == 12 || statusLine[12] == .space,
            let code = Int(String(decoding: Array(statusLine[9...11]), as: UTF8.self))
        else {
            let shown = String(decoding: statusLine.prefix(80), as: UTF8.self)
            throw Invalid(reason: "its status line \(shown.debugDescription) is not HTTP/1.x")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            guard let first = line.first, first != .space, first != .tab else {
                throw Invalid(reason: "a header line is folded (RFC 9112 §5.2)")
            }
            guard let colon = line.firstIndex(of: .colon) else {
                throw Invalid(reason: "a header line has no colon")
            }
            let name = String(decoding: line[..<colon], as: UTF8.self)
            // Optional whitespace around the value (RFC 9110 §5.5) is not part of it.
            var valueBytes = line[(colon + 1)...]
            while let first = valueBytes.first, first == .space || first == .tab { valueBytes = valueBytes.dropFirst() }
            while let last = valueBytes.last, last == .space || last == .tab { valueBytes = valueBytes.dropLast() }
            let value = String(decoding: valueBytes, as: UTF8.self)
            guard HTTPHeaders.Name.isValid(name), HTTPHeaders.isValidValue(value) else {
                throw Invalid(reason: "the header \(name.debugDescription) is not a valid field")
            }
            headers.add(HTTPHeaders.Name(name), value)
        }
        return UpstreamResponseHead(status: HTTPStatus(code), minorVersion: Int(statusLine[7] - 0x30), headers: headers)
    }

    /// How the body of this response to a `method` request is framed.
    func framing(for method: HTTPMethod) throws(Invalid) -> Framing {
        if method == .head || status.kind == .informational || status == .noContent || status == .notModified {
            return .none
        }
        let codings = headers.values(for: .transferEncoding)
        let lengths = headers.values(for: .contentLength)
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                throw Invalid(reason: "it has both Transfer-Encoding and Content-Length (RFC 9112 §6.3)")
            }
            let named = codings.flatMap(HTTPHeaders.listElements).map { $0.lowercased() }
            guard named == ["chunked"] else {
                throw Invalid(reason: "its Transfer-Encoding \(codings.joined(separator: ", ")) is not chunked alone")
            }
            return .chunked
        }
        guard !lengths.isEmpty else { return .close }
        // Repeated values must all be the same number (RFC 9112 §6.3); compared without a Set,
        // whose hashing was the larger part of this function's time on every relayed response.
        let values = lengths.flatMap(HTTPHeaders.listElements)
        guard let value = values.first, values.allSatisfy({ $0 == value }), !value.isEmpty, value.utf8.count <= 18,
            value.utf8.allSatisfy({ $0.isDecimalDigit }), let length = Int(value)
        else {
            throw Invalid(reason: "its Content-Length \(lengths.joined(separator: ", ")) is not one number")
        }
        return .length(length)
    }

    /// Whether the upstream keeps the connection open after this response.
    var keepsAlive: Bool {
        minorVersion >= 1
            ? !headers.contains(token: "close", in: .connection)
            : headers.contains(token: "keep-alive", in: .connection)
    }
}
