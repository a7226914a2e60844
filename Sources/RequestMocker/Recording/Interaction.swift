/// One request and what came back: a response, or the transport error the request failed with.
///
/// ```swift
/// for interaction in cassette.interactions {
///     print(interaction.request, interaction.duration)
/// }
/// ```
public struct Interaction: Sendable {
    /// The request as the cassette holds it: redacted when it was recorded here; as written
    /// in the file when loaded (redaction applies to a loaded entry when it is saved again).
    public var request: MockRequest
    /// The response, or the error the request failed with (a refused connection, a timeout).
    public var result: Result<RecordedResponse, URLError>
    /// When the request was sent.
    public var startedAt: Date
    /// How long it took, until the whole response had arrived.
    public var duration: Duration
    /// Where it was sent, when a server forwarded it to its upstream: the upstream's base URL
    /// (`http://api.internal:3000/v2`), while ``request`` stays as the client asked. A draft
    /// names this server, not the recorder's own address. HAR keeps it as the entry's `_upstream`.
    package var upstream: URL?

    package init(request: MockRequest, result: Result<RecordedResponse, URLError>, startedAt: Date, duration: Duration)
    {
        self.request = request
        self.result = result
        self.startedAt = startedAt
        self.duration = duration
    }

    /// The response, when the request didn't fail.
    public var response: RecordedResponse? {
        if case .success(let response) = result { response } else { nil }
    }
}
