import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("Cassette matchers", .timeLimit(.minutes(3)), .hangGuard)
struct CassetteMatcherTests {
    @Test("method, scheme, host and port; an omitted port is the scheme's default")
    func urlParts() {
        #expect(CassetteMatcher.method.matches(mockRequest("get", "/a"), mockRequest(.get, "/a")))
        #expect(!CassetteMatcher.method.matches(mockRequest(.post, "/a"), mockRequest(.get, "/a")))
        #expect(
            CassetteMatcher.scheme.matches(
                MockRequest(method: .get, url: URL(string: "HTTPS://api.test/a")!),
                mockRequest(.get, "https://api.test/a")))
        #expect(
            !CassetteMatcher.scheme.matches(
                mockRequest(.get, "http://api.test/a"), mockRequest(.get, "https://api.test/a")))
        #expect(
            CassetteMatcher.host.matches(
                mockRequest(.get, "https://API.Test/a"), mockRequest(.get, "https://api.test/b")))
        #expect(
            CassetteMatcher.port.matches(
                mockRequest(.get, "https://api.test:443/a"), mockRequest(.get, "https://api.test/a")))
        #expect(
            !CassetteMatcher.port.matches(
                mockRequest(.get, "https://api.test:8443/a"), mockRequest(.get, "https://api.test/a")))
    }

    @Test("path compares decoded segments, ignores outer slashes, and is case-sensitive")
    func path() {
        #expect(CassetteMatcher.path.matches(mockRequest(.get, "/users/a%20b/"), mockRequest(.get, "/users/a b")))
        #expect(!CassetteMatcher.path.matches(mockRequest(.get, "/Users"), mockRequest(.get, "/users")))
        #expect(!CassetteMatcher.path.matches(mockRequest(.get, "/users/1"), mockRequest(.get, "/users")))
    }

    @Test("query is a set of pairs: order free, repeats count, + and %20 alike")
    func query() {
        #expect(CassetteMatcher.query.matches(mockRequest(.get, "/s?b=2&a=1"), mockRequest(.get, "/s?a=1&b=2")))
        #expect(CassetteMatcher.query.matches(mockRequest(.get, "/s?q=a+b"), mockRequest(.get, "/s?q=a%20b")))
        #expect(!CassetteMatcher.query.matches(mockRequest(.get, "/s?a=1&a=1"), mockRequest(.get, "/s?a=1")))
        #expect(!CassetteMatcher.query.matches(mockRequest(.get, "/s?a=1"), mockRequest(.get, "/s?a=2")))
        #expect(CassetteMatcher.query.matches(mockRequest(.get, "/s"), mockRequest(.get, "/s?")))
        #expect(!CassetteMatcher.query.matches(mockRequest(.get, "/s?debug"), mockRequest(.get, "/s?debug=")))
        #expect(CassetteMatcher.query.matches(mockRequest(.get, "/s?debug&a=1"), mockRequest(.get, "/s?a=1&debug")))
        #expect(
            CassetteMatcher.uri.matches(
                mockRequest(.get, "https://API.test:443/s/?b=2&a=1"), mockRequest(.get, "https://api.test/s?a=1&b=2")))
        #expect(
            !CassetteMatcher.uri.matches(
                mockRequest(.get, "https://api.test/s?a=1"), mockRequest(.get, "https://api.test/t?a=1")))
    }

    @Test("headers compare every value of the named fields")
    func headers() {
        let matcher = CassetteMatcher.headers("Accept", "X-Missing")
        #expect(
            matcher.matches(
                mockRequest(.get, "/", headers: ["accept": "json"]),
                mockRequest(.get, "/", headers: ["Accept": "json", "Other": "x"])))
        #expect(
            !matcher.matches(
                mockRequest(.get, "/", headers: ["Accept": "xml"]), mockRequest(.get, "/", headers: ["Accept": "json"]))
        )
        #expect(!matcher.matches(mockRequest(.get, "/"), mockRequest(.get, "/", headers: ["Accept": "json"])))
        #expect(matcher.name == "headers Accept, X-Missing")
    }

    @Test("body: bytes, or JSON values, or form fields in any order; none equals empty")
    func body() {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        let form: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
        #expect(CassetteMatcher.body.matches(mockRequest(.get, "/", body: "raw"), mockRequest(.get, "/", body: "raw")))
        #expect(!CassetteMatcher.body.matches(mockRequest(.get, "/", body: "raw"), mockRequest(.get, "/", body: "Raw")))
        #expect(CassetteMatcher.body.matches(mockRequest(.get, "/"), mockRequest(.get, "/", body: "")))
        #expect(
            CassetteMatcher.body.matches(
                mockRequest(.get, "/", headers: json, body: #"{"a": 1, "b": [true]}"#),
                mockRequest(.get, "/", body: #"{"b":[true],"a":1}"#)
            ))
        #expect(
            !CassetteMatcher.body.matches(
                mockRequest(.get, "/", headers: json, body: #"{"a": 1}"#),
                mockRequest(.get, "/", headers: json, body: #"{"a": 2}"#)))
        #expect(
            CassetteMatcher.body.matches(
                mockRequest(.get, "/", headers: form, body: "b=2&a=x+y"),
                mockRequest(.get, "/", headers: form, body: "a=x%20y&b=2")))
        #expect(
            !CassetteMatcher.body.matches(
                mockRequest(.get, "/", body: #"{"a": 1}"#), mockRequest(.get, "/", body: #"{"a":1}"#)),
            "without a JSON Content-Type, bytes decide")
    }

    @Test("custom matchers see both requests after redaction")
    func custom() async throws {
        let file = try #require(
            Bundle.module.url(forResource: "tenant", withExtension: "har", subdirectory: "Fixtures/HAR"))
        let sameTenant = CassetteMatcher("same tenant") { $0.header("X-Tenant") == $1.header("X-Tenant") }
        let registry = MockRegistry()
        registry.register(try openCassette(file, record: .none, matchers: CassetteMatcher.default + [sameTenant]))
        var request = URLRequest(url: url("https://api.test/me"))
        request.setValue("b", forHTTPHeaderField: "X-Tenant")
        #expect(text(try await registry.makeSession().data(for: request).0) == "tenant b")
        request.setValue("c", forHTTPHeaderField: "X-Tenant")
        let error = await #expect(throws: RequestMockerError.self) {
            _ = try await registry.makeSession().data(for: request)
        }
        #expect(
            "\(error.map { "\($0)" } ?? "")".contains(
                "nearest is entry 0 (GET https://api.test/me), whose same tenant differs"))
    }

    @Test("an empty matcher list plays the recordings in order")
    func empty() async throws {
        let file = try #require(
            Bundle.module.url(forResource: "any", withExtension: "har", subdirectory: "Fixtures/HAR"))
        let registry = MockRegistry()
        registry.register(try openCassette(file, record: .none, matchers: []))
        let session = registry.makeSession()
        #expect(text(try await session.data(from: url("/anything")).0) == "1")
        #expect(text(try await session.data(from: url("/else")).0) == "2")
    }
}

