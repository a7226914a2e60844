/// How a transport sends on the requests its registry passes through or records.
package struct Forwarding: Sendable {
    /// How long the real server may take.
    package var timeout: TimeInterval
    /// A header field added to forwarded requests: the loopback server marks its own, to
    /// recognise them if they come back under a name it doesn't know.
    package var mark: HTTPHeaders.Field?
    /// Whether a request to this URL would come back to the transport itself.
    package var loopsBack: @Sendable (URL) -> Bool
    /// Whether synchronous blocks run on a thread of their own, so that the transport can give
    /// up on one that never returns (the server: its connection thread must stay free to see the
    /// client leave). The URL protocol runs them in place, to answer within `startLoading`.
    package var runsBlocksOnTheirOwnThread = false

    package init(
        timeout: TimeInterval, mark: HTTPHeaders.Field? = nil,
        loopsBack: @escaping @Sendable (URL) -> Bool = { _ in false }
    ) {
        self.timeout = timeout
        self.mark = mark
        self.loopsBack = loopsBack
    }

    /// `request` as it is sent on: with the mark, when there is one.
    func marked(_ request: MockRequest) -> MockRequest {
        guard let mark else { return request }
        var headers = request.headers
        headers.add(mark.name, mark.value)
        return MockRequest(method: request.method, url: request.url, headers: headers, body: request.body)
    }
}
