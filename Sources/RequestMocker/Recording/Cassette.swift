/// Recorded HTTP traffic in a HAR 1.2 file, played back to a ``MockRegistry``'s requests and
/// recorded into when the ``RecordMode`` allows.
///
/// Record once against the real server, then replay on every run after, offline:
///
/// ```swift
/// @Test func loadsProfile() async throws {
///     let registry = MockRegistry()
///     let cassette = try Cassette(contentsOf: fixtures.appendingPathComponent("profile.har"))
///     try await registry.withCassette(cassette) { session in
///         let (data, _) = try await session.data(from: URL(string: "https://api.example.com/me")!)
///         #expect(!data.isEmpty)
///     }   // the first run writes profile.har; later runs only read it
/// }
/// ```
///
/// - **Playback.** A request is compared with the recorded requests by ``matchers`` (by
///   default method, scheme, host, port, path and query). Each recording answers once, and
///   identical requests get identical recordings in recorded order — the third identical
///   request gets the third recording — unless ``repeatsLastResponse`` is set. Recorded
///   transport errors fail the request with the recorded `URLError`. Redirects are recorded
///   and played back hop by hop.
/// - **Recording.** A request with no recording, in a mode that records, is sent to the
///   network through a plain inner `URLSession` and the answer is relayed to the caller while
///   it is recorded. Everything written goes through ``redaction`` first (on by default for
///   credentials and cookies).
/// - **Saving.** New recordings stay in memory until ``save()`` (or the end of
///   ``MockRegistry/withCassette(_:body:)``), which replaces the file atomically with
///   pretty-printed, key-sorted JSON. A run that crashes before then leaves the file as it
///   was; a run that records nothing never writes it.
/// - **Unmatched.** In a mode that doesn't record, a request with no recording fails with a
///   report naming the nearest recording and the matcher that differed — even when the
///   registry would otherwise pass unmatched requests through.
///
/// HAR files exported from Chrome or Firefox play back too: their extra fields are kept when
/// the cassette is saved again. So do YAHTTPVCR's cassettes, JSON or property list (see
/// ``isYAHTTPVCR``), which are read but never written.
public final class Cassette: Sendable, CustomStringConvertible {
    /// The HAR file.
    public let url: URL
    /// The mode in effect: the one given, unless `REQUEST_MOCKER_RECORD_MODE` overrides it.
    public let recordMode: RecordMode
    /// How fast recorded answers come back.
    public let playback: PlaybackMode
    /// What a recording must share with a request to answer it, all of them.
    public let matchers: [CassetteMatcher]
    /// What is hidden before anything is written, and applied to requests before matching.
    public let redaction: Redaction
    /// The hosts this cassette plays back and records; others go to the registry's next source.
    public let hosts: HostFilter
    /// Whether the last matching recording keeps answering once every matching recording has.
    public let repeatsLastResponse: Bool
    /// Whether the file did not exist when the cassette was opened.
    public let isNew: Bool
    /// Whether a new cassette that recorded only transport errors is saved all the same.
    public let recordsErrors: Bool
    /// Whether the file is a YAHTTPVCR cassette (JSON or property list), which plays back but
    /// isn't written: convert it to HAR with `request-mocker convert` to record into it.
    public let isYAHTTPVCR: Bool

    /// The matchers that compare one derived value, which index the recordings.
    let keyMatchers: [CassetteMatcher]
    /// The rest, tried on the indexed candidates.
    let otherMatchers: [CassetteMatcher]
    let tape: LockedState<Tape>
    private let saving = LockedState(0)

    /// One recorded interaction, with what matching and playback need, worked out once.
    final class Recording: Sendable {
        let interaction: Interaction
        /// The recorded request after this cassette's redaction; `nil` when the request hook
        /// excludes it, so it never answers.
        let matchRequest: MockRequest?
        let key: String
        /// The HAR entry, as loaded (browser fields included) or as recorded.
        let entry: JSONValue
        /// Whether `entry` came from the file, so saving redacts it (it may be a browser
        /// export with real credentials).
        let isLoaded: Bool
        /// The recorded response, as it plays back.
        let answer: Result<MockResponse, URLError>

        init(interaction: Interaction, matchRequest: MockRequest?, key: String, entry: JSONValue, isLoaded: Bool) {
            self.interaction = interaction
            self.matchRequest = matchRequest
            self.key = key
            self.entry = entry
            self.isLoaded = isLoaded
            answer = interaction.result.map(MockResponse.init(playing:))
        }

        /// What the recording answers `request` with: its response, or its transport error,
        /// naming the request's URL as the failing one and saying where it was replayed from.
        func response(for request: MockRequest, from file: URL, entry index: Int) -> MockResponse {
            switch answer {
            case .success(let response):
                return response
            case .failure(let error):
                var info = error.userInfo
                info[NSURLErrorFailingURLErrorKey] = request.url
                let recorded = (info[NSLocalizedDescriptionKey] as? String) ?? error.localizedDescription
                info[NSLocalizedDescriptionKey] = "\(recorded) (replayed from \(file.path), entry \(index))"
                return .error(URLError(error.code, userInfo: info))
            }
        }
    }

