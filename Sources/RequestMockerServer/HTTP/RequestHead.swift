import Foundation
import RequestMocker

/// The parsed request line and header fields of one HTTP/1.x request.
struct RequestHead: Sendable {
    enum BodyFraming: Sendable, Equatable {
        case none
        case length(Int)
        case chunked
    }

    var method: HTTPMethod
    var target: String
    /// 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    var headers: HTTPHeaders
    var framing: BodyFraming

    /// Whether the client wants the connection kept open after this exchange.
    var keepAlive: Bool {
        if headers.contains(token: "close", in: .connection) { return false }
        return minorVersion >= 1 || headers.contains(token: "keep-alive", in: .connection)
    }

    /// Whether the client waits for `100 Continue` before sending its body.
    var expectsContinue: Bool {
        minorVersion >= 1 && headers["Expect"]?.trimmingCharacters(in: .whitespaces).lowercased() == "100-continue"
    }

    var hasUnsupportedExpectation: Bool {
        guard let expect = headers["Expect"] else { return false }
        return minorVersion >= 1 && expect.trimmingCharacters(in: .whitespaces).lowercased() != "100-continue"
    }
}
