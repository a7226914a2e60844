import Foundation

/// What the exchanges of one operation (a method on one path) had in common: its query
/// parameters, request headers, credentials, request bodies and responses.
final class OperationShape {
    private(set) var count = 0
    var query = NamedTexts(ignoresCase: false)
    var headers = NamedTexts(ignoresCase: true)
    /// The sets of credentials requests carried together (``SecurityScheme/key``s, sorted), in
    /// the order first seen; an empty set stands for requests that carried none.
    private(set) var credentials: [[String]] = []
    private(set) var schemes: [String: SecurityScheme] = [:]
    private(set) var requestsWithBody = 0
    var requestBodies = MediaBodies()
    private(set) var responses: [Int: ResponseShape] = [:]

    /// Adds one exchange (already redacted), whose request carried `credentials`; `response` is
    /// `nil` for a transport error.
    func add(
        _ request: MockRequest, credentials used: [SecurityScheme], response: RecordedResponse?, limits: DraftLimits
    ) {
        count += 1
        var queryValues = GroupedTexts(ignoresCase: false)
        for item in request.queryItems
        where !SecurityScheme.isCredential(item.name) && !Preferences.queryNames.contains(item.name) {
            queryValues.add(item.name, item.value ?? "")
        }
        for (name, values) in queryValues.groups { query.add(name, values) }
        var headerValues = GroupedTexts(ignoresCase: true)
        for field in request.headers {
            let name = field.name.rawValue
            let lowered = name.lowercased()
            if SecretNames.isSecretHeader(lowered) { continue }
            if !StandardHeaders.request.contains(lowered), !lowered.hasPrefix("sec-"),
                !lowered.hasPrefix("x-forwarded-"), !lowered.hasPrefix("proxy-")
            {
                headerValues.add(name, field.value)
            }
        }
        for (name, values) in headerValues.groups { headers.add(name, values) }
        var keys: [String] = []
        for scheme in used where !keys.contains(scheme.key) {
            keys.append(scheme.key)
            schemes[scheme.key] = schemes[scheme.key] ?? scheme
        }
        keys.sort()
        if !credentials.contains(keys) { credentials.append(keys) }
        if let body = request.body, !body.isEmpty {
            requestsWithBody += 1
            requestBodies.add(body, contentType: request.headers[.contentType], limits: limits)
        }
        guard let response else { return }
        let status = response.status.code
        let shape = responses[status] ?? ResponseShape()
        shape.add(response, limits: limits)
        responses[status] = shape
    }

    /// Takes in what `other` saw, as if its exchanges had been added here.
    func absorb(_ other: OperationShape) {
        count += other.count
        query.absorb(other.query)
        headers.absorb(other.headers)
        for keys in other.credentials where !credentials.contains(keys) { credentials.append(keys) }
        schemes.merge(other.schemes) { mine, _ in mine }
        requestsWithBody += other.requestsWithBody
        requestBodies.absorb(other.requestBodies)
        for (status, theirs) in other.responses {
            if let mine = responses[status] { mine.absorb(theirs) } else { responses[status] = theirs.copy() }
        }
    }

    func copy() -> OperationShape {
        let copy = OperationShape()
        copy.absorb(self)
        return copy
    }
}

/// The responses of one status.
final class ResponseShape {
    private(set) var count = 0
    var headers = NamedTexts(ignoresCase: true)
    var bodies = MediaBodies()

    func add(_ response: RecordedResponse, limits: DraftLimits) {
        count += 1
        var values = GroupedTexts(ignoresCase: true)
        for field in response.headers {
            let name = field.name.rawValue
            let lowered = name.lowercased()
            guard !StandardHeaders.response.contains(lowered), !SecretNames.isSecretHeader(lowered),
                !lowered.hasPrefix("access-control-")
            else { continue }
            values.add(name, field.value)
        }
        for (name, texts) in values.groups { headers.add(name, texts) }
        if !response.body.isEmpty {
            bodies.add(response.body, contentType: response.headers[.contentType], limits: limits)
        }
    }

    func absorb(_ other: ResponseShape) {
        count += other.count
        headers.absorb(other.headers)
        bodies.absorb(other.bodies)
    }

    func copy() -> ResponseShape {
        let copy = ResponseShape()
        copy.absorb(self)
        return copy
    }
}

/// One message's values by name (a query's, a message's headers), in the order first seen,
/// each name's values together; header names compared without case.
struct GroupedTexts {
    let ignoresCase: Bool
    private var order: [String] = []
    private var values: [String: (name: String, texts: [String])] = [:]