@Suite("Redaction", .timeLimit(.minutes(3)), .hangGuard)
struct RedactionTests {
    @Test("headers are replaced or removed, by case-insensitive name")
    func headers() {
        let redaction = Redaction.default.header("x-api-key", .remove).keepingHeader("Cookie")
        let headers: HTTPHeaders = ["authorization": "Bearer t", "Cookie": "a=1", "X-API-Key": "k", "Accept": "json"]
        #expect(redaction.redact(headers) == ["authorization": "Bearer REDACTED", "Cookie": "a=1", "Accept": "json"])
        #expect(Redaction.none.redact(headers) == headers)
    }

    @Test("an Authorization value keeps its scheme word, never a word that could be the credential")
    func authorizationSchemeWord() {
        let cases: [(sent: String, written: String)] = [
            ("Bearer eyJhbGciOi.x.y", "Bearer REDACTED"),
            ("Basic YWRhOmh1bnRlcjI=", "Basic REDACTED"),
            ("AWS4-HMAC-SHA256 Credential=AKIA/2026", "AWS4-HMAC-SHA256 REDACTED"),
            ("Token  abc", "Token REDACTED"),
            ("SSWS 00abc", "SSWS REDACTED"),
            ("sk-live-12345", "REDACTED"),
            ("k3y9 second-part", "REDACTED"),
            ("averyveryverylongwordthatmaybeasecret rest", "REDACTED"),
        ]
        for (sent, written) in cases {
            let headers: HTTPHeaders = ["Authorization": sent]
            #expect(Redaction.default.redact(headers) == ["Authorization": written], "\(sent)")
        }
        let proxy: HTTPHeaders = ["Proxy-Authorization": "Basic x"]
        #expect(Redaction.default.redact(proxy) == ["Proxy-Authorization": "Basic REDACTED"])
        let token: HTTPHeaders = ["X-Auth-Token": "Bearer x"]
        #expect(Redaction.default.redact(token) == ["X-Auth-Token": "REDACTED"])
        let bearer: HTTPHeaders = ["Authorization": "Bearer x"]
        #expect(
            Redaction.default.header("Authorization", .replace("hidden")).redact(bearer) == ["Authorization": "hidden"])
    }

    @Test("query parameters and form fields keep the spelling of fields they don't touch")
    func formFields() {
        let replacements: [String: Redaction.Replacement] = [
            "token": .redacted, "drop": .remove, "note": .replace("a&b=c"),
        ]
        #expect(
            FormFields.rewrite("b=%2F&token=abc&drop=1&note=x", replacing: { replacements[$0] })
                == "b=%2F&token=REDACTED&note=a%26b%3Dc")
        #expect(FormFields.rewrite("drop=1", replacing: { replacements[$0] }) == nil)
        let request = MockRequest(method: .get, url: url("/s?token=abc&q=a+b"))
        #expect(
            Redaction.default.queryParameter("token").redact(request)?.url.absoluteString
                == "https://api.test/s?token=REDACTED&q=a+b")
    }

    @Test("URL passwords and Location queries are redacted; a bad path hook keeps the query rules")
    func urls() throws {
        let redaction = Redaction.default.queryParameter("code").path { _ in "no slash/and spaces" }
        let request = MockRequest(method: .get, url: URL(string: "https://ada:pw@api.test/callback?code=c-1&state=s")!)
        #expect(
            redaction.redact(request)?.url.absoluteString
                == "https://REDACTED:REDACTED@api.test/no%20slash/and%20spaces?code=REDACTED&state=s")
        let response = RecordedResponse(
            status: 302, headers: ["Location": "/next?code=c-2#top", "Content-Location": "https://api.test/x?code=c-3"])
        let redacted = try #require(redaction.redact(response, for: request))
        #expect(redacted.headers["Location"] == "/next?code=REDACTED#top")
        #expect(redacted.headers["Content-Location"] == "https://api.test/x?code=REDACTED")
    }

    @Test("body keys at any depth of JSON, and in form bodies")
    func bodies() throws {
        let redaction = Redaction.none.bodyKey("password").bodyKey("secret", .remove)
        let json = MockRequest(
            method: .post, url: url("/login"), headers: ["Content-Type": "application/json"],
            body: Data(#"{"user": {"password": "p", "name": "ada"}, "list": [{"secret": 1, "keep": 2}]}"#.utf8))
        let redacted = try #require(redaction.redact(json)?.body)
        #expect(
            try JSONValue(parsing: redacted) == [
                "user": ["password": "REDACTED", "name": "ada"], "list": [["keep": 2]],
            ])
        let form = MockRequest(
            method: .post, url: url("/login"), headers: ["Content-Type": "application/x-www-form-urlencoded"],
            body: Data("name=ada&password=p".utf8))
        #expect(redaction.redact(form)?.bodyText == "name=ada&password=REDACTED")
        let plain = MockRequest(
            method: .post, url: url("/login"), headers: ["Content-Type": "text/plain"],
            body: Data(#" {"password": "p"}"#.utf8))
        #expect(
            redaction.redact(plain)?.bodyText == #"{"password":"REDACTED"}"#,
            "JSON is read whatever the Content-Type says")
        let text = MockRequest(
            method: .post, url: url("/login"), headers: ["Content-Type": "text/plain"], body: Data("password=p".utf8))
        #expect(redaction.redact(text)?.bodyText == "password=p", "other text is left alone")
    }

    @Test("a JSON body nested to the parser's limit is redacted at the bottom, on the smallest stack")
    func deepestBodyIsRedactedOnTheSmallestStack() async throws {
        let depth = JSONValue.maximumNesting
        let opening = String(repeating: #"{"a":["#, count: depth / 2 - 1)
        let closing = String(repeating: "]}", count: depth / 2 - 1)
        let body = opening + #"{"password":"p","secret":1,"keep":2}"# + closing
        let request = MockRequest(
            method: .post, url: url("/deep"), headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        let redaction = Redaction.none.bodyKey("password").bodyKey("secret", .remove)
        let redacted = try await onThread { redaction.redact(request)?.bodyText }
        #expect(redacted == opening + #"{"keep":2,"password":"REDACTED"}"# + closing)
    }
}
