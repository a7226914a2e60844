/// The file names a request looks for in a mock-data folder, in lookup order, without
/// extension (MockDataNaming.md states every rule, with worked examples).
///
/// 1. `METHOD|path`: the path is percent-decoded segment by segment, with leading and trailing
///    slashes dropped and one `/` in front (so `/foo/` and `/foo` give `|/foo`, and an empty path
///    gives `|/`).
/// 2. With a query (even an empty one): `…?query` with the raw, still-encoded query, then
///    `…?<SHA-256 of the query>`.
/// 3. With header names configured, the ones the request has become `|Name=value&Name=value`
///    (percent-encoded), then `|<SHA-256 of that>`; no wildcard ever stands in for them.
/// 4. For `POST`, `PUT` and `PATCH`: each name above gets `|body` for a form body
///    (`application/x-www-form-urlencoded`, as sent) or a JSON body (`application/json`, bencoded
///    then percent-encoded), and always `|<SHA-256 of the body bytes>`; query first, then body.
/// 5. With wildcards allowed: wildcard names after all exact names, so an exact name wins.
/// 6. Names over 250 bytes (UTF-8) are dropped; then every `:` and `/` becomes `-`.
package struct MockDataNaming: Sendable {
    /// Whether names with `*` for the whole query and/or body are looked for too.
    package var allowsWildcards = false
    /// Request headers whose values become part of the name, in this order.
    package var headersInName: [String] = []

    package init(allowsWildcards: Bool = false, headersInName: [String] = []) {
        self.allowsWildcards = allowsWildcards
        self.headersInName = headersInName
    }

    /// The longest name kept: a file-name limit of 255 bytes less room for `.http` / `.json`.
    static let maximumNameLength = 250

    static let methodsWithBodyInName: Set<HTTPMethod> = [.post, .put, .patch]

    /// The names, in lookup order. With `hashedOnly`, the query, the header part or the body
    /// appears only as its hash: the names that can be shown when those hold secrets.
    package func candidates(
        for request: MockRequest, hashedOnly: (query: Bool, headers: Bool, body: Bool) = (false, false, false)
    ) -> [String] {
        let base = request.method.rawValue + "|/" + request.pathSegments.joined(separator: "/")
        let query = request.url.query(percentEncoded: true)
        let headerParts = hashedOnly.headers ? Array(headerParts(of: request).suffix(1)) : headerParts(of: request)
        func withHeaders(_ names: [String]) -> [String] {
            headerParts.isEmpty ? names : names.flatMap { name in headerParts.map { name + "|" + $0 } }
        }
        var queried = [base]
        if let query {
            let hashed = base + "?" + SHA256.hex(Array(query.utf8))
            queried = hashedOnly.query ? [hashed] : [base + "?" + query, hashed]
        }
        let withoutBody = withHeaders(queried)

        var names = withoutBody
        var bodyParts: [String] = []
        if Self.methodsWithBodyInName.contains(request.method) {
            bodyParts = hashedOnly.body ? Array(Self.bodyParts(of: request).suffix(1)) : Self.bodyParts(of: request)
            names = withoutBody.flatMap { name in bodyParts.map { name + "|" + $0 } }
        }
        if allowsWildcards {
            switch (query != nil, !bodyParts.isEmpty) {
            case (true, true):
                names += withoutBody.map { $0 + "|*" }
                names += withHeaders([base + "?*"]).flatMap { name in (bodyParts + ["*"]).map { name + "|" + $0 } }
            case (true, false):
                names += withHeaders([base + "?*"])
            case (false, true):
                names += withoutBody.map { $0 + "|*" }
            case (false, false):
                break
            }
        }
        return names.filter { $0.utf8.count <= Self.maximumNameLength }.map(Self.withoutSeparators)
    }

    /// The one name a recording of `request` is written under: the first candidate, except that
    /// the query, the header part or the body is given as its hash where `hashing` says, so a
    /// value that was a secret never shows in a file name, not even as its placeholder's
    /// neighbours. `nil` when the name would be too long.
    func recordingName(for request: MockRequest, hashing: (query: Bool, headers: Bool, body: Bool)) -> String? {
        var name = request.method.rawValue + "|/" + request.pathSegments.joined(separator: "/")
        if let query = request.url.query(percentEncoded: true) {
            name += "?" + (hashing.query ? SHA256.hex(Array(query.utf8)) : query)
        }
        let headerParts = headerParts(of: request)
        if let part = hashing.headers ? headerParts.last : headerParts.first { name += "|" + part }
        if Self.methodsWithBodyInName.contains(request.method) {
            let bodyParts = Self.bodyParts(of: request)
            if let part = hashing.body ? bodyParts.last : bodyParts.first { name += "|" + part }
        }
        return name.utf8.count <= Self.maximumNameLength ? Self.withoutSeparators(name) : nil
    }

    /// The name with every `:` and `/` turned into `-` (byte by byte: this runs for every
    /// request a folder sees).
    private static func withoutSeparators(_ name: String) -> String {
        let bytes = name.utf8.map { $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "/") ? UInt8(ascii: "-") : $0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `Name=value&…` for the configured headers the request has, then its hash; none when it
    /// has none of them.
    private func headerParts(of request: MockRequest) -> [String] {
        let pairs = headersInName.compactMap { name in request.header(HTTPHeaders.Name(name)).map { "\(name)=\($0)" } }
        guard !pairs.isEmpty else { return [] }
        let encoded = pairs.joined(separator: "&").queryAllowedPercentEncoded
        return [encoded, SHA256.hex(Array(encoded.utf8))]
    }

    /// The body's text form, if its content type has one, then its hash.
    private static func bodyParts(of request: MockRequest) -> [String] {
        let body = request.body ?? Data()
        var parts: [String] = []
        let contentType = request.header(.contentType)?.lowercased() ?? ""
        if contentType.hasPrefix("application/x-www-form-urlencoded") {
            if let text = String(data: body, encoding: .utf8) { parts.append(text) }
        } else if contentType.hasPrefix("application/json"),
            let value = try? JSONValue(parsing: body),
            let encoded = Bencode.encode(value),
            let text = String(validating: encoded, as: UTF8.self)
        {
            parts.append(text.queryAllowedPercentEncoded)
        }
        parts.append(SHA256.hex(body))
        return parts
    }
}
