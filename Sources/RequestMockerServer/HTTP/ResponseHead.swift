import Foundation
import RequestMocker

/// Writes a response's status line and header fields as HTTP/1.1 bytes.
enum ResponseHead {
    /// The head bytes.
    ///
    /// - Parameters:
    ///   - version: the response's version; one this connection can't speak (`HTTP/2`) is
    ///     written as `HTTP/1.1`.
    ///   - headers: the fields as the response has them; `Transfer-Encoding` and `Connection` are
    ///     left out, since the server frames the body with `Content-Length` and decides itself
    ///     whether the connection stays open.
    ///   - connection: the `Connection` value to send, if any.
    static func bytes(
        status: HTTPStatus, version: String, headers: HTTPHeaders, connection: String?, chunked: Bool = false
    ) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(128 + headers.fields.count * 32)
        out.append(contentsOf: (version == "HTTP/1.0" ? "HTTP/1.0" : "HTTP/1.1").utf8)
        out.append(.space)
        out.append(contentsOf: String(status.code).utf8)
        out.append(.space)
        out.append(contentsOf: status.reasonPhrase.utf8)
        out.append(contentsOf: crlf)
        let omitsLength = status.kind == .informational || status == .noContent
        for field in headers {
            if field.name == .transferEncoding || field.name == .connection { continue }
            if omitsLength, field.name == .contentLength { continue }
            append(field.name.rawValue, field.value, to: &out)
        }
        if chunked { append(HTTPHeaders.Name.transferEncoding.rawValue, "chunked", to: &out) }
        if let connection { append(HTTPHeaders.Name.connection.rawValue, connection, to: &out) }
        out.append(contentsOf: crlf)
        return out
    }

    private static let crlf: [UInt8] = [.cr, .lf]

    /// Appends one field, with line breaks in the value replaced by spaces so a value can never
    /// start a header of its own.
    private static func append(_ name: String, _ value: String, to out: inout [UInt8]) {
        out.append(contentsOf: name.utf8)
        out.append(.colon)
        out.append(.space)
        if value.utf8.contains(where: { $0 == .cr || $0 == .lf }) {
            for byte in value.utf8 { out.append(byte == .cr || byte == .lf ? .space : byte) }
        } else {
            out.append(contentsOf: value.utf8)
        }
        out.append(contentsOf: crlf)
    }

    /// A plain-text response the server answers itself (a refusal, a failure, an unmatched
    /// request's report): the message as one line-terminated body.
    static func plainText(status: HTTPStatus, message: String) -> ResolvedResponse {
        let body = Data((message.hasSuffix("\n") ? message : message + "\n").utf8)
        var headers = HTTPHeaders()
        headers.add(.contentType, "text/plain; charset=utf-8")
        headers.add(.contentLength, String(body.count))
        return ResolvedResponse(status: status, httpVersion: "HTTP/1.1", headers: headers, body: body)
    }

    /// ``plainText(status:message:)`` as bytes, for connections about to close.
    static func plain(status: HTTPStatus, message: String, closing: Bool) -> [UInt8] {
        let response = plainText(status: status, message: message)
        var out = bytes(
            status: status, version: response.httpVersion, headers: response.headers,
            connection: closing ? "close" : nil)
        if case .bytes(let body) = response.body { out.append(contentsOf: body) }
        return out
    }
}
