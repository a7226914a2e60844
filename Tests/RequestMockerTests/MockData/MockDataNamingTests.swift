import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("MockDataNaming", .timeLimit(.minutes(3)), .hangGuard)
struct MockDataNamingTests {
    func names(
        _ method: HTTPMethod, _ url: String, contentType: String? = nil, body: String? = nil, wildcards: Bool = false
    ) -> [String] {
        let request = MockRequest(
            method: method,
            url: URL(string: url.hasPrefix("http") ? url : "http://example.com" + url)!,
            headers: contentType.map { ["Content-Type": $0] } ?? [:],
            body: body.map { Data($0.utf8) }
        )
        return MockDataNaming(allowsWildcards: wildcards).candidates(for: request)
    }

    // The worked examples of originals.md §1.3, recomputed.
    @Test("GET with a query, wildcards on")
    func query() {
        #expect(
            names(.get, "/foo?bar=baz", wildcards: true) == [
                "GET|-foo?bar=baz", "GET|-foo?f572f8dbb5d18f875512ecb02f6852d29fa1baf9ebd1f241d96afd978e721852",
                "GET|-foo?*",
            ])
    }

    @Test("a long query survives only through its hash")
    func longQuery() {
        // VOKMockUrlProtocol's own test request, typo ("twntytwo") included: its fixture file is named by this hash.
        let query =
            "one=1&two=2&three=3&four=4&five=5&six=6&seven=7&eight=8&nine=9&ten=10&eleven=11&twelve=12&thirteen=13"
            + "&fourteen=14&fifteen=15&sixteen=16&seventeen=17&eighteen=18&nineteen=19&twenty=20"
            + "&twentyone=21&twntytwo=22"
            + "&twentythree=23&twentyfour=24&twentyfive=25"
        #expect(("GET|/details?" + query).count == 263)
        #expect(
            names(.get, "/details?" + query) == [
                "GET|-details?fb73ef92daa60d3b526724dd5f50738e8477d10e0edcf96ce79794666f6b0c0e"
            ])
    }

    @Test("form and JSON POST bodies; the trailing slash is dropped")
    func bodies() {
        #expect(
            names(
                .post, "/login/", contentType: "application/x-www-form-urlencoded",
                body: "email=user%40example.com&password=password") == [
                    "POST|-login|email=user%40example.com&password=password",
                    "POST|-login|169d720631e603967135cfce10d235e94aac22b87500ea09d1be295f5b300dca",
                ])
        #expect(
            names(
                .post, "/login/", contentType: "application/json",
                body: #"{"email":"user@example.com","password":"password"}"#) == [
                    "POST|-login|d5-email16-user@example.com8-password8-passworde",
                    "POST|-login|236a9780f782b62654f6caf7c4614e47b15800c087a9d43c87c47164617a74f0",
                ])
        #expect(
            names(.post, "http://example.com/", contentType: "application/json", body: #"{"foo":"baz"}"#) == [
                "POST|-|d3-foo3-baze", "POST|-|c450c726579d41e1daa46158c07c1ed4a81dddc5e8dcb96ad729bca95e0e6fac",
            ])
    }

    @Test("query and body with wildcards: nine names, exact ones first")
    func queryAndBody() {
        let result = names(
            .post, "/foo/bar?baz=bat", contentType: "application/json", body: #"{"abc":"def"}"#, wildcards: true)
        #expect(result.count == 9)
        #expect(result[0] == "POST|-foo-bar?baz=bat|d3-abc3-defe")
        #expect(result[1].hasPrefix("POST|-foo-bar?baz=bat|2c3fbda5"))
        #expect(result[2].hasPrefix("POST|-foo-bar?36c88ea4") && result[2].hasSuffix("|d3-abc3-defe"))
        #expect(
            Array(result[4...]).map {
                $0.replacingOccurrences(of: #"[0-9a-f]{64}"#, with: "H", options: .regularExpression)
            } == [
                "POST|-foo-bar?baz=bat|*", "POST|-foo-bar?H|*", "POST|-foo-bar?*|d3-abc3-defe", "POST|-foo-bar?*|H",
                "POST|-foo-bar?*|*",
            ])
    }

    @Test("floats truncate, spaces escape, null leaves only the hash, no body hashes nothing")
    func jsonDetails() {
        let float = names(.post, "/p", contentType: "application/json", body: #"{"b":[1,2.7,true],"a":"x y/z"}"#)
        #expect(float.first == "POST|-p|d1-a5-x%20y-z1-bli1ei2ei1eee")
        #expect(float.last?.hasPrefix("POST|-p|13dc1ad8") == true)
        let null = names(.put, "/items/7", contentType: "application/json", body: #"{"a":null}"#)
        #expect(null.count == 1 && null[0].hasPrefix("PUT|-items-7|d091f9c8"))
        #expect(
            names(.post, "/items") == ["POST|-items|e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"])
    }

    @Test("plain GETs, a body on DELETE is ignored, and a path ending in .json")
    func plain() {
        #expect(names(.get, "/v1/users/42") == ["GET|-v1-users-42"])
        #expect(names(.get, "/v1/users/42", wildcards: true) == ["GET|-v1-users-42"])
        #expect(names(.delete, "/items/7", contentType: "application/json", body: "{}") == ["DELETE|-items-7"])
        #expect(names(.get, "/data.json") == ["GET|-data.json"])
    }

    @Test("an empty path is /, and a URL's trailing slash never reaches the name")
    func slashes() {
        #expect(names(.get, "http://example.com") == ["GET|-"])
        #expect(names(.get, "http://example.com/") == ["GET|-"])
        #expect(names(.get, "/foo/?page=2") == ["GET|-foo?page=2", "GET|-foo?" + SHA256.hex(Array("page=2".utf8))])
    }
}
