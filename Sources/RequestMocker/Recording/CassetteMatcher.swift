/// One test of whether a recorded request stands for a live one. A cassette's matchers are
/// combined with AND, in order; an empty list matches every request.
///
/// The default is ``default``: method, scheme, host, port, path and query. Add headers, the
/// body, or your own test:
///
/// ```swift
/// let cassette = try Cassette(contentsOf: url, matchers: CassetteMatcher.default + [
///     .headers("Accept-Language"),
///     .body,
///     CassetteMatcher("same tenant") { live, recorded in
///         live.header("X-Tenant") == recorded.header("X-Tenant")
///     },
/// ])
/// ```
///
/// Both requests have been through the cassette's ``Redaction`` first.
public struct CassetteMatcher: Sendable, CustomStringConvertible {
    /// The name shown in diagnostics.
    public let name: String
    /// For matchers that compare one derived value: that value. Recordings are indexed by
    /// these, so a large cassette costs no more per request than a small one.
    let key: (@Sendable (MockRequest) -> String)?
    private let test: @Sendable (MockRequest, MockRequest) -> Bool
    /// How a request looks to this matcher, for diagnostics.
    let show: @Sendable (MockRequest) -> String

    /// A custom matcher: `matches(live, recorded)` returns whether they match.
    public init(_ name: String, _ matches: @escaping @Sendable (_ live: MockRequest, _ recorded: MockRequest) -> Bool) {
        self.name = name
        key = nil
        test = matches
        show = { _ in "" }
    }

    private init(
        name: String, key: @escaping @Sendable (MockRequest) -> String, show: (@Sendable (MockRequest) -> String)? = nil
    ) {
        self.name = name
        self.key = key
        test = { key($0) == key($1) }
        self.show = show ?? key
    }

    private init(
        name: String, test: @escaping @Sendable (MockRequest, MockRequest) -> Bool,
        show: @escaping @Sendable (MockRequest) -> String
    ) {
        self.name = name
        key = nil
        self.test = test
        self.show = show
    }

    public var description: String { name }

    /// Whether `recorded` stands for `live` as far as this matcher is concerned.
    public func matches(_ live: MockRequest, _ recorded: MockRequest) -> Bool {
        test(live, recorded)
    }

    /// The method, exactly (methods are upper case).
    public static let method = CassetteMatcher(name: "method") { $0.method.rawValue }

    /// The scheme, ignoring case.
    public static let scheme = CassetteMatcher(name: "scheme") { $0.scheme }

    /// The host, ignoring case.
    public static let host = CassetteMatcher(name: "host") { $0.host ?? "" }

    /// The port, with the scheme's default standing in for an omitted one (so
    /// `https://a.test` and `https://a.test:443` match).
    public static let port = CassetteMatcher(name: "port") { $0.port.map(String.init) ?? "" }

    /// The path, segment by segment after percent-decoding, ignoring leading and trailing
    /// slashes; case-sensitive, as paths are.
    public static let path = CassetteMatcher(
        name: "path", key: { $0.pathSegments.joined(separator: "\u{1F}") }, show: { $0.path })

    /// The query as a set of name-value pairs: order doesn't matter, repeated names do,
    /// `+`, `%20` and a space are the same, and a name without `=` (`?debug`) is not the same as
    /// one with an empty value (`?debug=`).
    public static let query = CassetteMatcher(name: "query", key: queryKey, show: { $0.url.query ?? "(none)" })

    /// The whole URI: scheme, host, port, path and query, each as its own matcher compares
    /// it. (The fragment is never sent, so it is ignored.)
    public static let uri = CassetteMatcher(
        name: "uri",
        key: { request in
            [scheme, host, port, path, query].map { $0.key?(request) ?? "" }.joined(separator: "\u{1E}")
        }, show: { $0.url.absoluteString })

    /// The named header fields: every value, in order; absent on both sides matches.
    public static func headers(_ names: HTTPHeaders.Name...) -> CassetteMatcher {
        headers(names)
    }

    /// The named header fields: every value, in order; absent on both sides matches.
    public static func headers(_ names: [HTTPHeaders.Name]) -> CassetteMatcher {
        CassetteMatcher(
            name: "headers \(names.map(\.rawValue).joined(separator: ", "))",
            test: { live, recorded in
                names.allSatisfy { live.headers.values(for: $0) == recorded.headers.values(for: $0) }
            },
            show: { request in
                names.map { "\($0): \(request.headers.values(for: $0).joined(separator: ", "))" }.joined(
                    separator: "; ")
            })
    }

    /// The body: equal bytes, or — when a `Content-Type` says JSON — equal JSON values (key
    /// order and spacing don't matter), or for `application/x-www-form-urlencoded` the same
    /// fields in any order, or for `multipart/form-data` the same parts (names, file names and
    /// bytes; a recorded file without bytes, as browsers export one, takes any) in the same order,
    /// whatever the boundary. No body and an empty body are the same.
    public static let body = CassetteMatcher(
        name: "body", test: bodiesMatch,
        show: { request in
            guard let body = request.body, !body.isEmpty else { return "(no body)" }
            guard let text = String(data: body, encoding: .utf8) else { return "\(body.count) bytes" }
            return text.count > 200 ? String(text.prefix(200)) + "…" : text
        })

    /// Method, scheme, host, port, path and query.
    public static let `default`: [CassetteMatcher] = [.method, .scheme, .host, .port, .path, .query]

    /// Method, path and query: what `request-mocker serve` uses, so a cassette recorded against
    /// another host answers.
    package static let ignoringHost: [CassetteMatcher] = [.method, .path, .query]

    private static func queryKey(_ request: MockRequest) -> String {
        guard let query = request.url.query(percentEncoded: true), !query.isEmpty else { return "" }
        return FormFields.comparable(query).joined(separator: "&")
    }

    private static func bodiesMatch(_ live: MockRequest, _ recorded: MockRequest) -> Bool {
        let a = live.body ?? Data()
        let b = recorded.body ?? Data()
        if a == b { return true }
        let types = [live.headers[.contentType], recorded.headers[.contentType]].compactMap { $0?.lowercased() }
        if types.contains(where: { $0.contains("json") }), let x = try? JSONValue(parsing: a),
            let y = try? JSONValue(parsing: b)
        {
            return x == y
        }
        if types.contains(where: { $0.contains("x-www-form-urlencoded") }),
            let x = String(data: a, encoding: .utf8), let y = String(data: b, encoding: .utf8)
        {
            return FormFields.comparable(x) == FormFields.comparable(y)
        }
        // Form-data bodies read whole: the same fields and files in the same order, whatever the
        // boundary (a browser's HAR lists a form's params, and the live request has a boundary
        // of its own). A recorded file without its bytes (browsers leave them out) matches any.
        let parts = [(live, a), (recorded, b)].map { request, body -> [MultipartBody.Part]? in
            guard let type = request.headers[.contentType], type.lowercased().contains("multipart/form-data"),
                let boundary = MultipartBody.boundary(of: type), let read = MultipartBody(body, boundary: boundary),
                read.problem == nil
            else { return nil }
            return read.parts
        }
        if let x = parts[0], let y = parts[1], x.count == y.count {
            return zip(x, y).allSatisfy { live, recorded in
                live.name == recorded.name && live.fileName == recorded.fileName
                    && (live.body == recorded.body || recorded.fileName != nil && recorded.body.isEmpty)
            }
        }
        return false
    }
}