    init(ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
    }

    mutating func add(_ name: String, _ text: String) {
        let key = ignoresCase ? name.lowercased() : name
        if values[key] == nil {
            order.append(key)
            values[key] = (name, [text])
        } else {
            values[key]?.texts.append(text)
        }
    }

    var groups: [(String, [String])] { order.compactMap { values[$0].map { ($0.name, $0.texts) } } }
}

/// Named text values (query parameters, headers), each under the name first written; header
/// names are compared without case. At most ``maximumNames`` names are kept; the others are
/// counted in ``dropped``.
struct NamedTexts {
    /// Real operations have a few dozen; a name made of a value (`?1700000000123`) would grow
    /// without end.
    static let maximumNames = 200
    private(set) var dropped = 0
    let ignoresCase: Bool
    private(set) var keys: [String] = []
    private(set) var names: [String: String] = [:]
    private(set) var values: [String: TextShape] = [:]

    init(ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
    }

    mutating func add(_ name: String, _ texts: [String]) {
        let key = ignoresCase ? name.lowercased() : name
        if values[key] == nil {
            guard keys.count < Self.maximumNames else {
                dropped += 1
                return
            }
            keys.append(key)
            names[key] = name
        }
        values[key, default: TextShape()].add(texts)
    }

    mutating func absorb(_ other: NamedTexts) {
        dropped += other.dropped
        for key in other.keys {
            guard let theirs = other.values[key] else { continue }
            if values[key] == nil {
                guard keys.count < Self.maximumNames else {
                    dropped += theirs.count
                    continue
                }
                keys.append(key)
                names[key] = other.names[key]
            }
            values[key, default: TextShape()].absorb(theirs)
        }
    }

    /// The names and what their values had in common, in the order first seen.
    var entries: [(name: String, texts: TextShape)] {
        keys.compactMap { key in values[key].map { (names[key] ?? key, $0) } }
    }
}

/// What the texts of a parameter or header had in common.
struct TextShape {
    private(set) var count = 0
    private var allInteger = true
    private var allNumber = true
    private var allBoolean = true
    private var repeated = false

    mutating func add(_ texts: [String]) {
        count += 1
        if texts.count > 1 { repeated = true }
        for text in texts {
            if allInteger, !Self.isInteger(text) { allInteger = false }
            if allNumber, !Self.isNumber(text) { allNumber = false }
            if allBoolean, text != "true", text != "false" { allBoolean = false }
        }
    }

    mutating func absorb(_ other: TextShape) {
        count += other.count
        allInteger = allInteger && other.allInteger
        allNumber = allNumber && other.allNumber
        allBoolean = allBoolean && other.allBoolean
        repeated = repeated || other.repeated
    }

    /// The schema: `integer`, `number` or `boolean` when every value was one, else `string`; an
    /// array of it when a request repeated the name.
    var schema: DocumentNode {
        let type = allInteger ? "integer" : allNumber ? "number" : allBoolean ? "boolean" : "string"
        let scalar = DocumentNode.map([("type", .text(type))])
        return repeated ? .map([("type", .text("array")), ("items", scalar)]) : scalar
    }

    /// An integer as JSON writes one, no leading zero, within `Int`.
    static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard let first = digits.first, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return (first != "0" || digits.count == 1) && Int(text) != nil
    }

    /// A number as JSON writes one.
    static func isNumber(_ text: String) -> Bool {
        guard isInteger(text) || text.contains(".") || text.lowercased().contains("e") else { return false }
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard let first = digits.first, first.isASCII, first.isNumber,
            digits.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
            !(first == "0" && digits.count > 1 && digits.dropFirst().first?.isNumber == true),
            let value = Double(text)
        else { return false }
        return value.isFinite
    }
}

/// The bodies of one message kind, by media type (its essence, lower case) in the order seen.
struct MediaBodies {
    private(set) var types: [String] = []
    private(set) var bodies: [String: BodyShape] = [:]

    mutating func add(_ data: Data, contentType: String?, limits: DraftLimits) {
        let type = contentType.map { MediaType($0).essence } ?? "application/octet-stream"
        let body: BodyShape
        if let known = bodies[type] {
            body = known
        } else {
            body = BodyShape(mediaType: type)
            types.append(type)
            bodies[type] = body
        }
        body.add(data, limits: limits)
    }

