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

    /// `host[:port]` as a `Host` field writes it: an IPv6 address in brackets, the port only
    /// when the URL names one other than its scheme's default (curl leaves out `:80` of an
    /// `http` URL and `:443` of an `https` one; URL parsing in browsers drops them).
    static func authority(of url: URL) -> String? {
        guard let host = url.host(percentEncoded: true), !host.isEmpty else { return nil }
        let bracketed = host.bracketedIfIPv6
        guard let port = url.port, port != defaultPort(of: url) else { return bracketed }
        return "\(bracketed):\(port)"
    }

    /// The port a URL's scheme implies: 80 for `http` and `ws`, 443 for `https` and `wss`.
    static func defaultPort(of url: URL) -> Int? {
        switch url.scheme?.lowercased() {
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
