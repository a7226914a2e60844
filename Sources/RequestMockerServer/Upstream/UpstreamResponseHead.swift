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
        // The head ends at an empty line (a bare LF is read as a line end too), after at least
        // one line that isn't.
        let limit = min(buffer.count, start + maximumSize)
        var end: Int?
        buffer.withUnsafeBufferPointer { bytes in
            var index = start
            while index < limit, bytes[index] == .cr || bytes[index] == .lf { index += 1 }
            while index < limit {
                if bytes[index] == .lf {
                    if index + 1 < limit, bytes[index + 1] == .lf {
                        end = index + 2
                        return
                    }
                    if index + 2 < limit, bytes[index + 1] == .cr, bytes[index + 2] == .lf {
                        end = index + 3
                        return
                    }
                }
                index += 1
            }
        }
        guard let end else {
            if limit - start >= maximumSize { throw Invalid(reason: "its head is longer than 64 KiB") }
            return nil
        }
        let lines = FieldLine.lines(buffer, start..<end)
        guard let first = lines.first else { throw Invalid(reason: "it has no status line") }
        let statusLine = buffer[first]
        // `HTTP/1.x SP 3DIGIT [SP reason]`
        let base = statusLine.startIndex
        guard statusLine.count >= 12, statusLine.starts(with: "HTTP/1.".utf8), statusLine[base + 7].isDecimalDigit,
            statusLine[base + 8] == .space, let hundreds = statusLine[base + 9].digitValue,
            let tens = statusLine[base + 10].digitValue, let units = statusLine[base + 11].digitValue,
            statusLine.count == 12 || statusLine[base + 12] == .space
        else {
            let shown = String(decoding: statusLine.prefix(80), as: UTF8.self)
            throw Invalid(reason: "its status line \(shown.debugDescription) is not HTTP/1.x")
        }
        var headers = HTTPHeaders()
        for line in lines.dropFirst() {
            do {
                let field = try FieldLine.field(buffer, line)
                headers.add(field.name, field.value)
            } catch {
                throw Invalid(reason: error.reason)
            }
        }
        let head = UpstreamResponseHead(
            status: HTTPStatus(hundreds * 100 + tens * 10 + units), minorVersion: Int(statusLine[base + 7] - 0x30),
            headers: headers)
        return (head, end)
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
