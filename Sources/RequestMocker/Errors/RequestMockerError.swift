/// Every failure RequestMocker delivers to a task or throws: what went wrong, where, and what
/// to do about it.
///
/// Errors reach `URLSession` callers unchanged, so a test can catch them by type:
///
/// ```swift
/// do {
///     _ = try await session.data(from: URL(string: "https://api.test/missing")!)
/// } catch let error as RequestMockerError {
///     print(error) // no filter matched GET https://api.test/missing ... nearest filters: ...
/// }
/// ```
public enum RequestMockerError: Error, Sendable, CustomStringConvertible {
    /// No filter matched and the registry's policy is ``UnmatchedRequestPolicy/fail``.
    case unmatched(UnmatchedRequestReport)
    /// The first filter that the request reached has an invalid path pattern.
    case invalidPathPattern(PathPatternError, filter: String)
    /// A block response threw an error that is not a `URLError`.
    case blockFailed(filter: String, request: String, underlying: any Error)
    /// A response that can't be sent as HTTP: its status is outside 100–999, or a header name
    /// is not a token, or a header value holds a line break or NUL.
    case invalidResponse(filter: String, request: String, reason: String)
    /// A `.file` response's file could not be read.
    case fileNotReadable(path: String, reason: String)
    /// A `.json` response holds a value JSON can't express.
    case invalidJSON(String)
    /// A redirect's `Location` header is missing or not a URL.
    case invalidRedirect(location: String?, request: String)
    /// Redirects came back to a request already made.
    case redirectLoop([String])
    /// More redirects than the limit in a row.
    case tooManyRedirects(limit: Int, chain: [String])
    /// A download task through `MockURLProtocol` on Linux, where FoundationNetworking crashes
    /// the process when a custom protocol finishes one.
    case downloadTaskUnsupported(request: String)
    /// A request reached the protocol class of a registry that no longer exists.
    case registryReleased(request: String)
    /// A ``MockDataFolder`` was given something that is not a folder.
    case mockDataFolderNotFound(path: String)
    /// A mock-data file that would answer is not a valid `.http` or `.json` file.
    case invalidMockDataFile(path: String, reason: String)
    /// A mock-data folder or file could not be read just now (for example, the process ran out
    /// of file descriptors). Nothing is remembered of the failure: the next request tries again.
    case mockDataUnavailable(path: String, reason: String)
    /// ``MockRegistry/waitForRequests(count:matching:timeout:)`` ran out of time.
    case waitTimedOut(expected: Int, received: Int, filter: String?)
    /// ``MockRegistry/waitForCompletedRequests(count:matching:timeout:)`` gave up: how many
    /// answers it waited for, how many ended, and how many of those requests had arrived.
    case completionWaitTimedOut(expected: Int, ended: Int, arrived: Int, filter: String?)
    /// A cassette file is not valid HAR: the file, the JSON path that failed, and why.
    case invalidCassette(path: String, jsonPath: String, reason: String)
    /// A cassette file exists but could not be read.
    case cassetteNotReadable(path: String, reason: String)
    /// A cassette opened in a mode that only plays back (`none`) doesn't exist: every request
    /// would fail. `mode` says where the mode came from.
    case cassetteNotFound(path: String, mode: String)
    /// A cassette or a recorded mock-data file could not be written.
    case recordingNotWritable(path: String, reason: String)
    /// `REQUEST_MOCKER_RECORD_MODE` holds something that is not a record mode.
    case invalidRecordMode(value: String, variable: String)
    /// Nothing answered a request the loopback server received, and passing it through would
    /// send it back to the same server.
    case passThroughLoop(request: String)
    /// A filter passed a request through on a server that sends nothing to the network without
    /// an upstream (`request-mocker serve` without `--upstream`).
    case passThroughNeedsUpstream(request: String)
    /// ``MockResponse/forward(to:)`` would send the request back to the server it came to.
    case forwardLoop(request: String, target: String)
    /// ``MockResponse/forward(to:)`` was given a base that isn't an absolute http(s) URL.
    case invalidForward(base: String, request: String)
    /// A stubs file isn't valid: the file, where (line and column when known, and the JSON
    /// path), and why.
    case invalidStubs(path: String, line: Int?, column: Int?, jsonPath: String, reason: String)
    /// Resources given to a contract that remembers (a `--data` or `--state` file, a seed, `PUT
    /// /__admin/resources`) don't fit it: where (the file and, for a file, its line and column), the
    /// JSON pointer of the value, and why. Nothing was changed.
    case invalidResources(source: String, line: Int?, column: Int?, pointer: String, reason: String)
    /// A response's body broke off before its end: the real server of a forwarded response
    /// failed, the client read far slower than it sent, or a computed stream's source threw.
    case bodyBrokeOff(reason: String)
    /// A WebSocket script's rule has a pattern that isn't a regular expression.
    case invalidRegularExpression(pattern: String, reason: String)
    /// A request with a WebSocket handshake reached a WebSocket endpoint through
    /// `MockURLProtocol`, which can't switch protocols: WebSocket endpoints are served by
    /// `MockServer`.
    case webSocketNeedsServer(request: String)
    /// ``MockResponse/file(_:contentType:status:headers:)`` was given a URL that isn't a file
    /// URL (shown with its secrets hidden). Reading it would be a network load on the URL
    /// protocol's own queue, so every request the response answers fails with this instead.
    case notAFileURL(url: String)

