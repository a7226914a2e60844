/// Which requests to answer, and the response to answer them with.
///
/// A filter holds conditions on the scheme, host, method and path (a ``PathPattern``), plus
/// optional conditions on query items, header fields, the JSON body, or any predicate. All must
/// hold for the filter to match. It also carries the ``MockResponse`` it answers with and the
/// source line it was written on, which every diagnostic quotes.
///
/// ```swift
/// registry.register(.get("/users/<id>"), respond: .json(["id": 1]))
/// registry.register(
///     .post("https://api.example.com/login")
///         .header("Content-Type", "application/json")
///         .jsonBody(["user": "ada", "password": "secret"]),
///     respond: .json(["token": "t0k3n"])
/// )
/// registry.register(RequestFilter(host: "example.com", path: "/user/<userId>", method: .get)
///     .respond(with: .string("hello")))
/// ```
///
/// - `host`: compared case-insensitively; `nil` matches any host; `"example.com:8080"` also
///   requires the port (default ports count: `"example.com:443"` matches `https://example.com`);
///   `"*.example.com"` matches any subdomain (not `example.com` itself).
/// - `method`: exact; `nil` matches any method.
/// - `path`: see ``PathPattern``; `nil` matches any path.
public struct RequestFilter: Sendable, CustomStringConvertible {
    /// The scheme to require (`"https"`), or `nil` for any.
    public var scheme: String?
    /// The host to require, or `nil` for any (see the type's docs for ports and `*.`).
    public var host: String? {
        get { hostPattern?.description }
        set { hostPattern = newValue.map(HostPattern.init) }
    }
    /// The method to require, or `nil` for any.
    public var method: HTTPMethod?
    /// The path pattern, or `nil` for any path.
    public var path: PathPattern?
    /// The response this filter answers with; an empty `200` unless set.
    public var response: MockResponse
    /// Where the filter was written: `File.swift:12`, or `stubs.json:4`.
    package let location: String
    /// Where ``expected(fileID:filePath:line:column:)`` marked the filter, or `nil` when it isn't
    /// expected.
    package private(set) var expectedAt: CodeLocation?

    var conditions: [Condition] = []
    /// Whether a redirect this filter answers with is followed through `MockURLProtocol`:
    /// `nil` leaves it to ``MockRegistry/followsRedirects``.
    package private(set) var followsRedirects: Bool?
    /// Run once the answer to a request this filter matched has ended.
    package private(set) var completionCallback: (@Sendable (JournalEntry) -> Void)?
    /// ``host``, parsed once.
    private(set) var hostPattern: HostPattern?
    /// The scenario whose state the filter requires and moves, if any.
    package var scenario: Scenario?
    /// The states ``scenario`` is read from and moved in: the registry's, set when it is
    /// registered.
    package var scenarioStates: ScenarioStates?

    /// Creates a filter.
    ///
    /// - Parameters:
    ///   - scheme: `"http"` or `"https"` to require one, `nil` for any.
    ///   - host: the host to require, `nil` for any.
    ///   - path: the path pattern, `nil` for any path.
    ///   - method: the method to require, `nil` for any.
    ///   - response: the response to answer with.
    ///   - fileID: the file the filter is written in, which diagnostics name (filled in).
    ///   - line: the line it is written on, which diagnostics name (filled in).
    public init(
        scheme: String? = nil,
        host: String? = nil,
        path: PathPattern? = nil,
        method: HTTPMethod? = nil,
        response: MockResponse = MockResponse(),
        fileID: String = #fileID,
        line: Int = #line
    ) {
        self.scheme = scheme?.lowercased()
        hostPattern = host.map(HostPattern.init)
        self.path = path
        self.method = method
        self.response = response
        location = "\(fileID.split(separator: "/").last.map(String.init) ?? fileID):\(line)"
    }

    /// A filter written somewhere other than Swift source: diagnostics name `location` (a stubs
    /// file's `stubs.json:12`).
    package init(host: String?, path: PathPattern?, method: HTTPMethod?, location: String) {
        hostPattern = host.map(HostPattern.init)
        self.path = path
        self.method = method
        response = MockResponse()
        self.location = location
    }

    /// A filter for `method` and a path pattern, or a whole URL pattern such as
    /// `"https://api.example.com/users/<id>"` (scheme, host and port are then required too). A
    /// query in the pattern asks for those items, as ``query(_:)`` does: `"/search?q=swift&all"`
    /// requires `q` to be `swift` and `all` to be present, and allows other items.
    ///
    /// ```swift
    /// RequestFilter.matching(.get, "https://api.example.com/users/<id>")
    /// RequestFilter.get("https://api.example.com/search?q=swift")
    /// ```
    public static func matching(
        _ method: HTTPMethod?, _ pattern: String, fileID: String = #fileID, line: Int = #line
    ) -> RequestFilter {
        var scheme: String?
        var host: String?
        var path = Substring(pattern)
        if let separator = pattern.range(of: "://") {
            scheme = String(pattern[..<separator.lowerBound])
            let rest = pattern[separator.upperBound...]
            let slash = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
            host = String(rest[..<slash])
            path = rest[slash...]
        }
        // A fragment never reaches a server, so it isn't matched.
        if let hash = path.firstIndex(of: "#") { path = path[..<hash] }
        // A query in the pattern asks for those items (others may be there too), as `query(_:)`.
        var query: [Condition.QueryRequirement] = []
        if let mark = path.firstIndex(of: "?") {
            query = Self.queryRequirements(path[path.index(after: mark)...])
            path = path[..<mark]
        }
        let filter = RequestFilter(
            scheme: scheme, host: host, path: PathPattern(String(path)), method: method, fileID: fileID, line: line)
        return query.isEmpty ? filter : filter.adding(.query(query, exact: false))
    }

