/// What is hidden before a request or response is written to a cassette or mock-data file.
///
/// By default (``default``) every value ``SecretNames`` names becomes `REDACTED`: headers such
/// as `Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key` and any `*-Token` or `*-Secret`;
/// query parameters, form fields and JSON keys (at any depth, in requests and responses) named
/// or ending like `password`, `secret`, `token`, `api_key`, `session` or `signature`; and the
/// user and password of a URL (`https://REDACTED:REDACTED@host/`). An `Authorization` value
/// keeps its scheme word, which is no secret (`Bearer REDACTED`, `Basic REDACTED`), so a
/// recording still says how a request was signed in. Each rule can be switched
/// off (``keepingHeader(_:)``, ``keepingField(_:)``, ``keepingSecretNames()``,
/// ``keepingUserInfo()``). Add header fields, query parameters and body keys, rewrite the
/// path, or change a whole request or response with a hook:
///
/// ```swift
/// let redaction = Redaction.default
///     .header("X-Api-Key")                      // value becomes REDACTED
///     .queryParameter("token", .remove)         // parameter dropped
///     .bodyKey("password")                      // in JSON (any depth) and form bodies
///     .path { $0.replacingOccurrences(of: "/users/ada", with: "/users/someone") }
/// let cassette = try Cassette(contentsOf: url, redaction: redaction)
/// ```
///
/// The request-side rules (headers, query, path, body keys, ``beforeRecordRequest(_:)``) also
/// run on every live request before it is matched against recordings, so a redacted
/// recording still matches the request it came from. Response rules run only when recording.
/// Hooks must therefore be deterministic.
public struct Redaction: Sendable {
    /// What a redacted value becomes.
    public enum Replacement: Sendable, Hashable {
        /// The field, parameter or key is dropped.
        case remove
        /// The value is replaced with this text.
        case replace(String)

        /// The text that ``redacted`` writes.
        static let placeholder = "REDACTED"
        /// The value is replaced with `REDACTED`.
        public static let redacted = Replacement.replace(placeholder)
    }

    /// Header fields to redact, by lower-cased name; they apply to requests and responses.
    private var headers: [String: Replacement] = [:]
    /// Query parameters to redact, by decoded name.
    private var queryParameters: [String: Replacement] = [:]
    /// Keys to redact in JSON bodies (at any depth) and form bodies, of requests and responses.
    private var bodyKeys: [String: Replacement] = [:]
    /// Whether the names ``SecretNames`` lists are redacted without being named here.
    private var redactsSecretNames: Bool
    /// Headers (lower case) and fields kept although ``SecretNames`` lists them.
    private var keptHeaders: Set<String> = []
    private var keptFields: Set<String> = []
    /// Whether a URL's user info (`https://user:pass@host/`) is redacted.
    private var redactsUserInfo: Bool
    private var pathTransform: (@Sendable (String) -> String)?
    private var requestHook: (@Sendable (MockRequest) -> MockRequest?)?
    private var responseHook: (@Sendable (RecordedResponse, MockRequest) -> RecordedResponse?)?

    /// Redacts every secret ``SecretNames`` names (headers, query parameters, form fields and
    /// JSON keys), and a URL's user info (`https://REDACTED:REDACTED@host/`).
    public static let `default` = Redaction(redactsSecretNames: true, redactsUserInfo: true)

    /// Redacts nothing: everything is written as sent and received.
    public static let none = Redaction(redactsSecretNames: false, redactsUserInfo: false)

    private init(redactsSecretNames: Bool, redactsUserInfo: Bool) {
        self.redactsSecretNames = redactsSecretNames
        self.redactsUserInfo = redactsUserInfo
    }

    /// Also redacts the header field `name` (case-insensitive) in requests and responses.
    public func header(_ name: String, _ replacement: Replacement = .redacted) -> Redaction {
        var copy = self
        copy.headers[name.lowercased()] = replacement
        copy.keptHeaders.remove(name.lowercased())
        return copy
    }

