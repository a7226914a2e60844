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
        var lines = Self.lines(buffer, begin..<end)
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst()
        guard requestLine.count <= maximumRequestLine else {
            throw Rejection(status: .uriTooLong, reason: "the request line is longer than \(maximumRequestLine) bytes")
        }
        var head = try Self.requestLine(requestLine)
        for line in lines {
            let field = try Self.headerField(line)
            head.headers.add(field.name, field.value)
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

    /// The lines of a head, without their `CRLF` or `LF`, and without the final empty line.
    private static func lines(_ buffer: [UInt8], _ range: Range<Int>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = range.lowerBound
        for index in range where buffer[index] == .lf {
            var lineEnd = index
            if lineEnd > lineStart, buffer[lineEnd - 1] == .cr { lineEnd -= 1 }
            if lineEnd > lineStart { lines.append(buffer[lineStart..<lineEnd]) }
            lineStart = index + 1
        }
        return lines
    }

    private static func requestLine(_ line: ArraySlice<UInt8>) throws(Rejection) -> RequestHead {
        let parts = line.split(separator: .space, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw Rejection(status: .badRequest, reason: "the request line is not `METHOD target HTTP/1.1`")
        }
        guard parts[0].allSatisfy(\.isTokenCharacter) else {
            throw Rejection(status: .badRequest, reason: "the method contains characters a method can't have")
        }
        guard parts[1].allSatisfy({ $0 > .space && $0 != 0x7F }) else {
            throw Rejection(status: .badRequest, reason: "the request target contains control characters")
        }
        let version = parts[2]
        guard version.count == 8, version.starts(with: Array("HTTP/".utf8)),
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
            method: HTTPMethod(rawValue: String(decoding: parts[0], as: UTF8.self)),
            target: String(decoding: parts[1], as: UTF8.self),
            minorVersion: minor,
            headers: HTTPHeaders(),
            framing: .none
        )
    }

    private static func headerField(_ line: ArraySlice<UInt8>) throws(Rejection) -> HTTPHeaders.Field {
        guard let first = line.first, first != .space, first != .tab else {
            throw Rejection(
                status: .badRequest, reason: "a header line starts with whitespace (line folding is not accepted)")
        }
        guard let colon = line.firstIndex(of: .colon) else {
            throw Rejection(
                status: .badRequest,
                reason: "a header line has no colon: \(String(decoding: line.prefix(80), as: UTF8.self))")
        }
        let name = line[line.startIndex..<colon]
        guard !name.isEmpty, name.allSatisfy(\.isTokenCharacter) else {
            throw Rejection(
                status: .badRequest,
                reason:
                    "the header name \(String(decoding: name.prefix(80), as: UTF8.self).debugDescription)"
                    + " is not a token"
            )
        }
        var value = line[(colon + 1)...]
        while let byte = value.first, byte == .space || byte == .tab { value = value.dropFirst() }
        while let byte = value.last, byte == .space || byte == .tab { value = value.dropLast() }
        guard !value.contains(where: { $0 == 0 || $0 == .cr || $0 == .lf }) else {
            throw Rejection(
                status: .badRequest,
                reason: "the value of \(String(decoding: name, as: UTF8.self)) contains a control character")
        }
        return HTTPHeaders.Field(
            name: HTTPHeaders.Name(String(decoding: name, as: UTF8.self)), value: String(decoding: value, as: UTF8.self)
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
