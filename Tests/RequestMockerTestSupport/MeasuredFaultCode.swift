import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a `URLSession` task reports when a real server breaks the connection in each way, where
/// that was measured: on Linux, FoundationNetworking 6.3.1 with libcurl underneath
/// (`MockServerFaultTests` pins them). `nil` where it wasn't measured.
///
/// On Apple platforms every one is `nil`. Apple's loader is expected to report
/// `.networkConnectionLost` for a connection closed before the response, a reset, and a body cut
/// short, and `.badServerResponse` for a status line that isn't HTTP (what `ConnectionFault`
/// delivers there). That is unmeasured: no Mac has run these tests. So there a test checks only
/// that such a request fails.
package enum MeasuredFaultCode {
    #if os(Linux)
        package static let closeBeforeResponding: URLError.Code? = .badServerResponse
        package static let reset: URLError.Code? = .networkConnectionLost
        /// libcurl: "Unsupported HTTP/1 subversion in response".
        package static let malformedStatusLine: URLError.Code? = .unsupportedURL
        /// libcurl: "transfer closed with N bytes remaining to read".
        package static let truncatedBody: URLError.Code? = .unknown
    #else
        package static let closeBeforeResponding: URLError.Code? = nil
        package static let reset: URLError.Code? = nil
        package static let malformedStatusLine: URLError.Code? = nil
        package static let truncatedBody: URLError.Code? = nil
    #endif
}

/// Whether `code`, what a request to a real server failed with, is the code measured on this
/// platform; where none was measured, whether the request failed at all.
package func isMeasuredFailure(_ code: URLError.Code?, _ measured: URLError.Code?) -> Bool {
    guard let measured else { return code != nil }
    return code == measured
}