    struct Tape: Sendable {
        var log: [String: JSONValue] = [:]
        var recordings: [Recording] = []
        /// Recording positions by matcher key, in recorded order.
        var buckets: [String: [Int]] = [:]
        /// Per bucket, where its first unplayed recording may be: everything before is played,
        /// so a cassette of many identical requests isn't scanned from the start every time.
        var cursors: [String: Int] = [:]
        var played: [Bool] = []
        /// How many recordings the file holds.
        var savedCount = 0
        /// Whether the file's old content was dropped (mode `all`) and not yet replaced.
        var replacesFile = false

        var isDirty: Bool { replacesFile || recordings.count != savedCount }

        mutating func append(_ recording: Recording, played isPlayed: Bool) {
            buckets[recording.key, default: []].append(recordings.count)
            recordings.append(recording)
            played.append(isPlayed)
        }

        /// Marks a recording played and moves its bucket's cursor past played recordings.
        mutating func markPlayed(_ index: Int, key: String) {
            played[index] = true
            guard let bucket = buckets[key] else { return }
            var cursor = cursors[key] ?? 0
            while cursor < bucket.count, played[bucket[cursor]] { cursor += 1 }
            cursors[key] = cursor
        }
    }

    /// Opens the cassette at `url`, reading it unless the mode replaces it.
    ///
    /// - Parameters:
    ///   - url: the `.har` file; it need not exist yet.
    ///   - record: when to record (see below); `REQUEST_MOCKER_RECORD_MODE` overrides it.
    ///   - playback: ``PlaybackMode/momentary`` (the default) or ``PlaybackMode/chronological``.
    ///   - matchers: what a recording must share with a request; ``CassetteMatcher/default``.
    ///   - redaction: what is hidden before writing; ``Redaction/default``.
    ///   - hosts: the hosts this cassette handles; ``HostFilter/all``.
    ///   - repeatsLastResponse: keep answering with the last matching recording once all
    ///     matching ones have answered.
    ///   - recordsErrors: save a new cassette even when all it recorded are transport errors
    ///     (a first run without network, say); by default such a cassette isn't written, so the
    ///     next run records again instead of replaying the failure.
    /// - Throws: ``RequestMockerError/invalidCassette(path:jsonPath:reason:)`` for a file that
    ///   isn't HAR, ``RequestMockerError/cassetteNotReadable(path:reason:)``,
    ///   ``RequestMockerError/cassetteNotFound(path:mode:)`` for a missing file in a mode that
    ///   never records (``RecordMode/none``), and
    ///   ``RequestMockerError/invalidRecordMode(value:variable:)``.
    ///
    /// The default mode, ``RecordMode/automatic``, is ``RecordMode/once``, or ``RecordMode/none``
    /// when the `CI` environment variable is set (a CI server never records);
    /// `REQUEST_MOCKER_RECORD_MODE` overrides either.
    public convenience init(
        contentsOf url: URL,
        record: RecordMode = .automatic,
        playback: PlaybackMode = .momentary,
        matchers: [CassetteMatcher] = CassetteMatcher.default,
        redaction: Redaction = .default,
        hosts: HostFilter = .all,
        repeatsLastResponse: Bool = false,
        recordsErrors: Bool = false
    ) throws {
        try self.init(
            contentsOf: url, record: record, playback: playback, matchers: matchers, redaction: redaction,
            hosts: hosts, repeatsLastResponse: repeatsLastResponse, recordsErrors: recordsErrors,
            environment: ProcessInfo.processInfo.environment
        )
    }

