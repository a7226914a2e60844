/// A request to send to the network and record: the redacted request to write down, and where.
package struct RecordingTicket: Sendable {
    package let request: MockRequest
    package let target: any RecordingTarget
    /// The upstream's base URL, when the request goes to a server's upstream.
    package var upstream: URL?

    package init(request: MockRequest, target: any RecordingTarget, upstream: URL? = nil) {
        self.request = request
        self.target = target
        self.upstream = upstream
    }

    /// Sends `original` (not the redacted copy: the server needs the real credentials), and
    /// records what came back once it is complete; a recording that can't be written fails the
    /// request.
    func forwardAndRecord(_ original: MockRequest, timeout: TimeInterval, streams: Bool) async -> Outcome {
        let startedAt = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let (request, target, upstream) = (request, target, upstream)
        return await Forwarder.outcome(for: original, timeout: timeout, streams: streams) { result in
            _ = try target.store(
                result, request: request, upstream: upstream, startedAt: startedAt,
                duration: start.duration(to: clock.now))
        }
    }
}