    /// Stops redacting the header field `name`, for example to keep `Cookie` in a cassette.
    public func keepingHeader(_ name: String) -> Redaction {
        var copy = self
        copy.headers[name.lowercased()] = nil
        copy.keptHeaders.insert(name.lowercased())
        return copy
    }

    /// Stops redacting the query parameter, form field or JSON key `name`, which
    /// ``SecretNames`` would have hidden (for example a `session` that is only an identifier).
    public func keepingField(_ name: String) -> Redaction {
        var copy = self
        copy.queryParameters[name] = nil
        copy.bodyKeys[name] = nil
        copy.keptFields.insert(name.lowercased())
        return copy
    }

    /// Stops redacting by ``SecretNames``: only headers, parameters and keys named here are
    /// redacted.
    public func keepingSecretNames() -> Redaction {
        var copy = self
        copy.redactsSecretNames = false
        return copy
    }

    /// Stops redacting the user and password of URLs.
    public func keepingUserInfo() -> Redaction {
        var copy = self
        copy.redactsUserInfo = false
        return copy
    }

    /// Also redacts the query parameter `name`, in request URLs and in the `Location` and
    /// `Content-Location` of responses.
    public func queryParameter(_ name: String, _ replacement: Replacement = .redacted) -> Redaction {
        var copy = self
        copy.queryParameters[name] = replacement
        copy.keptFields.remove(name.lowercased())
        return copy
    }

    /// Also redacts `key` wherever it appears in a JSON body, and as a field of a form body
    /// (`application/x-www-form-urlencoded`), in requests and responses.
    public func bodyKey(_ key: String, _ replacement: Replacement = .redacted) -> Redaction {
        var copy = self
        copy.bodyKeys[key] = replacement
        copy.keptFields.remove(key.lowercased())
        return copy
    }

    /// Rewrites the request path (percent-encoded, such as `/users/ada%20l`) before matching
    /// and recording. Characters a path can't hold are percent-encoded, and a missing leading
    /// `/` is added.
    public func path(_ transform: @escaping @Sendable (String) -> String) -> Redaction {
        var copy = self
        copy.pathTransform = transform
        return copy
    }

    /// Changes a request after the other rules, before it is matched or written. Returning
    /// `nil` leaves the request alone entirely: it is neither played back nor recorded, and
    /// the registry's next source answers it.
    public func beforeRecordRequest(_ hook: @escaping @Sendable (MockRequest) -> MockRequest?) -> Redaction {
        var copy = self
        copy.requestHook = hook
        return copy
    }

    /// Changes a response after the other rules, before it is written; it receives the recorded
    /// (redacted) request. Returning `nil` keeps that interaction out of the recording; the caller
    /// still gets the real response.
    public func beforeRecordResponse(
        _ hook: @escaping @Sendable (RecordedResponse, MockRequest) -> RecordedResponse?
    ) -> Redaction {
        var copy = self
        copy.responseHook = hook
        return copy
    }

    // MARK: Applying

    /// What happens to the header `name`; `nil` keeps it.
    func replacement(forHeader name: String) -> Replacement? {
        let lowered = name.lowercased()
        if let explicit = headers[lowered] { return explicit }
        guard redactsSecretNames, !keptHeaders.contains(lowered), SecretNames.isSecretHeader(lowered) else {
            return nil
        }
        return .redacted
    }

    /// What happens to the query parameter `name`; `nil` keeps it.
    func replacement(forQueryParameter name: String) -> Replacement? {
        queryParameters[name] ?? secretFieldReplacement(name)
    }

    /// What happens to the JSON key or form field `name`; `nil` keeps it.
    func replacement(forBodyKey name: String) -> Replacement? {
        bodyKeys[name] ?? secretFieldReplacement(name)
    }

    private func secretFieldReplacement(_ name: String) -> Replacement? {
        guard redactsSecretNames, !keptFields.contains(name.lowercased()), SecretNames.isSecretField(name) else {
            return nil
        }
        return .redacted
    }

    /// Whether any rule can touch queries or bodies.
    private var redactsFields: Bool { redactsSecretNames || !queryParameters.isEmpty || !bodyKeys.isEmpty }

