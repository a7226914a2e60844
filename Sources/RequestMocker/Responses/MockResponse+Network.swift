import Foundation

/// Responses that come from, or send the client to, another server: a forward, a pass-through
/// and a redirect.
extension MockResponse {
    /// The answer of another server: the request goes to `base` with its own path and query
    /// appended (`https://staging.test/api` and `GET /users/7?x=1` give
    /// `https://staging.test/api/users/7?x=1`), with its method, headers (but `Host`) and body,
    /// through the library's own pass-through session; the real status, headers and body come
    /// back unchanged, through `MockURLProtocol` and `MockServer` alike.
    ///
    /// A forward that would come back to the same server is
    /// ``RequestMockerError/passThroughLoop(request:)`` (`502` through the server); an
    /// unreachable server is the `URLError` through `MockURLProtocol`, and `502` with the reason
    /// through the server. A delay set on the response holds the answer back; other modifiers
    /// don't apply.
    ///
    /// ```swift
    /// // Everything under /payments comes from the real staging server.
    /// registry.register(.any("/payments/**"), respond: .forward(to: URL(string: "https://staging.example.com")!))
    /// ```
    public static func forward(to base: URL) -> MockResponse {
        MockResponse(content: .forward(base))
    }

    /// The answer of the real server the request names: the request goes to its own URL,
    /// unchanged, through the library's pass-through session (as the registry's
    /// ``UnmatchedRequestPolicy/passThrough`` sends what nothing matches), and the journal marks
    /// it ``JournalEntry/Disposition/passedThrough``. For analytics, CDN or sign-in traffic that
    /// must reach the network while everything else is mocked and a miss fails.
    ///
    /// Through `MockServer` (and `request-mocker serve`) the request goes to the server's
    /// upstream when it has one; otherwise it would come back to the server itself, so it gets
    /// `502` with ``RequestMockerError/passThroughLoop(request:)``, unless it names another
    /// server (a `Host` header, or an absolute URL as to a proxy). A delay set on the response
    /// holds the answer back; other modifiers don't apply. As an element of a
    /// ``sequence(_:afterLast:)`` it is journaled as passed through too; returned by a block
    /// it passes through the same way, but the journal entry, written before the block runs,
    /// says ``JournalEntry/Disposition/answered``.
    ///
    /// ```swift
    /// registry.register(.any("https://cdn.example.com/**"), respond: .passThrough)
    /// registry.register(.get("https://api.example.com/users/<id>"), respond: .json(["id": 7]))
    /// // Anything else fails with the unmatched-request report.
    /// ```
    public static var passThrough: MockResponse {
        MockResponse(content: .passThrough)
    }

    /// Whether this response sends the request on to its own server (``passThrough``).
    package var passesThrough: Bool {
        if case .passThrough = content { return true }
        return false
    }

    /// A redirect to `location`; the library follows it (see ``MockRegistry/followsRedirects``).
    ///
    /// - Parameters:
    ///   - location: an absolute URL, or one relative to the request's URL.
    ///   - status: 301, 302, 303, 307 or 308. The next request is the one the platform's own
    ///     loader makes: a `POST` becomes a `GET` on 301 and 302, and on 303 anything but a
    ///     `HEAD` does (on Linux a `HEAD` too); on Linux no body goes along after any redirect,
    ///     as FoundationNetworking sends none.
    ///   - headers: more header fields for the redirect response.
    public static func redirect(
        to location: String, status: HTTPStatus = .found, headers: HTTPHeaders = [:]
    ) -> MockResponse {
        var headers = headers
        headers.replace(.location, with: location)
        return MockResponse(content: .body(Data(), defaultContentType: nil), status: status, headers: headers)
    }

    /// A redirect to `url`; see ``redirect(to:status:headers:)-(String,_,_)``.
    public static func redirect(to url: URL, status: HTTPStatus = .found, headers: HTTPHeaders = [:]) -> MockResponse {
        redirect(to: url.absoluteString, status: status, headers: headers)
    }
}