    /// `a=1&b&c=%20` as requirements: `a` is `1`, `b` is present, `c` is a space.
    private static func queryRequirements(_ query: Substring) -> [Condition.QueryRequirement] {
        query.split(separator: "&").map { item in
            guard let equals = item.firstIndex(of: "=") else {
                return Condition.QueryRequirement(name: Self.decoded(item), value: nil)
            }
            return Condition.QueryRequirement(
                name: Self.decoded(item[..<equals]), value: Self.decoded(item[item.index(after: equals)...]))
        }
    }

    private static func decoded(_ text: Substring) -> String {
        String(text).removingPercentEncoding ?? String(text)
    }

    /// A `GET` filter; `pattern` is a path pattern or a whole URL pattern.
    public static func get(_ pattern: String, fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        matching(.get, pattern, fileID: fileID, line: line)
    }

    /// A `POST` filter; `pattern` is a path pattern or a whole URL pattern.
    public static func post(_ pattern: String, fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        matching(.post, pattern, fileID: fileID, line: line)
    }

    /// A `PUT` filter; `pattern` is a path pattern or a whole URL pattern.
    public static func put(_ pattern: String, fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        matching(.put, pattern, fileID: fileID, line: line)
    }

    /// A `PATCH` filter; `pattern` is a path pattern or a whole URL pattern.
    public static func patch(_ pattern: String, fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        matching(.patch, pattern, fileID: fileID, line: line)
    }

    /// A `DELETE` filter; `pattern` is a path pattern or a whole URL pattern.
    public static func delete(_ pattern: String, fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        matching(.delete, pattern, fileID: fileID, line: line)
    }

    /// A `HEAD` filter; `pattern` is a path pattern or a whole URL pattern.
    public static func head(_ pattern: String, fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        matching(.head, pattern, fileID: fileID, line: line)
    }

    /// A filter for any method; `pattern` is a path pattern or a whole URL pattern.
    public static func any(_ pattern: String = "**", fileID: String = #fileID, line: Int = #line) -> RequestFilter {
        matching(nil, pattern, fileID: fileID, line: line)
    }

    // MARK: Conditions (each returns a copy)

    /// Requires these query items to be present (others may be present too). A `nil` value
    /// requires only the name. Values are compared percent-decoded.
    ///
    /// ```swift
    /// .get("/search").query(["q": "swift", "page": nil])
    /// ```
    public func query(_ items: KeyValuePairs<String, String?>) -> RequestFilter {
        adding(.query(items.map { Condition.QueryRequirement(name: $0.key, value: $0.value) }, exact: false))
    }

    /// Requires exactly these query items, no more and no fewer, in any order. An empty list
    /// requires no query at all.
    public func exactQuery(_ items: KeyValuePairs<String, String>) -> RequestFilter {
        adding(.query(items.map { Condition.QueryRequirement(name: $0.key, value: $0.value) }, exact: true))
    }

    /// Requires a header field (name compared case-insensitively) with exactly `value`, or
    /// just present when `value` is `nil`.
    public func header(_ name: HTTPHeaders.Name, _ value: String? = nil) -> RequestFilter {
        adding(.header(name: name, value: value))
    }

    /// Only GraphQL requests for the operation `operationName` (the request's `operationName`,
    /// else its query's first operation's name), with each of `variables` among its own:
    /// a `POST` with a JSON body or a `GET` with the same in its query string.
    ///
    /// ```swift
    /// registry.register(.post("/graphql").graphQL(operationName: "HeroName", variables: ["episode": "JEDI"]),
    ///                   respond: .json(["data": ["hero": ["name": "R2-D2"]]]))
    /// ```
    public func graphQL(operationName: String? = nil, variables: [String: JSONValue] = [:]) -> RequestFilter {
        adding(.graphQL(operationName: operationName, variables: variables))
    }

    /// GraphQL requests (`GET` or `POST`) to `pattern` for the operation `operationName`, with each
    /// of `variables` among their own.
    ///
    /// ```swift
    /// registry.register(.graphQL("/graphql", operationName: "HeroName"), respond: .json(["data": …]))
    /// ```
    public static func graphQL(
        _ pattern: String = "/graphql", operationName: String? = nil, variables: [String: JSONValue] = [:],
        fileID: String = #fileID, line: Int = #line
    ) -> RequestFilter {
        any(pattern, fileID: fileID, line: line).graphQL(operationName: operationName, variables: variables)
    }

