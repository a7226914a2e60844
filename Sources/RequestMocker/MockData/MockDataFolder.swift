/// A folder of response files that a ``MockRegistry`` answers from, found by name.
///
/// Each request looks for the file names of the naming convention (MockDataNaming.md beside
/// the package), in order, trying `name.http` then `name.json` for each name. A `.http` file is
/// a whole response (status line, headers, blank line, body); a `.json` file is a body served as
/// `200` with `Content-Type: application/json`.
///
/// ```swift
/// let registry = MockRegistry()
/// registry.register(.post("/login"), respond: .json(["token": "t"]))     // filters and folders mix,
/// try registry.register(MockDataFolder(Bundle.module, subdirectory: "MockData"))  // in order
/// ```
///
/// When no file matches, the registry moves on to its next filter or folder; the unmatched
/// report lists every file name that was looked for, in order — the quickest way to learn the
/// right name for a new file. Use ``UnmatchedRequestPolicy/respond(_:)`` with `.status(404)` to
/// answer misses with an empty `404` instead.
///
/// The folder is listed once and listed again when its modification date changes (a file was
/// added, removed or renamed); a file's contents are read when it answers, so edits show at
/// once. Only regular files directly in the folder answer (symbolic links only if they point
/// inside it); request data never becomes a path, so no request can read outside the folder.
public final class MockDataFolder: Sendable, CustomStringConvertible {
    /// The folder, as given.
    public let folder: URL
    /// Whether wildcard names (`*` for the whole query and/or body) are looked for too.
    public let allowsWildcards: Bool
    /// Request headers whose values are part of the file names, so that, for example, a
    /// request with the wrong `Authorization` token maps to a different file.
    public let headersInName: [String]

    /// When this folder records, how; `nil` for a folder that only answers.
    let recording: FolderRecording?
    let root: String
    private let listing = LockedState(Listing())

    /// How a recording folder records: the mode in effect, whether the folder is new, what
    /// is hidden, and which hosts it records.
    struct FolderRecording: Sendable {
        let mode: RecordMode
        let isNew: Bool
        let redaction: Redaction
        let hosts: HostFilter
    }

    private struct Listing: Sendable {
        var modified: Date?
        var names: Set<String> = []
    }

    /// Answers from the files in `folder`.
    ///
    /// - Parameters:
    ///   - folder: the folder's file URL.
    ///   - allowsWildcards: look for `*` names after the exact ones.
    ///   - headersInName: request headers whose values become part of the names, in order
    ///     (`["Authorization"]` gives `GET|-me|Authorization=Token%20abc.json`).
    /// - Throws: ``RequestMockerError/mockDataFolderNotFound(path:)`` when `folder` is not a folder.
    public convenience init(_ folder: URL, allowsWildcards: Bool = false, headersInName: [String] = []) throws {
        try self.init(folder, allowsWildcards: allowsWildcards, headersInName: headersInName, recording: nil)
    }

    /// A folder that also records: requests without a file are sent to the network, and each
    /// response is written as a `.http` file under the first name the request looks for, so
    /// the next run finds it: a folder can be filled from the real server instead of by hand.
    ///
    /// ```swift
    /// let folder = try MockDataFolder(URL(fileURLWithPath: "Tests/MockData"), record: .newEpisodes)
    /// registry.register(folder)
    /// ```
    ///
    /// Files are written at once, each atomically; existing files are never changed except in
    /// mode `all`, which records every request and overwrites. A transport error is not
    /// written (a `.http` file can't hold one); the request fails with it. Names come from
    /// the request after ``Redaction`` of its query, path and body; a header in
    /// ``headersInName`` that redaction hides is named by its hash, never its value (the
    /// second name a request looks for); the file's headers and body go
    /// through the response rules. Unlike cassettes, the folder's host filter only limits
    /// recording: files answer requests to any host.
    ///
    /// - Parameters:
    ///   - folder: the folder's file URL; created if missing and the mode records.
    ///   - record: when to record; `REQUEST_MOCKER_RECORD_MODE` overrides it. `once` records
    ///     only when the folder did not exist.
    ///   - redaction: what is hidden in written files; ``Redaction/default``.
    ///   - hosts: the hosts whose requests are recorded; ``HostFilter/all``.
    /// - Throws: ``RequestMockerError/mockDataFolderNotFound(path:)`` when the folder is missing
    ///   and the mode doesn't record, ``RequestMockerError/recordingNotWritable(path:reason:)``
    ///   when it can't be created, ``RequestMockerError/invalidRecordMode(value:variable:)``.
    public convenience init(
        _ folder: URL,
        allowsWildcards: Bool = false,
        headersInName: [String] = [],
        record: RecordMode,
        redaction: Redaction = .default,
        hosts: HostFilter = .all
    ) throws {
        try self.init(
            folder, allowsWildcards: allowsWildcards, headersInName: headersInName, record: record,
            redaction: redaction, hosts: hosts, environment: ProcessInfo.processInfo.environment)
    }