    public var description: String {
        switch self {
        case .unmatched(let report):
            return report.description
        case .invalidPathPattern(let error, let filter):
            return "\(error) (in filter \(filter)); fix the pattern, or check it with PathPattern(validating:)"
        case .blockFailed(let filter, let request, let underlying):
            return "the block of filter \(filter) threw while answering \(request): \(underlying)"
        case .invalidResponse(let filter, let request, let reason):
            return "the response of \(filter) to \(request) can't be sent as HTTP: \(reason); fix the response"
        case .fileNotReadable(let path, let reason):
            return
                "cannot read response file \(path): \(reason); "
                + "check the path (Bundle.module.url(forResource:) for package resources)"
        case .invalidJSON(let reason):
            return "JSON response cannot be serialized: \(reason)"
        case .invalidRedirect(let location, let request):
            let shown = location.map { "Location \"\($0)\" is not a URL" } ?? "it has no Location header"
            return
                "redirect answering \(request) cannot be followed: \(shown); "
                + "give .redirect(to:) an absolute or relative URL"
        case .redirectLoop(let chain):
            return
                "redirect loop: \(chain.joined(separator: " -> ")); "
                + "one of these filters must answer without redirecting"
        case .tooManyRedirects(let limit, let chain):
            return "more than \(limit) redirects in a row: \(chain.joined(separator: " -> "))"
        case .downloadTaskUnsupported(let request):
            return
                "download task for \(request) cannot be mocked on Linux: "
                + "FoundationNetworking crashes when a URLProtocol "
                + "finishes a download task; use data(for:) and write the data to a file yourself"
        case .forwardLoop(let request, let target):
            return "forwarding \(request) to \(target) would send it back to this server; "
                + "point forward(to:) at the real server"
        case .invalidStubs(let path, let line, let column, let jsonPath, let reason):
            let position = line.map { ":\($0)" + (column.map { ":\($0)" } ?? "") } ?? ""
            return
                "stubs file \(path)\(position): at \(jsonPath): \(reason); "
                + "fix the file (its schema is stubs.schema.json)"
        case .invalidResources(let source, let line, let column, let pointer, let reason):
            let position = line.map { ":\($0)" + (column.map { ":\($0)" } ?? "") } ?? ""
            return "resources \(source)\(position): at \(pointer): \(reason)"
        case .bodyBrokeOff(let reason):
            return "the response's body broke off before its end: \(reason)"
        case .invalidRegularExpression(let pattern, let reason):
            return "the rule pattern \(pattern.debugDescription) is not a valid regular expression: \(reason)"
        case .webSocketNeedsServer(let request):
            return "\(request) is a WebSocket handshake, which MockURLProtocol can't carry out: serve the endpoint "
                + "with MockServer and connect a WebSocket client (URLSessionWebSocketTask) to it"
        case .notAFileURL(let url):
            return "MockResponse.file(_:) takes a file URL, and \(url) is not one; use "
                + "Bundle.module.url(forResource:withExtension:) or URL(fileURLWithPath:), "
                + "or .forward(to:) to answer from another server"
        case .invalidForward(let base, let request):
            return "cannot forward \(request) to \(base): forward(to:) needs an absolute http or https URL"
        case .passThroughLoop(let request):
            return "passing \(request) through would send it back to this server; give the server an upstream "
                + "(request-mocker serve --upstream URL, or MockServer.Configuration.upstream), or "
                + "send a Host header naming the real server, or the absolute URL as to a proxy"
        case .passThroughNeedsUpstream(let request):
            return "passing \(request) through needs an upstream: this server sends nothing to the network "
                + "without one; start it with --upstream URL (MockServer.Configuration.upstream)"
        case .registryReleased(let request):
            return "\(request) was sent through the protocol class of a MockRegistry that has been released; "
                + "keep the registry alive as long as its sessions (store it in the test case)"
        case .mockDataFolderNotFound(let path):
            return "mock-data folder \(path) does not exist or is not a folder; for package resources, "
                + "add resources: [.copy(\"MockData\")] to the target "
                + "and use MockDataFolder(Bundle.module, subdirectory: \"MockData\")"
        case .invalidMockDataFile(let path, let reason):
            return "mock-data file \(path) is not valid: \(reason)"
        case .mockDataUnavailable(let path, let reason):
            return "mock data at \(path) could not be read just now: \(reason); the request may be retried"
        case .completionWaitTimedOut(let expected, let ended, let arrived, let filter):
            let which = filter.map { " matching \($0)" } ?? ""
            return
                "timed out waiting for the answers to \(expected) request\(expected == 1 ? "" : "s")\(which) to end; "
                + "\(ended) ended, of \(arrived) that arrived"
        case .waitTimedOut(let expected, let received, let filter):
            let which = filter.map { " matching \($0)" } ?? ""
            return "timed out waiting for \(expected) request\(expected == 1 ? "" : "s")\(which); \(received) arrived"
        case .invalidCassette(let path, let jsonPath, let reason):
            return "cassette \(path) is not a valid HAR file: at \(jsonPath): \(reason); fix the file, "
                + "or delete it to record it again"
        case .cassetteNotFound(let path, let mode):
            return "cassette \(path) does not exist, and \(mode) only plays back; check the path, or record it "
                + "once: REQUEST_MOCKER_RECORD_MODE=once swift test (or record: .once)"
        case .cassetteNotReadable(let path, let reason):
            return "cannot read cassette \(path): \(reason)"
        case .recordingNotWritable(let path, let reason):
            return "cannot write recording \(path): \(reason); check that its folder is writable"
        case .invalidRecordMode(let value, let variable):
            let names = RecordMode.builtIn.map(\.name).joined(separator: ", ")
            return "\(variable)=\(value) is not a record mode; use one of \(names), or unset it"
        }
    }
}

extension RequestMockerError: LocalizedError {
    public var errorDescription: String? { description }
}