    /// As the public initializer, with `environment` read for `REQUEST_MOCKER_RECORD_MODE` and
    /// `CI` (the command passes none: its `--record` is explicit).
    package init(
        contentsOf url: URL, record: RecordMode, playback: PlaybackMode, matchers: [CassetteMatcher],
        redaction: Redaction, hosts: HostFilter, repeatsLastResponse: Bool, recordsErrors: Bool = false,
        environment: [String: String]
    ) throws {
        self.url = url
        recordMode = try RecordMode.effective(record, environment: environment)
        self.recordsErrors = recordsErrors
        self.playback = playback
        self.matchers = matchers
        self.redaction = redaction
        self.hosts = hosts
        self.repeatsLastResponse = repeatsLastResponse
        keyMatchers = matchers.filter { $0.key != nil }
        otherMatchers = matchers.filter { $0.key == nil }
        let isNew = !FileManager.default.fileExists(atPath: url.path)
        self.isNew = isNew
        tape = LockedState(Tape())
        if recordMode.replacesExisting {
            // The old content goes, even if this run records nothing; the file is replaced
            // when the cassette is saved.
            let head = isNew ? nil : (try? FileHandle(forReadingFrom: url)).flatMap { try? $0.read(upToCount: 256) }
            isYAHTTPVCR = head.map(YAHTTPVCR.isCassette) ?? false
            tape.withLock { $0.replacesFile = !isNew }
            return
        }
        guard !isNew else {
            guard recordMode.records(isNew: true) else {
                throw RequestMockerError.cassetteNotFound(
                    path: url.path, mode: RecordMode.origin(of: recordMode, requested: record, environment: environment)
                )
            }
            isYAHTTPVCR = false
            return
        }

        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw RequestMockerError.cassetteNotReadable(
                path: url.path, reason: (error as NSError).localizedDescription)
        }
        var loaded = Tape()
        isYAHTTPVCR = YAHTTPVCR.isCassette(data)
        do {
            let (log, entries) = try isYAHTTPVCR ? YAHTTPVCR.document(from: data) : HAR.document(from: data)
            loaded.log = log
            loaded.recordings.reserveCapacity(entries.count)
            for (index, entry) in entries.enumerated() {
                let interaction = try HAR.interaction(from: entry, path: "log.entries[\(index)]")
                let matchRequest = redaction.redact(interaction.request)
                let recording = Recording(
                    interaction: interaction, matchRequest: matchRequest,
                    key: matchRequest.map(indexKey) ?? "", entry: entry, isLoaded: true)
                loaded.append(recording, played: false)
            }
        } catch {
            throw RequestMockerError.invalidCassette(path: url.path, jsonPath: error.path, reason: error.reason)
        }
        loaded.savedCount = loaded.recordings.count
        tape.withLock { $0 = loaded }
    }

    /// The values of the key matchers, joined: where `request`'s candidates are filed.
    func indexKey(_ request: MockRequest) -> String {
        switch keyMatchers.count {
        case 0: ""
        case 1: keyMatchers[0].key?(request) ?? ""
        default: keyMatchers.map { $0.key?(request) ?? "" }.joined(separator: "\u{1D}")
        }
    }

    public var description: String { "cassette \(url.path)" }

    // MARK: State

    /// Every interaction, loaded and recorded, in order.
    public var interactions: [Interaction] {
        tape.withLock { $0.recordings.map(\.interaction) }
    }

    /// How many recordings have answered a request (recordings made in this run count as
    /// answered).
    public var playedCount: Int {
        tape.withLock { $0.played.count { $0 } }
    }

    /// Whether every recording has answered (or was made in this run).
    public var allPlayed: Bool {
        tape.withLock { !$0.played.contains(false) }
    }

    /// Whether ``save()`` would write: something was recorded since the cassette was opened or
    /// last saved, or mode `all` dropped the file's old content.
    public var hasUnsavedChanges: Bool {
        tape.withLock { $0.isDirty }
    }

    /// Writes the cassette if anything was recorded since it was opened or last saved (or, in
    /// mode `all`, if the file had old content, which this run's recordings replace — none at
    /// all when it made no requests), unless it would be a new (or replaced) cassette of nothing
    /// but transport errors and ``recordsErrors`` isn't set: to a temporary file beside it, then renamed over it, so
    /// the file is always either the old or the new content. Creates missing folders. Does
    /// nothing otherwise; a cassette in mode `none` never writes. Entries loaded from the file
    /// are written back through ``redaction`` too, so a browser export loses its credentials.
    ///
    /// - Returns: whether the file was written.
    /// - Throws: ``RequestMockerError/recordingNotWritable(path:reason:)``.
    @discardableResult
    public func save() throws -> Bool {
        try saving.withLock { _ in
            let (log, recordings, isDirty, replacesFile) = tape.withLock {
                ($0.log, $0.recordings, $0.isDirty, $0.replacesFile)
            }
            guard isDirty else { return false }
            // A first recording made without network is all transport errors; saved, it would
            // replay the failure on every later run instead of recording again.
            let onlyErrors = !recordings.isEmpty && recordings.allSatisfy { $0.interaction.response == nil }
            if onlyErrors, isNew || replacesFile, !recordsErrors { return false }
            guard !isYAHTTPVCR else {
                throw RequestMockerError.recordingNotWritable(
                    path: url.path,
                    reason: "it is a YAHTTPVCR cassette, which RequestMocker plays back but doesn't write; convert it "
                        + "with `request-mocker convert \(url.lastPathComponent) "
                        + "\(url.deletingPathExtension().lastPathComponent).har` and record into the HAR file")
            }
            do {
                let entries = recordings.map { $0.isLoaded ? HAR.redact($0.entry, with: redaction) : $0.entry }
                let data = try HAR.data(log: log, entries: entries)
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(data, to: url)
            } catch {
                throw RequestMockerError.recordingNotWritable(path: url.path, reason: "\(error)")
            }
            tape.withLock { tape in
                tape.savedCount = recordings.count
                tape.replacesFile = false
            }
            return true
        }
    }
}
