/// Writes one recorded response into a mock-data folder as a `.http` file.
struct FileRecording: RecordingTarget {
    let folder: MockDataFolder
    let file: URL

    var destination: URL { file }

    func store(
        _ result: Result<RecordedResponse, URLError>, request: MockRequest, upstream: URL?, startedAt: Date,
        duration: Duration
    ) throws(RequestMockerError) -> URL? {
        guard case .success(let response) = result,
            let redaction = folder.recording?.redaction,
            let kept = redaction.redact(response, for: request)
        else { return nil }
        do {
            try AtomicFile.write(HTTPResponseFile.contents(of: kept), to: file)
        } catch {
            throw RequestMockerError.recordingNotWritable(
                path: file.path, reason: (error as NSError).localizedDescription)
        }
        folder.forgetListing()
        return file
    }
}
