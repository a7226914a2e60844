/// A request to send to the network and record: the redacted request to write down, and where.
struct RecordingTicket: Sendable {
    let request: MockRequest
    let target: any RecordingTarget

    /// Sends `original` (not the redacted copy: the server needs the real credentials),
    /// records what came back, and returns it for the caller.
    func forwardAndRecord(_ original: MockRequest, timeout: TimeInterval) async -> Outcome {
        let startedAt = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let result = await Forwarder.forward(original, timeout: timeout)
        // A request the caller cancelled, or that our own timeout gave up on, says nothing
        // about the server: relay it, but don't record it.
        if Task.isCancelled || result.failureCode == .cancelled {
            return Outcome(forwarded: result, for: original)
        }
        do {
            _ = try target.store(
                result, request: request, startedAt: startedAt, duration: start.duration(to: clock.now))
        } catch {
            return Outcome(.refusal(Refusal(error)))
        }
        return Outcome(forwarded: result, for: original)
    }
}

extension Result where Failure == URLError {
    var failureCode: URLError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
