/// A way for the connection to break instead of answering, for testing how a client copes
/// with servers that misbehave.
///
/// On the loopback server (`RequestMockerServer`) a fault happens for real, on the wire. Through
/// ``MockURLProtocol`` it becomes the error the platform's own HTTP loader reports for the same
/// wire behaviour (measured on Linux with FoundationNetworking 6.3.1; see ``urlErrorCode``).
///
/// ```swift
/// registry.register(.get("/feed"), respond: .fault(.reset))
/// registry.register(.get("/hang"), respond: .fault(.stall))
/// registry.register(.get("/big"), respond: .data(payload).truncated(afterBytes: 1024))
/// ```
public struct ConnectionFault: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Kind: Hashable, Sendable {
        case closeBeforeResponding
        case reset
        case malformedStatusLine
        case stall
    }

    package let kind: Kind

    /// Reads the request, then closes the connection without a byte of response.
    public static let closeBeforeResponding = ConnectionFault(kind: .closeBeforeResponding)
    /// Reads the request, then resets the connection (a TCP `RST`). Any other error a response
    /// carries does the same on the server.
    public static let reset = ConnectionFault(kind: .reset)
    /// Answers with a status line that is not HTTP, then closes the connection.
    public static let malformedStatusLine = ConnectionFault(kind: .malformedStatusLine)
    /// Never answers and never closes: the client's timeout is the only way out. Through
    /// ``MockURLProtocol`` the request fails with `URLError(.timedOut)` after its
    /// `timeoutInterval`.
    public static let stall = ConnectionFault(kind: .stall)

    public var description: String {
        switch kind {
        case .closeBeforeResponding: "the connection closed before a response"
        case .reset: "the connection was reset"
        case .malformedStatusLine: "the response's status line was not HTTP"
        case .stall: "the server stalled"
        }
    }

    /// The `URLError` code the platform's HTTP loader reports when a real server does this
    /// (`stall` times out instead).
    ///
    /// Measured on Linux (FoundationNetworking 6.3.1, which reports what libcurl said):
    /// an empty reply is `.badServerResponse`, a reset `.networkConnectionLost`, a status line
    /// that is not HTTP `.unsupportedURL` ("Received HTTP/0.9 when not allowed"), and a body
    /// cut short `.unknown` ("transfer closed with n bytes remaining to read"). Apple's loader
    /// reports `.networkConnectionLost` for the three connection losses and `.badServerResponse`
    /// for the status line.
    public var urlErrorCode: URLError.Code {
        switch kind {
        case .closeBeforeResponding: Self.platformCodes.emptyReply
        case .reset: .networkConnectionLost
        case .malformedStatusLine: Self.platformCodes.malformedStatusLine
        case .stall: .timedOut
        }
    }

    /// The code for a body cut short by ``MockResponse/truncated(afterBytes:)``.
    public static var truncatedBodyErrorCode: URLError.Code { platformCodes.truncatedBody }

    /// The error `MockURLProtocol` delivers for this fault.
    func urlError(for url: URL) -> URLError {
        URLError(
            urlErrorCode,
            userInfo: [NSLocalizedDescriptionKey: "\(self) (RequestMocker fault)", NSURLErrorFailingURLErrorKey: url])
    }
}
