import Foundation
import RequestMocker

/// The URL a request is for, from its target and `Host` (RFC 9112 §3.2–3.3): the path and query
/// come from the target alone, and the authority from a `Host` that must be a valid
/// `host[:port]`, so neither can change the other.
enum RequestTarget {
    /// - Parameter fallbackAuthority: the server's own `host:port`, used for an HTTP/1.0
    ///   request without `Host` (and only worked out for one).
    static func url(of head: RequestHead, fallbackAuthority: @autoclosure () -> String?) throws(Rejection) -> URL {
        let hosts = head.headers.values(for: .host)
        guard hosts.count <= 1 else {
            throw Rejection(
                status: .badRequest, reason: "the request has \(hosts.count) Host headers; send exactly one")
        }
        if head.target.hasPrefix("/") || head.target == "*" {
            guard head.target != "*" || head.method == .options else {
                throw Rejection(status: .badRequest, reason: "the target * is only for OPTIONS")
            }
            let authority: String
            if let host = hosts.first, !host.isEmpty {
                guard isValidAuthority(host) else {
                    // A user part may hold a password: it is not repeated.
                    let shown = host.contains("@") ? "with a user part" : host.debugDescription
                    throw Rejection(
                        status: .badRequest, reason: "Host \(shown) is not host[:port] (no user, path or spaces)")
                }
                authority = host
            } else if head.minorVersion == 0, let fallback = fallbackAuthority() {
                authority = fallback
            } else {
                throw Rejection(status: .badRequest, reason: "an HTTP/1.1 request needs a Host header")
            }
            let path = head.target == "*" ? "/" : try encoded(head.target)
            guard let url = URL(string: "http://\(authority)\(path)") else {
                throw Rejection(status: .badRequest, reason: "the target on Host \(authority) is not a valid URL")
            }
            return url
        }
        // The absolute form, as sent to a proxy: its authority wins over Host (RFC 9112 §3.2.2).
        // Only what follows the authority is encoded: an IPv6 host keeps its brackets.
        var absolute = head.target
        if let authorityStart = absolute.range(of: "://")?.upperBound {
            let pathStart = absolute[authorityStart...].firstIndex { $0 == "/" || $0 == "?" } ?? absolute.endIndex
            absolute = String(absolute[..<pathStart]) + (try encoded(String(absolute[pathStart...])))
        }
        guard let url = URL(string: absolute), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else {
            throw Rejection(status: .badRequest, reason: "the target is neither a path nor an http(s) URL")
        }
        guard url.user == nil, url.password == nil else {
            // Not repeated: the user part may hold a password.
            throw Rejection(status: .badRequest, reason: "the target has a user part; leave it out")
        }
        return url
    }

    /// `host[:port]`: a bracketed IPv6 address or a registered name or IPv4 address (letters,
    /// digits, `-._~!$&'()*+,;=` and `%HH`), then an optional port of digits.
    static func isValidAuthority(_ authority: String) -> Bool {
        var bytes = Array(authority.utf8)[...]
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let address = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !address.isEmpty, address.allSatisfy({ $0.isHexDigit || $0 == .colon || $0 == .dot }) else {
                return false
            }
            bytes = bytes[bytes.index(after: close)...]
        } else {
            let name = bytes.prefix { $0 != .colon }
            guard !name.isEmpty, isRegisteredName(name) else { return false }
            bytes = bytes[name.endIndex...]
        }
        guard let colon = bytes.first else { return true }
        let port = bytes.dropFirst()
        return colon == .colon && port.count <= 5 && port.allSatisfy { $0.digitValue != nil }
    }

    private static func isRegisteredName(_ name: ArraySlice<UInt8>) -> Bool {
        var index = name.startIndex
        while index < name.endIndex {
            let byte = name[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < name.endIndex, name[index + 1].isHexDigit, name[index + 2].isHexDigit else {
                    return false
                }
                index += 3
                continue
            }
            guard isUnreserved(byte) || "!$&'()*+,;=".utf8.contains(byte) else { return false }
            index += 1
        }
        return true
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool { URICharacters.isUnreserved(byte) }

    /// The target with every byte a URL can't hold as written percent-encoded, and its
    /// `%HH` escapes kept as they are, so Foundation never encodes it again (it would encode the
    /// escapes too when it found anything else to encode). A `%` that starts no escape, or a
    /// `#` (a target has no fragment), is refused.
    static func encoded(_ target: String) throws(Rejection) -> String {
        let bytes = Array(target.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        let hex = Array("0123456789ABCDEF".utf8)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "%"):
                guard index + 2 < bytes.count, bytes[index + 1].isHexDigit, bytes[index + 2].isHexDigit else {
                    throw Rejection(status: .badRequest, reason: "the target has a % that starts no %HH escape")
                }
                out.append(contentsOf: bytes[index...(index + 2)])
                index += 3
                continue
            case UInt8(ascii: "#"):
                throw Rejection(status: .badRequest, reason: "the target has a fragment (#); a request target can't")
            case _ where isUnreserved(byte) || "!$&'()*+,;=:@/?".utf8.contains(byte):
                out.append(byte)
            default:
                out.append(contentsOf: [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]])
            }
            index += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}
