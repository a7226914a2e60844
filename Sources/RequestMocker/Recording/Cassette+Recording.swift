extension Cassette: RecordingTarget {
    package var destination: URL { url }

    package func store(
        _ result: Result<RecordedResponse, URLError>, request: MockRequest, upstream: URL?, startedAt: Date,
        duration: Duration
    ) -> URL? {
        var redacted = result
        if case .success(let response) = result {
            guard let kept = redaction.redact(response, for: request) else { return nil }
            redacted = .success(kept)
        }
        var interaction = Interaction(request: request, result: redacted, startedAt: startedAt, duration: duration)
        // Its credentials hidden, as everything the cassette keeps (a draft names it).
        interaction.upstream = upstream.map(Redaction.hidingSecrets)
        let recording = Recording(
            interaction: interaction, matchRequest: request, key: indexKey(request),
            entry: HAR.entry(from: interaction), isLoaded: false)
        // Recorded now, so it doesn't answer again in this run.
        tape.withLock { tape in
            tape.append(recording, played: true)
            tape.markPlayed(tape.recordings.count - 1, key: recording.key)
        }
        return nil
    }
}
