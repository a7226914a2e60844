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

    init(status: HTTPStatus, httpVersion: String, headers: HTTPHeaders, body: ResponseBody, transfer: BodyTransfer = .whole) {
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

/// A response body: bytes in memory, or a file read as it is sent, so the server can stream a
/// large file in constant memory.
package enum ResponseBody: Sendable {
    case bytes(Data)
    /// A file of `length` bytes (its size when the response was resolved).
    case file(URL, length: Int)

    package var count: Int {
        switch self {
        case .bytes(let data): data.count
        case .file(_, let length): length
        }
    }

    /// The whole body in memory.
    ///
    /// - Throws: ``RequestMockerError/fileNotReadable(path:reason:)`` when the file can't be read.
    package func data() throws(RequestMockerError) -> Data {
        switch self {
        case .bytes(let data):
            return data
        case .file(let url, _):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .fileNotReadable(path: url.path, reason: (error as NSError).localizedDescription)
            }
        }
    }
}

/// Whether a body is sent at full speed and in full (see ``MockResponse/throttled(bytesPerSecond:)``
/// and ``MockResponse/truncated(afterBytes:)``).
package struct BodyTransfer: Hashable, Sendable {
    /// The most body bytes sent per second; `nil` for no limit.
    package var bytesPerSecond: Int?
    /// How many body bytes are sent before the connection closes; `nil` for all of them.
    package var truncatedAfter: Int?

    static let whole = BodyTransfer()

    /// How long `count` bytes take at the limit.
    package func duration(of count: Int) -> Duration {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return .zero }
        let sent = min(count, truncatedAfter ?? count)
        return .milliseconds(Int64(sent) * 1000 / Int64(bytesPerSecond))
    }
}

