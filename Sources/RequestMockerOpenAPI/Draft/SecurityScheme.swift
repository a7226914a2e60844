import Foundation
import RequestMocker

/// A way a request proved who sent it, as a security scheme of the draft.
struct SecurityScheme {
    /// What tells schemes apart: `http:bearer`, `apiKey:header:X-Api-Key`.
    let key: String
    /// Its name under `components/securitySchemes`.
    let name: String
    let node: DocumentNode

    /// The credentials `request` carries, by their names and scheme words (never their values):
    /// an `Authorization` scheme, API keys in headers, query parameters and cookies that
    /// `SecretNames` names.
    static func carried(by request: MockRequest) -> [SecurityScheme] {
        var found: [SecurityScheme] = []
        for item in request.queryItems where isCredential(item.name) {
            found.append(SecurityScheme(apiKeyNamed: item.name, in: "query"))
        }
        for field in request.headers {
            let name = field.name.rawValue
            switch name.lowercased() {
            case "authorization": found.append(.authorization(field.value))
            case "proxy-authorization", "set-cookie": continue
            case "cookie":
                for pair in field.value.split(separator: ";") {
                    guard let equals = pair.firstIndex(of: "=") else { continue }
                    let cookie = pair[..<equals].trimmingCharacters(in: .whitespaces)
                    if !cookie.isEmpty, isCredential(cookie) {
                        found.append(SecurityScheme(apiKeyNamed: cookie, in: "cookie"))
                    }
                }
            default:
                if SecretNames.isSecretHeader(name) { found.append(SecurityScheme(apiKeyNamed: name, in: "header")) }
            }
        }
        return found
    }

    /// Whether a query parameter or cookie named `name` proves who sent a request: a secret by
    /// `SecretNames` that isn't a page's or a sync's token (`pageToken`, `next_token`,
    /// `continuation_token`, `sync_token`, `csrf_token`), which stays a parameter.
    static func isCredential(_ name: String) -> Bool {
        guard SecretNames.isSecretField(name) else { return false }
        let lowered = name.lowercased().replacingOccurrences(of: "-", with: "_")
        return !["page", "next", "prev", "continuation", "cursor", "sync", "resume", "csrf", "xsrf", "nonce"].contains {
            lowered.contains($0)
        }
    }

    /// The scheme an `Authorization` value names by its word (`http`), else an API key in
    /// that header.
    static func authorization(_ value: String) -> SecurityScheme {
        guard let word = Redaction.schemeWord(of: value) else {
            return SecurityScheme(apiKeyNamed: "Authorization", in: "header")
        }
        let scheme = word.lowercased()
        return SecurityScheme(
            key: "http:" + scheme, name: camelCase(scheme) + "Auth",
            node: .map([("type", .text("http")), ("scheme", .text(scheme))]))
    }

    private init(key: String, name: String, node: DocumentNode) {
        self.key = key
        self.name = name
        self.node = node
    }

    init(apiKeyNamed parameter: String, in location: String) {
        let lowered = location == "header" ? parameter.lowercased() : parameter
        key = "apiKey:\(location):\(lowered)"
        name =
            Self.camelCase(parameter)
            + (location == "header" ? "" : location.prefix(1).uppercased() + location.dropFirst())
        node = .map([("type", .text("apiKey")), ("name", .text(parameter)), ("in", .text(location))])
    }

    /// `x-api-key` → `xApiKey`, `aws4-hmac-sha256` → `aws4HmacSha256`.
    static func camelCase(_ text: String) -> String {
        let words = text.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }
        let joined = words.enumerated().map { index, word in
            index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }.joined()
        guard let first = joined.first, first.isLetter else { return "key" + joined }
        return joined
    }
}

/// Header names a draft leaves out: the ones every HTTP exchange may carry.
enum StandardHeaders {
    static let request: Set<String> = [
        "accept", "accept-charset", "accept-encoding", "accept-language", "cache-control", "connection",
        "content-encoding", "content-length", "content-type", "date", "dnt", "expect", "forwarded", "host",
        "if-match", "if-modified-since", "if-none-match", "if-range", "if-unmodified-since", "keep-alive", "origin",
        "pragma", "priority", "range", "referer", "te", "trailer", "transfer-encoding", "upgrade",
        "upgrade-insecure-requests", "user-agent", "via", "x-requested-with", "x-real-ip",
    ]
    static let response: Set<String> = [
        "accept-ranges", "age", "allow", "alt-svc", "cache-control", "connection", "content-disposition",
        "content-encoding", "content-language", "content-length", "content-location", "content-range",
        "content-security-policy", "content-type", "date", "etag", "expires", "keep-alive", "last-modified",
        "location", "pragma", "referrer-policy", "retry-after", "server", "strict-transport-security", "trailer",
        "transfer-encoding", "upgrade", "vary", "via", "www-authenticate", "x-content-type-options",
        "x-frame-options", "x-xss-protection", "x-powered-by", "nel", "report-to", "server-timing",
        "permissions-policy", "cross-origin-opener-policy", "cross-origin-resource-policy",
        "cross-origin-embedder-policy", "timing-allow-origin",
    ]
}
