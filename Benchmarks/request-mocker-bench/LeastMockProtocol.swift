// The reference row: what the job itself costs, with nothing of the library around it.
import Foundation
import RequestMocker  // for FoundationNetworking on Linux, which it exports

/// The least a URL protocol can do and still be a mock: capture the request (method, URL,
/// header fields with `Host`, body), match it against one filter (method and path segments),
/// append it to a journal with the time it arrived, answer, and note when the answer ended.
///
/// Plain Foundation types and two locks, and none of what the library adds around that job:
/// no state for a task that is suspended or cancelled, no timeout, no redirects or cookies,
/// no typed header fields, no report for a request that matches nothing. Its ratio to the
/// floor is the share of the 1-filter budget the job itself takes, measured in the same run.
final class LeastMockProtocol: URLProtocol {
    /// One captured request and when it arrived and ended.
    final class Entry: @unchecked Sendable {
        // @unchecked: `ended` is only touched under `lock`; the rest is constant.
        let method: String
        let url: URL
        let headers: [String: String]
        let body: Data?
        let arrived = Date()
        private let lock = NSLock()
        private var ended: Date?

        init(method: String, url: URL, headers: [String: String], body: Data?) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
        }

        func end() {
            lock.withLock { ended = Date() }
        }
    }

    /// The one filter (`GET /bench/item`) and the journal, shared by every instance.
    final class Registry: @unchecked Sendable {
        // @unchecked: `journal` is only touched under `lock`; the rest is constant.
        static let shared = Registry()
        let method = "GET"
        let segments = ["bench", "item"]
        private let lock = NSLock()
        private var journal: [Entry] = []

        /// Appends `entry`, emptying the journal first once it holds 500 (the benchmark clears the
        /// real journal as often).
        func append(_ entry: Entry) {
            lock.withLock {
                if journal.count == 500 { journal.removeAll(keepingCapacity: true) }
                journal.append(entry)
            }
        }
    }

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        let request = request
        guard let url = request.url else { return }
        let method = request.httpMethod ?? "GET"
        var headers = request.allHTTPHeaderFields ?? [:]
        headers["Host"] = url.host
        let entry = Entry(method: method, url: url, headers: headers, body: request.httpBody)
        let registry = Registry.shared
        registry.append(entry)
        let segments = url.path(percentEncoded: true).split(separator: "/").map(String.init)
        guard method == registry.method, segments == registry.segments,
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "2"])
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: FloorProtocol.body)
        client?.urlProtocolDidFinishLoading(self)
        entry.end()
    }

    override func stopLoading() {}
}
