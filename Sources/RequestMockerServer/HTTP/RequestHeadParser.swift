import Foundation
import RequestMocker

/// Finds and parses request heads in a connection's input, within the configured limits.
///
/// Lenient where clients commonly are (a bare `LF` ends a line, empty lines before a request are
/// skipped), strict where leniency lets requests be misread: a header name with whitespace
/// before its colon, a folded header line, `Content-Length` with `Transfer-Encoding`, or
/// conflicting lengths are refused with `400`, as RFC 9112 asks.
struct RequestHeadParser {
    let maximumRequestLine: Int
    let maximumHead: Int
    let maximumBody: Int

    /// Parses the head starting at `start`, if all of it has arrived.
    ///
    /// - Parameter scanned: how far an earlier call searched for the head's end; updated, so
    ///   a client that sends a byte at a time doesn't make every read rescan the whole head.
    ///   Start at 0 for each request.
    /// - Returns: the head and the index just past it, or `nil` when more input is needed.
    /// - Throws: a ``Rejection`` for input that is too long or malformed.
    func parse(_ buffer: [UInt8], from start: Int, scanned: inout Int) throws(Rejection) -> (RequestHead, end: Int)? {
        var begin = start
        // Empty lines before a request line are tolerated (RFC 9112 §2.2).
        while begin < buffer.count, buffer[begin] == .cr || buffer[begin] == .lf { begin += 1 }
        guard begin < buffer.count else { return nil }
        guard
            let end = Self.endOfHead(
                buffer, from: max(begin, scanned), limit: maximumHead - (max(begin, scanned) - begin))
        else {
            scanned = max(begin, buffer.count - 3)
            let window = buffer[begin..<min(buffer.count, begin + maximumRequestLine + 1)]
            if buffer.count - begin > maximumRequestLine, !window.contains(.lf) {
                throw Rejection(
                    status: .uriTooLong, reason: "the request line is longer than \(maximumRequestLine) bytes")
            }
            if buffer.count - begin > maximumHead {
                throw Rejection(
                    status: .requestHeaderFieldsTooLarge,
                    reason: "the request's header fields are larger than \(maximumHead / 1024) KiB")
            }
            return nil
        }
        let lines = FieldLine.lines(buffer, begin..<end)
        guard let requestLine = lines.first else { return nil }
        guard requestLine.count <= maximumRequestLine else {
            throw Rejection(status: .uriTooLong, reason: "the request line is longer than \(maximumRequestLine) bytes")
        }
        var head = try Self.requestLine(buffer[requestLine])
        for line in lines.dropFirst() {
            do {
                let field = try FieldLine.field(buffer, line)
                head.headers.add(field.name, field.value)
            } catch {
                throw Rejection(status: .badRequest, reason: error.reason)
            }
        }
        head.framing = try framing(of: head)
        return (head, end)
    }

    /// The index just past the empty line that ends a head, searching no further than `limit`.
    private static func endOfHead(_ buffer: [UInt8], from start: Int, limit: Int) -> Int? {
        var index = start
        let stop = min(buffer.count, start + limit + 4)
        while index < stop {
            guard let lf = buffer[index..<stop].firstIndex(of: .lf) else { return nil }
            let next = lf + 1
            if next < buffer.count, buffer[next] == .lf { return next + 1 }
            if next + 1 < buffer.count, buffer[next] == .cr, buffer[next + 1] == .lf { return next + 2 }
            if next >= buffer.count || (next + 1 >= buffer.count && buffer[next] == .cr) { return nil }
            index = next
        }
        return nil
    }

    private static func requestLine(_ line: ArraySlice<UInt8>) throws(Rejection) -> RequestHead {
        // Exactly two spaces, with a method and a target before them.
        guard let firstSpace = line.firstIndex(of: .space),
            let secondSpace = line[(firstSpace + 1)...].firstIndex(of: .space),
            !line[(secondSpace + 1)...].contains(.space), firstSpace > line.startIndex, secondSpace > firstSpace + 1
        else {
            throw Rejection(status: .badRequest, reason: "the request line is not `METHOD target HTTP/1.1`")
        }
        let (method, target, version) = (
            line[..<firstSpace], line[(firstSpace + 1)..<secondSpace], line[(secondSpace + 1)...]
        )
        guard method.allSatisfy(\.isTokenCharacter) else {
            throw Rejection(status: .badRequest, reason: "the method contains characters a method can't have")
        }
        guard target.allSatisfy({ $0 > .space && $0 != 0x7F }) else {
            throw Rejection(status: .badRequest, reason: "the request target contains control characters")
        }
        guard version.count == 8, version.starts(with: "HTTP/".utf8),
            let major = version[version.startIndex + 5].digitValue, version[version.startIndex + 6] == .dot,
            let minor = version[version.startIndex + 7].digitValue
        else {
            throw Rejection(
                status: .badRequest, reason: "the request line does not end in an HTTP version such as `HTTP/1.1`")
        }
        guard major == 1 else {
            throw Rejection(
                status: .httpVersionNotSupported,
                reason: "only HTTP/1.0 and HTTP/1.1 are served, not HTTP/\(major).\(minor)")
        }
        return RequestHead(
            method: HTTPMethod(rawValue: String(decoding: method, as: UTF8.self)),
            target: String(decoding: target, as: UTF8.self),
            minorVersion: minor,
            headers: HTTPHeaders(),
            framing: .none
        )
    }

    private func framing(of head: RequestHead) throws(Rejection) -> RequestHead.BodyFraming {
        // Empty list members count: `Content-Length:` or `Content-Length: ,` is no length at all,
        // and reading it as "no body" would answer the body as the next request.
        let lengths = head.headers.values(for: .contentLength)
            .flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let codings = head.headers.values(for: .transferEncoding).flatMap(HTTPHeaders.listElements)
            .map { $0.lowercased() }
        if !codings.isEmpty {
            guard lengths.isEmpty else {
                throw Rejection(
                    status: .badRequest, reason: "the request has both Content-Length and Transfer-Encoding")
            }
            guard codings.last == "chunked", head.minorVersion >= 1 else {
                throw Rejection(
                    status: .badRequest,
                    reason:
                        "Transfer-Encoding \(codings.joined(separator: ", ")) is not supported; "
                        + "send chunked or a Content-Length"
                )
            }
            return .chunked
        }
        guard let length = lengths.first else { return .none }
        guard lengths.allSatisfy({ $0 == length }), !length.isEmpty, length.utf8.allSatisfy({ $0.digitValue != nil })
        else {
            let shown = head.headers.values(for: .contentLength).joined(separator: ", ")
            throw Rejection(
                status: .badRequest, reason: "Content-Length \(shown.debugDescription) is not one decimal number")
        }
        guard let count = Int(length), count <= maximumBody else {
            throw Rejection(
                status: .contentTooLarge,
                reason: "the body of \(length) bytes is larger than the limit of \(maximumBody) bytes")
        }
        return count == 0 ? .none : .length(count)
    }
}
