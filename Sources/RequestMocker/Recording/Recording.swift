/// Where a recorded interaction goes: a cassette, or a mock-data folder.
protocol RecordingTarget: Sendable {
    /// Keeps one interaction (the request already redacted; the response not yet).
    ///
    /// - Returns: the file it was written to, if it was written at once.
    func store(
        _ result: Result<RecordedResponse, URLError>, request: MockRequest, startedAt: Date, duration: Duration
    ) throws(RequestMockerError) -> URL?
    /// Where recordings go, for the journal.
    var destination: URL { get }
}

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
        let result = await PassThrough.forward(original, timeout: timeout)
        // A request the caller cancelled, or that our own timeout gave up on, says nothing
        // about the server: relay it, but don't record it.
        if Task.isCancelled || result.failureCode == .cancelled {
            return Outcome(forwarded: result, for: original)
        }
        do {
            _ = try target.store(result, request: request, startedAt: startedAt, duration: start.duration(to: clock.now))
        } catch {
            return Outcome(.refusal(Refusal(error)))
        }
        return Outcome(forwarded: result, for: original)
    }
}

extension Cassette: RecordingTarget {
    var destination: URL { url }

    func store(_ result: Result<RecordedResponse, URLError>, request: MockRequest, startedAt: Date, duration: Duration) -> URL? {
        var redacted = result
        if case .success(let response) = result {
            guard let kept = redaction.redact(response, for: request) else { return nil }
            redacted = .success(kept)
        }
        let interaction = Interaction(request: request, result: redacted, startedAt: startedAt, duration: duration)
        let recording = Recording(interaction: interaction, matchRequest: request, key: indexKey(request),
                                  entry: HAR.entry(from: interaction), isLoaded: false)
        // Recorded now, so it doesn't answer again in this run.
        tape.withLock { tape in
            tape.append(recording, played: true)
            tape.markPlayed(tape.recordings.count - 1, key: recording.key)
        }
        return nil
    }
}

extension Result where Failure == URLError {
    var failureCode: URLError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