    /// The request as it is recorded and matched; `nil` when the request hook leaves it alone.
    package func redact(_ request: MockRequest, headers redactsHeaders: Bool = true) -> MockRequest? {
        var url = request.url
        if pathTransform != nil || (redactsFields && url.query != nil) || (redactsUserInfo && url.user != nil) {
            url = redactedURL(url)
        }
        let headers = redactsHeaders ? redact(request.headers) : request.headers
        var body = request.body
        if redactsFields, let original = body {
            body = redact(body: original, contentType: request.headers[.contentType])
        }
        var result = request
        if url != request.url || headers != request.headers || body != request.body {
            result = MockRequest(
                method: request.method, url: url, headers: headers, body: body,
                bodyHiddenByUploadTask: request.bodyHiddenByUploadTask)
        }
        guard let requestHook else { return result }
        return requestHook(result)
    }

    /// The response as it is written; `nil` when the response hook keeps it out.
    package func redact(_ response: RecordedResponse, for request: MockRequest) -> RecordedResponse? {
        var result = response
        result.headers = redact(response.headers)
        if redactsFields || redactsUserInfo {
            var fields: [HTTPHeaders.Field] = []
            for field in result.headers {
                let isLocation = field.name == .location || field.name == .contentLocation
                fields.append(
                    isLocation ? HTTPHeaders.Field(name: field.name, value: redactedLocation(field.value)) : field)
            }
            result.headers = HTTPHeaders(fields)
        }
        if redactsFields {
            result.body = redact(body: response.body, contentType: response.headers[.contentType])
        }
        guard let responseHook else { return result }
        return responseHook(result, request)
    }

    func redact(_ headers: HTTPHeaders) -> HTTPHeaders {
        guard headers.contains(where: { replacement(forHeader: $0.name.rawValue) != nil }) else { return headers }
        var fields: [HTTPHeaders.Field] = []
        for field in headers {
            switch replacement(forHeader: field.name.rawValue) {
            case nil: fields.append(field)
            case .remove: continue
            case .replace(let value):
                fields.append(
                    HTTPHeaders.Field(
                        name: field.name, value: replaced(field.value, ofHeader: field.name.rawValue, with: value)))
            }
        }
        return HTTPHeaders(fields)
    }

    /// What the value of the header `name` becomes when it is replaced with `text`. The
    /// placeholder keeps an `Authorization` (or `Proxy-Authorization`) value's scheme word:
    /// `Bearer abc` becomes `Bearer REDACTED`. Only a word that reads as a scheme is kept (a
    /// registered one, or letters and `-` alone, up to 20); a value of one token, or whose first
    /// word holds digits, is replaced whole, since that word could be the secret.
    func replaced(_ value: String, ofHeader name: String, with text: String) -> String {
        guard text == Replacement.placeholder, ["authorization", "proxy-authorization"].contains(name.lowercased()),
            let scheme = Self.schemeWord(of: value)
        else { return text }
        return scheme + " " + text
    }

    /// The auth-scheme word an `Authorization` value starts with (RFC 9110, 11.6.2), when it
    /// reads as one and not as a credential.
    package static func schemeWord(of value: String) -> String? {
        let trimmed = value.drop { $0 == " " || $0 == "\t" }
        guard let space = trimmed.firstIndex(where: { $0 == " " || $0 == "\t" }) else { return nil }
        let word = trimmed[..<space]
        if knownSchemes.contains(word.lowercased()) { return String(word) }
        guard (2...20).contains(word.count), word.first?.isLetter == true,
            word.allSatisfy({ $0.isASCII && ($0.isLetter || $0 == "-") })
        else { return nil }
        return String(word)
    }

    /// Schemes of IANA's HTTP Authentication Scheme Registry, and common unregistered ones.
    private static let knownSchemes: Set<String> = [
        "basic", "bearer", "digest", "dpop", "gnap", "hoba", "mutual", "negotiate", "ntlm", "oauth", "privatetoken",
        "scram-sha-1", "scram-sha-256", "vapid", "concealed", "token", "aws4-hmac-sha256", "apikey", "jwt", "mac",
    ]

