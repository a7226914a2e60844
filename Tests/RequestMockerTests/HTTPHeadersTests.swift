import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Comma-separated field values (RFC 9110 §5.6.1), which both transports read for `Connection`,
/// `Transfer-Encoding`, `Content-Length` and the WebSocket handshake.
@Suite("HTTP header lists", .timeLimit(.minutes(3)), .hangGuard)
struct HTTPHeadersTests {
    @Test(
        "a list value splits on commas, without the spaces and tabs around its elements, and without empty ones",
        arguments: [
            ("close", ["close"]), (" keep-alive ,\tUpgrade\t", ["keep-alive", "Upgrade"]), ("a,,b", ["a", "b"]),
            (",", []), ("", []), (" \t ", []), ("x y, z", ["x y", "z"]), ("é, ü ", ["é", "ü"]),
        ])
    func listElements(value: String, elements: [String]) {
        #expect(HTTPHeaders.listElements(value) == elements)
    }

    @Test("a token is found in any of the field's values, in any letter case, and only whole")
    func containsToken() {
        let headers: HTTPHeaders = ["Connection": "keep-alive", "connection": "Upgrade, CLOSE"]
        #expect(headers.contains(token: "close", in: .connection))
        #expect(headers.contains(token: "upgrade", in: .connection))
        #expect(!headers.contains(token: "clos", in: .connection))
        #expect(!(["Connection": "enclosed"] as HTTPHeaders).contains(token: "close", in: .connection))
        #expect(!HTTPHeaders().contains(token: "close", in: .connection))
    }
}
