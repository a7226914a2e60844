import Foundation

extension MockRequest {
    /// `headers` with the fields URL loading adds from the request itself, so that a filter
    /// sees them through `MockURLProtocol` as a server sees them on the wire:
    ///
    /// - `Host`: the URL's host, with its port when the URL names one other than the scheme's
    ///   default;
    /// - `Content-Length`: the body's length, or `0` for a method other than `GET` and `HEAD`
    ///   without one where the platform sends that (``URLLoadingRules/sendsEmptyLength(for:)``);
    ///   a body read from `httpBodyStream` goes `Transfer-Encoding: chunked` instead, as its
    ///   length isn't known before it is sent;
    /// - `Content-Type: application/x-www-form-urlencoded` for a `POST` with a body and no type.
    ///
    /// A field the request sets itself is kept (a stream with its own `Content-Length` is sent
    /// with that length). A body the platform hid (an upload task's) has no length here. The
    /// fields that depend on the platform's loader rather than the request (`User-Agent`,
    /// `Accept`, `Accept-Encoding`, `Accept-Language`, `Connection`) are not added: only
    /// `MockServer` sees them.
    static func withWireFields(
        _ headers: HTTPHeaders, method: HTTPMethod, url: URL, body: Data?, bodyHidden: Bool, streamed: Bool = false
    ) -> HTTPHeaders {
        var headers = headers
        // Up to three fields are added (Host, a length or chunked, a form type).
        headers.reserveCapacity(headers.fields.count + 3)
        if !headers.contains(.host), let authority = Self.authority(of: url) {
            headers.add(.host, authority)
        }
        if !headers.contains(.contentLength) {
            if streamed {
                if !headers.contains(.transferEncoding) { headers.add(.transferEncoding, "chunked") }
            } else if let body {
                headers.add(.contentLength, String(body.count))
            } else if !bodyHidden, URLLoadingRules.sendsEmptyLength(for: method) {
                headers.add(.contentLength, "0")
            }
        }
        if method == .post, !headers.contains(.contentType), let body, !body.isEmpty {
            headers.add(.contentType, "application/x-www-form-urlencoded")
        }
        return headers
    }

    /// `host[:port]` as a `Host` field writes it: the host as the URL spells it (an IPv6
    /// address in brackets), the port only when the URL names one other than its scheme's
    /// default (curl leaves out `:80` of an `http` URL and `:443` of an `https` one; URL
    /// parsing in browsers drops them).
    ///
    /// Read off the URL's text, which URL parsing has checked already: asking `URL` for the
    /// host, port and scheme one by one made this about 0.8 µs of every request in a `perf`
    /// profile of the 1-filter row, several times what the one pass costs.
    static func authority(of url: URL) -> String? {
        var text = url.absoluteString
        return text.withUTF8 { bytes -> String? in
            // The scheme, then `//` and the authority, up to the path, query or fragment.
            guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon + 2 < bytes.endIndex,
                bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/")
            else { return nil }
            let start = colon + 3
            var end = start
            while end < bytes.endIndex, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"),
                bytes[end] != UInt8(ascii: "#")
            {
                end += 1
            }
            let hostStart = (bytes[start..<end].lastIndex(of: UInt8(ascii: "@")) ?? start - 1) + 1
            // An IPv6 literal keeps its brackets; a port follows the `:` after the host.
            let hostEnd: Int
            if hostStart < end, bytes[hostStart] == UInt8(ascii: "[") {
                guard let close = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: "]")) else { return nil }
                hostEnd = close + 1
            } else {
                hostEnd = bytes[hostStart..<end].firstIndex(of: UInt8(ascii: ":")) ?? end
            }
            guard hostStart < hostEnd else { return nil }
            let host = String(decoding: bytes[hostStart..<hostEnd], as: UTF8.self)
            var port = 0
            for digit in bytes[min(hostEnd + 1, end)..<end] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit), port < 65_536 else { return host }
                port = port * 10 + Int(digit - UInt8(ascii: "0"))
            }
            guard hostEnd + 1 < end,
                port != defaultPort(ofScheme: String(decoding: bytes[..<colon], as: UTF8.self))
            else { return host }
            return "\(host):\(port)"
        }
    }

    /// The port a URL's scheme implies: 80 for `http` and `ws`, 443 for `https` and `wss`.
    static func defaultPort(of url: URL) -> Int? {
        url.scheme.flatMap(defaultPort(ofScheme:))
    }

    private static func defaultPort(ofScheme scheme: String) -> Int? {
        switch scheme.lowercased() {
        case "http", "ws": 80
        case "https", "wss": 443
        default: nil
        }
    }
}

extension MockRequest {
    /// A copy with one more header field.
    func adding(_ name: HTTPHeaders.Name, _ value: String) -> MockRequest {
        var headers = self.headers
        headers.add(name, value)
        return MockRequest(
            method: method, url: url, headers: headers, body: body, bodyHiddenByUploadTask: bodyHiddenByUploadTask)
    }

    /// A copy whose `name` field has this one value.
    func replacing(_ name: HTTPHeaders.Name, with value: String) -> MockRequest {
        var headers = self.headers
        headers.replace(name, with: value)
        return MockRequest(
            method: method, url: url, headers: headers, body: body, bodyHiddenByUploadTask: bodyHiddenByUploadTask)
    }
}
