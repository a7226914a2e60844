import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Where a request passed through to an upstream goes: its path and query under the upstream's
/// base path.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ForwardingTests {
    private func rebased(_ url: String, under base: String) throws -> String? {
        let request = MockRequest(method: .get, url: try #require(URL(string: url)), headers: ["Host": "mock.test"])
        let sent = Forwarding.rebased(request, under: try #require(URL(string: base)))
        #expect(sent.map { $0.headers.contains(.host) } != true, "the Host goes; the session sets the upstream's")
        return sent?.url.absoluteString
    }

    @Test func thePathAndQueryGoUnderTheBasePath() throws {
        let cases: [(url: String, base: String, expected: String)] = [
            (
                "http://mock.test/users/7?a=%20b+c&d=%2F", "http://up.test:8080",
                "http://up.test:8080/users/7?a=%20b+c&d=%2F"
            ),
            ("http://mock.test/users/7", "http://up.test/api/", "http://up.test/api/users/7"),
            ("http://mock.test/users/7", "http://up.test/api", "http://up.test/api/users/7"),
            ("http://mock.test/", "https://up.test/api?x=1#top", "https://up.test/api/"),
            ("http://mock.test", "http://up.test", "http://up.test/"),
            ("http://mock.test/a%2Fb;c/d?", "http://[::1]:9000/v6", "http://[::1]:9000/v6/a%2Fb;c/d?"),
            ("http://mock.test//evil.test/p", "http://up.test", "http://up.test//evil.test/p"),
        ]
        for (url, base, expected) in cases {
            #expect(try rebased(url, under: base) == expected, "\(url) under \(base)")
        }
    }

    @Test func aBaseThatIsNotHTTPOrARequestPathWithoutItsSlashGoesNowhere() throws {
        #expect(try rebased("http://mock.test/users", under: "ftp://up.test") == nil)
        #expect(try rebased("http://mock.test/users", under: "/relative/only") == nil)
        // `http:foo` has the path `foo`: joined to `http://up.test` it would name the host
        // `up.testfoo`.
        #expect(try rebased("http:foo", under: "http://up.test") == nil)
    }
}
