import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// The fields URL loading adds from a request itself, which a captured request carries so that a
/// filter sees what a server would.
@Suite("Wire fields of a captured request", .timeLimit(.minutes(3)), .hangGuard)
struct WireFieldsTests {
    @Test(
        "Host is the URL's host as written, with the port only when it isn't the scheme's default",
        arguments: [
            ("https://api.test/x", "api.test"), ("https://api.test:443/x", "api.test"),
            ("http://api.test:80", "api.test"), ("https://api.test:80/x", "api.test:80"),
            ("http://api.test:8080?q=1", "api.test:8080"), ("http://API.Test#frag", "API.Test"),
            ("http://user:p%40ss@api.test:81/x", "api.test:81"), ("http://a@b@api.test/", "api.test"),
            ("http://[::1]:8080/x", "[::1]:8080"), ("http://[::1]/x", "[::1]"),
            ("HTTP://api.test:80/", "api.test"), ("ws://api.test:80/", "api.test"), ("wss://api.test:443", "api.test"),
            ("http://api.test:/x", "api.test"), ("http://api.test:0080/", "api.test"),
            ("myapp://thing:80/x", "thing:80"), ("http://h%C3%A9.test/", "h%C3%A9.test"),
        ])
    func host(url: String, host: String) throws {
        let request = MockRequest(URLRequest(url: try #require(URL(string: url))))
        #expect(request.header(.host) == host)
    }

    @Test("a URL without an authority gets no Host field")
    func noHost() throws {
        for url in ["file:///tmp/x", "mailto:someone@api.test", "urn:isbn:0451450523"] {
            let request = MockRequest(URLRequest(url: try #require(URL(string: url))))
            #expect(request.header(.host) == nil, "\(url)")
        }
    }

    @Test("a URL relative to a base gets the base's host and port")
    func relative() throws {
        let base = try #require(URL(string: "https://base.test:8443/a/"))
        let request = MockRequest(URLRequest(url: try #require(URL(string: "b?c=1", relativeTo: base))))
        #expect(request.header(.host) == "base.test:8443")
    }
}