    /// The URL with the path hook, query rules and password redaction applied. A path hook
    /// that returns something unusable is ignored rather than letting the query rules go too.
    func redactedURL(_ url: URL, path redactsPath: Bool = true) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        if redactsUserInfo, components.percentEncodedUser != nil {
            components.percentEncodedUser = Replacement.placeholder
            if components.percentEncodedPassword != nil { components.percentEncodedPassword = Replacement.placeholder }
        }
        if redactsFields, let query = components.percentEncodedQuery {
            components.percentEncodedQuery = FormFields.rewrite(query, replacing: replacement(forQueryParameter:))
        }
        let withoutPath = components.url ?? url
        guard redactsPath, let pathTransform else { return withoutPath }
        var path = pathTransform(components.percentEncodedPath)
        if !path.hasPrefix("/"), components.host != nil { path = "/" + path }
        components.percentEncodedPath =
            path.addingPercentEncoding(withAllowedCharacters: Self.pathAllowed) ?? components.percentEncodedPath
        return components.url ?? withoutPath
    }

    /// What a path may hold, `%` included so existing escapes stay as they are.
    private static let pathAllowed = CharacterSet.urlPathAllowed.union(CharacterSet(charactersIn: "%"))

    /// A `Location` value with the query and password rules applied (the path hook is for
    /// request paths); relative values work too.
    private func redactedLocation(_ value: String) -> String {
        if let url = URL(string: value), url.scheme != nil {
            return redactedURL(url, path: false).absoluteString
        }
        guard redactsFields, let question = value.firstIndex(of: "?") else { return value }
        let fragment = value[question...].firstIndex(of: "#")
        let query = String(value[value.index(after: question)..<(fragment ?? value.endIndex)])
        let rewritten = FormFields.rewrite(query, replacing: replacement(forQueryParameter:))
        return String(value[..<question]) + (rewritten.map { "?" + $0 } ?? "")
            + (fragment.map { String(value[$0...]) } ?? "")
    }

    func redact(body: Data, contentType: String?) -> Data {
        let type = contentType?.lowercased() ?? ""
        // JSON is read whatever the Content-Type says when it looks like JSON: a secret sent
        // as text/plain is still a secret.
        let looksLikeJSON =
            body.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }.map {
                $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[")
            } ?? false
        if type.contains("json") || looksLikeJSON, let value = try? JSONValue(parsing: body) {
            let redacted = redact(value)
            guard redacted != value, let data = try? redacted.serialized() else { return body }
            return data
        }
        if type.contains("x-www-form-urlencoded"), let text = String(data: body, encoding: .utf8) {
            return Data((FormFields.rewrite(text, replacing: replacement(forBodyKey:)) ?? "").utf8)
        }
        return body
    }

    func redact(_ value: JSONValue) -> JSONValue {
        value.rewritingMembers { key in
            switch replacement(forBodyKey: key) {
            case nil: .keep
            case .remove: .remove
            case .replace(let text): .replace(.string(text))
            }
        }
    }
}

// MARK: - Showing values in descriptions, logs and error messages

extension Redaction {
    /// `url` as descriptions and logs show it: with ``default``'s query and user-info rules
    /// applied, so a secret never reaches a console or a log.
    package static func shown(_ url: URL) -> String {
        hidingSecrets(url).absoluteString
    }

    /// `url` with ``default``'s query and user-info rules applied.
    package static func hidingSecrets(_ url: URL) -> URL {
        guard url.user != nil || url.query != nil else { return url }
        return Redaction.default.redactedURL(url, path: false)
    }

    /// A value of the query parameter, form field or JSON key `name`, as messages show it.
    static func shown(_ value: String, ofField name: String) -> String {
        SecretNames.isSecretField(name) ? Replacement.placeholder : value
    }

    /// A value of the header `name`, as messages show it.
    static func shown(_ value: String, ofHeader name: HTTPHeaders.Name) -> String {
        SecretNames.isSecretHeader(name.rawValue) ? Replacement.placeholder : value
    }

    /// A JSON value as messages show it, with ``default``'s key rules applied at any depth.
    static func shown(_ value: JSONValue) -> JSONValue {
        Redaction.default.redact(value)
    }
}
