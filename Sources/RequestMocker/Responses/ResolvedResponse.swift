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
    /// `headers` as `HTTPURLResponse` takes them: built once, when the URL protocol first asks (a
    /// prepared response answers many requests through it), never for the server, which writes
    /// the fields as they are.
    var headerDictionary: [String: String] {
        if let built = builtDictionary.withLock({ $0 }) { return built }
        let built = headers.dictionary
        builtDictionary.withLock { $0 = built }
        return built
    }
    private let builtDictionary = LockedState<[String: String]?>(nil)
    /// Why the response can't go out as HTTP/1.1, if it can't: a status outside 100–999, a
    /// header name that isn't a token, or a value with a line break or NUL (which would let a
    /// mock write headers, or a second response, of its own). Not asked of a relayed answer.
    let wireProblem: String?

    /// - Parameter relayed: an answer the server relays from its upstream, which only goes onto
    ///   a socket: it isn't checked as a mock's is (its head was parsed strictly).
    package init(
        status: HTTPStatus, httpVersion: String, headers: HTTPHeaders, body: ResponseBody,
        transfer: BodyTransfer = .whole, relayed: Bool = false
    ) {
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        self.transfer = transfer
        wireProblem = relayed ? nil : Self.wireProblem(status: status, headers: headers)
    }

    private static func wireProblem(status: HTTPStatus, headers: HTTPHeaders) -> String? {
        guard (100...999).contains(status.code) else {
            return "status \(status.code) is not three digits from 100 to 999"
        }
        for field in headers {
            guard HTTPHeaders.Name.isValid(field.name.rawValue) else {
                return "header name \(field.name.rawValue.debugDescription) is not a token (RFC 9110 §5.1)"
            }
            guard HTTPHeaders.isValidValue(field.value) else {
                return "the value of header \(field.name) holds a carriage return, line feed or NUL"
            }
        }
        return nil
    }

    package convenience init(status: HTTPStatus, httpVersion: String, headers: HTTPHeaders, body: Data) {
        self.init(status: status, httpVersion: httpVersion, headers: headers, body: .bytes(body))
    }
}
