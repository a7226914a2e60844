/// Writes one recorded response into a mock-data folder as a `.http` file.
struct FileRecording: RecordingTarget {
    let folder: MockDataDirectory
    let file: URL

    var destination: URL { file }

    func store(
        _ result: Result<RecordedResponse, URLError>, request: MockRequest, startedAt: Date, duration: Duration
    ) throws(RequestMockerError) -> URL? {
        guard case .success(let response) = result,
              let redaction = folder.recording?.redaction,
              let kept = redaction.redact(response, for: request)
        else { return nil }
        do {
            try Self.fileContents(kept).write(to: file, options: .atomic)
        } catch {
            throw RequestMockerError.recordingNotWritable(path: file.path, reason: (error as NSError).localizedDescription)
        }
        folder.forgetListing()
        return file
    }

    /// The status line, the header fields and the body. The body is stored decoded and whole,
    /// so the framing fields that described the wire (`Content-Encoding`, `Transfer-Encoding`,
    /// `Content-Length`) are left out; the loader works out the length.
    static func fileContents(_ response: RecordedResponse) -> Data {
        var text = "\(response.httpVersion) \(response.status.code) \(response.status.reasonPhrase)"
            .trimmingCharacters(in: .whitespaces) + "\n"
        for field in response.headers.removing(HTTPHeaders.Name.framingAndCoding) {
            text += "\(field.name): \(field.value)\n"
        }
        text += "\n"
        return Data(text.utf8) + response.body
    }
}