    mutating func absorb(_ other: MediaBodies) {
        for type in other.types {
            guard let theirs = other.bodies[type] else { continue }
            if let mine = bodies[type] {
                mine.absorb(theirs)
            } else {
                types.append(type)
                bodies[type] = theirs.copy()
            }
        }
    }
}

/// The bodies of one media type: their shape (JSON, or a form's fields), and one example.
final class BodyShape {
    enum Kind {
        case json, form, text, other
    }

    let mediaType: String
    let kind: Kind
    private(set) var count = 0
    let shape = ValueShape()
    /// The first body, as it is written in the draft (JSON and forms as values, text as text).
    private(set) var example: DocumentNode?
    /// Bodies of a JSON type that weren't JSON: the schema then says nothing.
    private(set) var unreadable = 0
    /// Bodies past ``DraftLimits/sampledBodySize`` that were counted but not read.
    private(set) var skipped = 0
    private var readLarge = false

    init(mediaType: String) {
        self.mediaType = mediaType
        let media = MediaType(mediaType)
        kind =
            media.isJSON
            ? .json
            : mediaType == "application/x-www-form-urlencoded" ? .form : media.type == "text" ? .text : .other
    }

    func add(_ data: Data, limits: DraftLimits) {
        count += 1
        if data.count > limits.sampledBodySize {
            // One large body per media type is read; the others are counted.
            guard !readLarge else {
                skipped += 1
                return
            }
            readLarge = true
        }
        switch kind {
        case .json:
            guard let node = try? DocumentNode.parseJSON(Array(data)) else {
                unreadable += 1
                return
            }
            shape.add(node)
            if example == nil, data.count <= limits.exampleSize, !Self.nests(node, deeperThan: ValueShape.maximumDepth)
            {
                example = node
            }
        case .form:
            // A name sent more than once is a list, as the request validator reads a form.
            var fields = GroupedTexts(ignoresCase: false)
            for (name, value) in FormFields.pairs(String(decoding: data, as: UTF8.self)) {
                fields.add(name, value ?? "")
            }
            let node = DocumentNode.map(
                fields.groups.map { name, texts in
                    (name, texts.count == 1 ? .text(texts[0]) : .list(texts.map(DocumentNode.text)))
                })
            shape.add(node)
            if example == nil, data.count <= limits.exampleSize { example = node }
        case .text:
            if example == nil, data.count <= limits.exampleSize, let text = String(data: data, encoding: .utf8) {
                example = .text(text)
            }
        case .other:
            break
        }
    }

    /// Whether `node` holds arrays or objects more than `limit` levels deep (an example that
    /// deep would pass the nesting our YAML reader allows).
    static func nests(_ node: DocumentNode, deeperThan limit: Int) -> Bool {
        var pending = [(node, 0)]
        while let (next, depth) = pending.popLast() {
            switch next.value {
            case .array(let elements):
                guard depth < limit else { return true }
                pending += elements.map { ($0, depth + 1) }
            case .object(let object):
                guard depth < limit else { return true }
                pending += object.members.map { ($0.value, depth + 1) }
            default: continue
            }
        }
        return false
    }

    func absorb(_ other: BodyShape) {
        count += other.count
        shape.absorb(other.shape)
        if example == nil { example = other.example }
        unreadable += other.unreadable
        skipped += other.skipped
        readLarge = readLarge || other.readLarge
    }

    func copy() -> BodyShape {
        let copy = BodyShape(mediaType: mediaType)
        copy.absorb(self)
        return copy
    }

    /// The media type object: its schema and example.
    var node: DocumentNode {
        var members: [(String, DocumentNode)] = []
        switch kind {
        case .json, .form:
            // Past 1 MiB only one body was read: the schema claims nothing the others could break.
            if unreadable == 0 { members.append(("schema", shape.schema(loose: skipped > 0).node)) }
        case .text:
            members.append(("schema", .map([("type", .text("string"))])))
        case .other:
            break
        }
        if unreadable == 0, let example { members.append(("example", example)) }
        return .map(members)
    }
}

/// A way a request proved who sent it, as a security scheme of the draft.
struct SecurityScheme {
    /// What tells schemes apart: `http:bearer`, `apiKey:header:X-Api-Key`.
    let key: String
    /// Its name under `components/securitySchemes`.
    let name: String
    let node: DocumentNode

    /// The credentials `request` carries, by their names and scheme words (never their values):
    /// an `Authorization` scheme, API keys in headers, query parameters and cookies that
    /// ``SecretNames`` names.
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
    /// ``SecretNames`` that isn't a page's or a sync's token (`pageToken`, `next_token`,
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
