/// A response with everything decided: what a transport writes.
///
/// A class, because it travels by value through every layer of the pipeline on every request:
/// one reference is cheaper to pass than six fields.
package final class ResolvedResponse: Sendable {
    package let status: HTTPStatus
    package let httpVersion: String
    package let headers: HTTPHeaders
    package let body: ResponseBody
    /// How the body goes onto the wire (the server honours it byte by byte; the URL protocol
    /// turns it into a delay and an error).
    package let transfer: BodyTransfer
    /// `headers` as `HTTPURLResponse` takes them, built once.
    let headerDictionary: [String: String]

    init(
        status: HTTPStatus, httpVersion: String, headers: HTTPHeaders, body: ResponseBody,
        transfer: BodyTransfer = .whole
    ) {
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        self.transfer = transfer
        headerDictionary = headers.dictionary
    }

    package convenience init(status: HTTPStatus, httpVersion: String, headers: HTTPHeaders, body: Data) {
        self.init(status: status, httpVersion: httpVersion, headers: headers, body: .bytes(body))
    }
}
