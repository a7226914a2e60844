/// Where a recorded interaction goes: a cassette, or a mock-data folder.
package protocol RecordingTarget: Sendable {
    /// Keeps one interaction (the request already redacted; the response not yet).
    ///
    /// - Returns: the file it was written to, if it was written at once.
    /// - Parameter upstream: the base URL of the upstream it was sent to, when it went to one.
    func store(
        _ result: Result<RecordedResponse, URLError>, request: MockRequest, upstream: URL?, startedAt: Date,
        duration: Duration
    ) throws(RequestMockerError) -> URL?
    /// Where recordings go, for the journal.
    var destination: URL { get }
}
