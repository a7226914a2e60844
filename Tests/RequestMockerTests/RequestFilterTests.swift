import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("RequestFilter", .timeLimit(.minutes(3)), .hangGuard)
struct RequestFilterTests {
    @Test("host: case-insensitive, optional port, default ports, subdomain wildcard")
    func host() {
        let plain = RequestFilter(host: "API.Example.com")
        #expect(plain.match(mockRequest(.get, "https://api.example.COM/x")) != nil)
        #expect(plain.match(mockRequest(.get, "https://api.example.com:8443/x")) != nil)
        #expect(plain.match(mockRequest(.get, "https://example.com/x")) == nil)

        let withPort = RequestFilter(host: "example.com:8080")
        #expect(withPort.match(mockRequest(.get, "http://example.com:8080/")) != nil)
        #expect(withPort.match(mockRequest(.get, "http://example.com/")) == nil)
        #expect(RequestFilter(host: "example.com:443").match(mockRequest(.get, "https://example.com/")) != nil)

        var mutated = RequestFilter(host: "a.test")
        mutated.host = "API.Example.com"
        #expect(mutated.match(mockRequest(.get, "https://api.example.com/x")) != nil)
        #expect(RequestFilter(host: "[::1]:8080").match(mockRequest(.get, "http://[::1]:8080/x")) != nil)
        #expect(RequestFilter(host: "[::1]:8080").match(mockRequest(.get, "http://[::1]:9090/x")) == nil)
        #expect(RequestFilter(host: "::1").match(mockRequest(.get, "http://[::1]/x")) != nil)

        let subdomains = RequestFilter(host: "*.example.com")
        #expect(subdomains.match(mockRequest(.get, "https://a.b.example.com/")) != nil)
        #expect(subdomains.match(mockRequest(.get, "https://example.com/")) == nil)
        #expect(subdomains.match(mockRequest(.get, "https://badexample.com/")) == nil)
    }

    @Test("method is exact; nil means any")
    func method() {
        #expect(RequestFilter.get("/x").match(mockRequest(.post, "/x")) == nil)
        #expect(RequestFilter.any("/x").match(mockRequest(.post, "/x")) != nil)
        #expect(RequestFilter(path: "/x", method: "get").match(mockRequest(.get, "/x")) != nil)
    }

    @Test("a whole URL pattern requires scheme, host and port")
    func urlPattern() {
        let filter = RequestFilter.get("https://api.example.com:8443/users/<id>")
        #expect(filter.match(mockRequest(.get, "https://api.example.com:8443/users/7"))?["id"] == "7")
        #expect(filter.match(mockRequest(.get, "http://api.example.com:8443/users/7")) == nil)
        #expect(filter.match(mockRequest(.get, "https://api.example.com/users/7")) == nil)
    }

    @Test("query: present subset, or exact set")
    func query() {
        let subset = RequestFilter.get("/search").query(["q": "swift", "page": nil])
        #expect(subset.match(mockRequest(.get, "/search?page=2&q=swift&extra=1")) != nil)
        #expect(subset.match(mockRequest(.get, "/search?q=swift")) == nil)
        #expect(subset.match(mockRequest(.get, "/search?q=rust&page=1")) == nil)
        #expect(RequestFilter.get("/s").query(["q": "a b"]).match(mockRequest(.get, "/s?q=a%20b")) != nil)

        let exact = RequestFilter.get("/categories").exactQuery(["page": "1", "authentication_token": "TEST"])
        #expect(exact.match(mockRequest(.get, "/categories?authentication_token=TEST&page=1")) != nil)
        #expect(exact.match(mockRequest(.get, "/categories?authentication_token=TEST&page=1&x=2")) == nil)
        #expect(exact.match(mockRequest(.get, "/categories?page=1")) == nil)
        #expect(RequestFilter.get("/c").exactQuery([:]).match(mockRequest(.get, "/c")) != nil)
        #expect(RequestFilter.get("/c").exactQuery([:]).match(mockRequest(.get, "/c?a=1")) == nil)
    }

    @Test("headers: case-insensitive names, exact values, or presence")
    func headers() {
        let filter = RequestFilter.get("/me").header("authorization", "Bearer t")
        #expect(filter.match(mockRequest(.get, "/me", headers: ["Authorization": "Bearer t"])) != nil)
        #expect(filter.match(mockRequest(.get, "/me", headers: ["Authorization": "Bearer u"])) == nil)
        #expect(filter.match(mockRequest(.get, "/me")) == nil)
        #expect(RequestFilter.get("/me").header("X-Id").match(mockRequest(.get, "/me", headers: ["x-id": "1"])) != nil)
    }

    @Test("JSON body equal to a value, whatever the key order and spacing")
    func jsonBody() {
        let filter = RequestFilter.post("/login").jsonBody(["user": "ada", "remember": true, "n": 1])
        #expect(
            filter.match(mockRequest(.post, "/login", body: #"{ "remember": true, "n": 1.0, "user": "ada" }"#)) != nil)
        #expect(filter.match(mockRequest(.post, "/login", body: #"{"user": "bob", "remember": true, "n": 1}"#)) == nil)
        #expect(filter.match(mockRequest(.post, "/login", body: "not json")) == nil)
        #expect(filter.match(mockRequest(.post, "/login")) == nil)
    }

    /// The README's "Differences by design" rows, pinned.
    @Test(";params belong to their segment; a nil query value asks only for the name")
    func differencesByDesign() {
        let withParams = mockRequest(.get, "https://api.test/users;v=2/7;x=1")
        #expect(withParams.pathSegments == ["users;v=2", "7;x=1"])
        #expect(RequestFilter.get("/users/<id>").match(withParams) == nil)
        #expect(RequestFilter.get("/users;v=2/<id>").match(withParams)?["id"] == "7;x=1")
        #expect(RequestFilter.get("/*/<id>").match(withParams)?["id"] == "7;x=1")
        let present = RequestFilter.get("/s").query(["debug": nil])
        for query in ["debug", "debug=", "debug=1"] {
            #expect(present.match(mockRequest(.get, "https://api.test/s?\(query)")) != nil, "\(query)")
        }
        #expect(present.match(mockRequest(.get, "https://api.test/s?other")) == nil)
        let empty = RequestFilter.get("/s").query(["debug": ""])
        #expect(empty.match(mockRequest(.get, "https://api.test/s?debug=")) != nil)
        #expect(empty.match(mockRequest(.get, "https://api.test/s?debug=1")) == nil)
    }

    @Test("any @Sendable predicate")
    func predicate() {
        let filter = RequestFilter.post("/upload").when("small body") { ($0.body?.count ?? 0) < 4 }
        #expect(filter.match(mockRequest(.post, "/upload", body: "abc")) != nil)
        #expect(filter.match(mockRequest(.post, "/upload", body: "abcd")) == nil)
    }

    @Test("description shows conditions and the line it was written on")
    func description() {
        let filter = RequestFilter.get("https://api.test/users/<id>").query(["page": "2"]).header("X-Id")
        #expect(
            filter.description
                == "GET https://api.test/users/<id> ?page=2 [X-Id] (RequestFilterTests.swift:\(#line - 1))")
        #expect(RequestFilter(host: "h.test").description.hasPrefix("ANY h.test/** ("))
    }
}