    convenience init(
        _ folder: URL, allowsWildcards: Bool, headersInName: [String], record: RecordMode,
        redaction: Redaction, hosts: HostFilter, environment: [String: String]
    ) throws {
        let mode = try RecordMode.effective(record, environment: environment)
        let isNew = !FileManager.default.fileExists(atPath: folder.path)
        if isNew, mode.records(isNew: true) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RequestMockerError.recordingNotWritable(
                    path: folder.path, reason: (error as NSError).localizedDescription)
            }
        }
        let recording = FolderRecording(mode: mode, isNew: isNew, redaction: redaction, hosts: hosts)
        try self.init(folder, allowsWildcards: allowsWildcards, headersInName: headersInName, recording: recording)
    }

    private init(_ folder: URL, allowsWildcards: Bool, headersInName: [String], recording: FolderRecording?) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue
        else {
            throw RequestMockerError.mockDataFolderNotFound(path: folder.path)
        }
        self.folder = folder
        self.allowsWildcards = allowsWildcards
        self.headersInName = headersInName
        self.recording = recording
        root = folder.resolvingSymlinksInPath().standardizedFileURL.path
    }

    /// Answers from a resource folder of a bundle, such as `Bundle.module` of a test target
    /// that copies `MockData` with `resources: [.copy("MockData")]`.
    ///
    /// - Throws: ``RequestMockerError/mockDataFolderNotFound(path:)`` when the bundle has no
    ///   such folder.
    public convenience init(
        _ bundle: Bundle, subdirectory: String, allowsWildcards: Bool = false, headersInName: [String] = []
    ) throws {
        guard let folder = bundle.url(forResource: subdirectory, withExtension: nil) else {
            throw RequestMockerError.mockDataFolderNotFound(
                path: bundle.bundleURL.appendingPathComponent(subdirectory).path)
        }
        try self.init(folder, allowsWildcards: allowsWildcards, headersInName: headersInName)
    }

    public var description: String { "mock-data folder \(folder.path)" }

    /// The file names `request` looks for, in lookup order.
    ///
    /// ```swift
    /// folder.candidateFileNames(for: MockRequest(method: .get, url: URL(string: "https://x.test/users?page=2")!))
    /// // ["GET|-users?page=2.http", "GET|-users?page=2.json", "GET|-users?3a3a…http", "GET|-users?3a3a….json"]
    /// ```
    public func candidateFileNames(for request: MockRequest) -> [String] {
        let naming = MockDataNaming(allowsWildcards: allowsWildcards, headersInName: headersInName)
        var names = naming.candidates(for: request).flatMap { [$0 + ".http", $0 + ".json"] }
        if request.method == .head {
            // A HEAD asks about what a GET would get, as on a real server: the GET's files
            // answer it when it has none of its own (its body is not sent).
            let get = MockRequest(method: .get, url: request.url, headers: request.headers, body: request.body)
            names += naming.candidates(for: get).flatMap { [$0 + ".http", $0 + ".json"] }
        }
        return names
    }

    /// Called when a recorded file was written, so the next lookup lists the folder again.
    func forgetListing() {
        listing.withLock { $0 = Listing() }
    }

    /// The folder's file names, listed again only when the folder changed.
    func currentNames() -> Set<String> {
        let modified = (try? FileManager.default.attributesOfItem(atPath: root))?[.modificationDate] as? Date
        if let cached = listing.withLock({ $0.modified != nil && $0.modified == modified ? $0.names : nil }) {
            return cached
        }
        let names = Self.servableFiles(in: root)
        listing.withLock { $0 = Listing(modified: modified, names: names) }
        return names
    }

    /// Regular files directly in `root`, and links that resolve to regular files inside it.
    private static func servableFiles(in root: String) -> Set<String> {
        let manager = FileManager.default
        var names: Set<String> = []
        for name in (try? manager.contentsOfDirectory(atPath: root)) ?? []
        where name.hasSuffix(".http") || name.hasSuffix(".json") {
            let path = root + "/" + name
            let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
            var isDirectory: ObjCBool = false
            guard resolved.hasPrefix(root + "/"), manager.fileExists(atPath: resolved, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            names.insert(name)
        }
        return names
    }

    /// Reads and checks a file: a `.http` file parses into a response; a `.json` file must be JSON.
    static func response(from file: URL) throws(RequestMockerError) -> MockResponse {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw RequestMockerError.fileNotReadable(path: file.path, reason: (error as NSError).localizedDescription)
        }
        if file.pathExtension == "json" {
            do {
                _ = try JSONValue(parsing: data)
            } catch {
                throw RequestMockerError.invalidMockDataFile(path: file.path, reason: error.description)
            }
            return .data(data, headers: [.contentType: MockResponse.jsonContentType])
        }
        do {
            let parsed = try HTTPResponseFile(parsing: data)
            // The body is served as it is in the file, not chunked: these would describe it wrongly.
            let headers = parsed.headers.removing(HTTPHeaders.Name.framing)
            return MockResponse.data(parsed.body, status: parsed.status, headers: headers).withHTTPVersion(
                parsed.httpVersion)
        } catch {
            throw RequestMockerError.invalidMockDataFile(path: file.path, reason: error.description)
        }
    }
}

/// The earlier name of ``MockDataFolder``.
@available(*, deprecated, renamed: "MockDataFolder")
public typealias MockDataDirectory = MockDataFolder