    /// Requires a body that parses as JSON equal to `value` (key order and number spelling
    /// don't matter).
    public func jsonBody(_ value: JSONValue) -> RequestFilter {
        adding(.jsonBody(value))
    }

    /// Requires an `application/x-www-form-urlencoded` body with these fields, in any order
    /// (others may be present too). Names and values are compared decoded (`+` is a space,
    /// `%20` too); a `nil` value requires only the name. A body whose `Content-Type` names
    /// another type doesn't match; one without a `Content-Type` is read as a form, as URL
    /// loading sends it. The unmatched-request report names the field that differed.
    ///
    /// ```swift
    /// .post("/oauth/token").formBody(["grant_type": "password", "username": "ada", "scope": nil])
    /// ```
    public func formBody(_ fields: KeyValuePairs<String, String?>) -> RequestFilter {
        adding(.formBody(fields.map { Condition.QueryRequirement(name: $0.key, value: $0.value) }))
    }

    /// Requires the path's last segment to end in `.extension` (compared ignoring case; a
    /// leading dot in `extension` is ignored).
    ///
    /// ```swift
    /// registry.register(.get("https://cdn.example.com/**").pathExtension("png"), respond: .file(placeholder))
    /// ```
    public func pathExtension(_ extension: String) -> RequestFilter {
        let scalars = `extension`.unicodeScalars
        let trimmed = scalars.first == "." ? String(scalars.dropFirst()) : `extension`
        return adding(.pathExtension(trimmed.lowercased()))
    }

    /// Requires `predicate` to return `true`; `description` names it in diagnostics.
    ///
    /// ```swift
    /// .post("/upload").when("body under 1 KiB") { ($0.body?.count ?? 0) < 1024 }
    /// ```
    public func when(_ description: String, _ predicate: @escaping @Sendable (MockRequest) -> Bool) -> RequestFilter {
        adding(.predicate(description, predicate))
    }

    /// A copy whose redirects `MockURLProtocol` follows, or not (the 3xx is then the caller's
    /// final answer), whatever ``MockRegistry/followsRedirects`` says. The session delegate's
    /// `urlSession(_:task:willPerformHTTPRedirection:newRequest:completionHandler:)` is never
    /// called for a mocked redirect (FoundationNetworking traps when a URL protocol reports one),
    /// so this is the way to see the 3xx.
    ///
    /// ```swift
    /// registry.register(.get("/logout").followingRedirects(false), respond: .redirect(to: "/login"))
    /// ```
    public func followingRedirects(_ follows: Bool) -> RequestFilter {
        var copy = self
        copy.followsRedirects = follows
        return copy
    }

    /// A copy that calls `callback` once the answer to each request it matched has ended,
    /// delivered, failed or cancelled (see ``JournalEntry/completion``), on the thread that
    /// ended it. Keep it short; it must not block.
    ///
    /// ```swift
    /// registry.register(
    ///     .post("/events").onCompletion { entry in print(entry.request, entry.completion ?? .cancelled) },
    ///     respond: .status(204))
    /// ```
    public func onCompletion(_ callback: @escaping @Sendable (JournalEntry) -> Void) -> RequestFilter {
        var copy = self
        copy.completionCallback = callback
        return copy
    }

    /// A copy that answers with `response`.
    public func respond(with response: MockResponse) -> RequestFilter {
        var copy = self
        copy.response = response
        return copy
    }

    /// A copy marked as expected: at least one request must match it before the test ends.
    ///
    /// ``MockRegistry/unmetExpectations`` lists the expected filters no request matched yet;
    /// RequestMockerTesting reports each at the end of the test, pointing at the line that
    /// called `expected()`.
    ///
    /// ```swift
    /// registry.register(.post("/events").expected(), respond: .status(204))
    /// ```
    public func expected(
        fileID: String = #fileID, filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
    ) -> RequestFilter {
        var copy = self
        copy.expectedAt = CodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        return copy
    }

    func adding(_ condition: Condition) -> RequestFilter {
        var copy = self
        copy.conditions.append(condition)
        return copy
    }

    // MARK: Matching

    /// Whether the filter matches, and the path variables it captures.
    ///
    /// ```swift
    /// let filter = RequestFilter.get("/users/<id>")
    /// filter.match(MockRequest(method: .get, url: URL(string: "https://x.test/users/7")!))?["id"] // "7"
    /// ```
    public func match(_ request: MockRequest) -> Captures? {
        let evaluation = evaluate(request, stoppingAtFirstMiss: true)
        return evaluation.firstMiss == nil ? evaluation.captures : nil
    }

    /// `GET https://api.example.com/users/<id> ?page=2 (UserTests.swift:12)`.
    public var description: String {
        var text = method?.rawValue ?? "ANY"
        text += " "
        if let scheme { text += scheme + "://" }
        if let hostPattern { text += hostPattern.description }
        text += path.map { $0.rawValue.hasPrefix("/") ? $0.rawValue : "/" + $0.rawValue } ?? "/**"
        for condition in conditions { text += " " + condition.description }
        if let scenario { text += " " + scenario.description }
        return text + " (\(location))"
    }
}
