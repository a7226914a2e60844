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
/// The folder is listed once and listed again when its modification time changes (a file was
/// added, removed or renamed). A file is read when it first answers and again whenever its
/// identity, size or modification time changes, so edits show at once (a folder or file changed
/// within the last second is read afresh every time, since a second change in the same clock
/// tick keeps the modification time). Files up to 256 KiB are
/// kept in memory (32 MiB at most for the folder); a larger `.http` file's body, or a larger
/// `.json` file, is streamed from disk as it is sent, and such a `.json` file is not checked
/// for valid JSON. Only regular files directly in the folder answer, and symbolic links only
/// when they resolve inside it (checked each time the file is opened); request data never
/// becomes a path, so no request can read outside the folder. When the folder or a file can't
/// be read for a passing reason (no file descriptor left), the request fails with
/// ``RequestMockerError/mockDataUnavailable(path:reason:)`` (`503` through the server) and
/// nothing of the failure is remembered.
public final class MockDataFolder: Sendable, CustomStringConvertible {
    /// The folder, as given.
    public let folder: URL
    /// Whether wildcard names (`*` for the whole query and/or body) are looked for too.
    public let allowsWildcards: Bool
    /// Request headers whose values are part of the file names, so that, for example, a
    /// request with the wrong `Authorization` token maps to a different file.
    public let headersInName: [String]

    /// When this folder records, how; `nil` for a folder that only answers.
    package let recording: FolderRecording?
    let root: String
    /// The folder's listing and the files read from it (see MockDataFolder+Files.swift).
    let cache = LockedState(FolderCache())

    /// How a recording folder records: the mode in effect, whether the folder is new, what
    /// is hidden, and which hosts it records.
    package struct FolderRecording: Sendable {
        package let mode: RecordMode
        package let isNew: Bool
        let redaction: Redaction
        let hosts: HostFilter
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
    ///   - allowsWildcards: also look for the wildcard names (see MockDataNaming.md).
    ///   - headersInName: headers whose values are part of the file names.
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

    /// As the public initializer, with `environment` read for `REQUEST_MOCKER_RECORD_MODE`
    /// (the command passes none: its `--record` is explicit).
    package convenience init(
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
        // `realpath`, as the files' containment check uses: Foundation's resolution drops the
        // `/private` that Apple platforms' temporary folders resolve to, and every file would
        // then look outside.
        root = (try? FileSystem.resolvedPath(folder.path)) ?? folder.resolvingSymlinksInPath().standardizedFileURL.path
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
}

@available(*, deprecated, renamed: "MockDataFolder")
public typealias MockDataDirectory = MockDataFolder
