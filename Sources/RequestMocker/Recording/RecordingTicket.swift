/// A request to send to the network and record: the redacted request to write down, and where.
struct RecordingTicket: Sendable {
    let request: MockRequest
    let target: any RecordingTarget
    /// The upstream's base URL, when the request goes to a server's upstream.
    var upstream: URL?

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
