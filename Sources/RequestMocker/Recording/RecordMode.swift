/// When a cassette (or a recording mock-data folder) plays back and when it records.
///
/// Four modes are built in; the environment variable `REQUEST_MOCKER_RECORD_MODE` (`once`,
/// `new_episodes`, `none` or `all`) overrides the mode given in code for a whole run, so a
/// suite can be re-recorded without editing it:
///
/// ```swift
/// let cassette = try Cassette(contentsOf: fixtures.appendingPathComponent("users.har"), record: .once)
/// // REQUEST_MOCKER_RECORD_MODE=all swift test   re-records every cassette
/// ```
///
/// A mode is a plain value, so a project can define its own from the same three properties.
public struct RecordMode: Sendable, Hashable, CustomStringConvertible {
    /// When requests that nothing plays back are sent to the network and recorded.
    public enum Recording: Sendable, Hashable {
        /// Never: unmatched requests fail.
        case never
        /// Only when the cassette file did not exist when it was opened.
        case whenNew
        /// Always.
        case always
    }

    /// The name used in messages and in `REQUEST_MOCKER_RECORD_MODE`.
    public let name: String
    /// Whether recorded interactions answer requests.
    public let playsBack: Bool
    /// When unanswered requests are recorded.
    public let recording: Recording
    /// Whether the cassette's old content is dropped when it is opened, so what this run
    /// records replaces it.
    public let replacesExisting: Bool

    public init(name: String, playsBack: Bool, recording: Recording, replacesExisting: Bool) {
        self.name = name
        self.playsBack = playsBack
        self.recording = recording
        self.replacesExisting = replacesExisting
    }

    /// Records into a cassette that doesn't exist yet; once it exists, only plays back and
    /// fails requests it has no recording for. The default: record on the first run, replay
    /// on every run after.
    public static let once = RecordMode(name: "once", playsBack: true, recording: .whenNew, replacesExisting: false)

    /// Plays back what matches and records (and appends) what doesn't.
    public static let newEpisodes = RecordMode(name: "new_episodes", playsBack: true, recording: .always, replacesExisting: false)

    /// Only plays back; never sends a request to the network and never writes the file.
    public static let none = RecordMode(name: "none", playsBack: true, recording: .never, replacesExisting: false)

    /// Sends every request to the network and records it; the saved cassette holds only what
    /// this run recorded.
    public static let all = RecordMode(name: "all", playsBack: false, recording: .always, replacesExisting: true)

    /// The built-in modes, by the names `REQUEST_MOCKER_RECORD_MODE` accepts.
    public static let builtIn: [RecordMode] = [.once, .newEpisodes, .none, .all]

    /// The environment variable that overrides every cassette's mode.
    public static let environmentVariable = "REQUEST_MOCKER_RECORD_MODE"

    public var description: String { name }

    /// Whether a source in this mode may record, given whether its file or folder is new.
    func records(isNew: Bool) -> Bool {
        switch recording {
        case .never: false
        case .whenNew: isNew
        case .always: true
        }
    }

    /// The mode to use: the environment's when it names one, else `requested`.
    ///
    /// - Throws: ``RequestMockerError/invalidRecordMode(value:variable:)`` when the variable is
    ///   set to something that isn't a mode's name.
    static func effective(_ requested: RecordMode, environment: [String: String]) throws(RequestMockerError) -> RecordMode {
        guard let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return requested
        }
        let normalized = value.lowercased().replacingOccurrences(of: "-", with: "_")
        let spelled = normalized == "newepisodes" ? "new_episodes" : normalized
        guard let mode = builtIn.first(where: { $0.name == spelled }) else {
            throw .invalidRecordMode(value: value, variable: environmentVariable)
        }
        return mode
    }
}

/// How fast recorded answers come back.
///
/// ```swift
/// try Cassette(contentsOf: url, playback: .chronological)   // as slow as when recorded
/// ```
public struct PlaybackMode: Sendable, Hashable, CustomStringConvertible {
    /// How many times faster than recorded; `nil` answers at once.
    public let speed: Double?

    /// Answers at once. The default.
    public static let momentary = PlaybackMode(speed: nil)

    /// Keeps the recorded timings: each answer takes as long as it took when it was recorded
    /// (the HAR entry's `time`). Requests sent together therefore complete in the order they
    /// did when recorded, but no answer waits for a request recorded earlier to be sent, so a
    /// test that sends its requests in another order doesn't stall.
    public static let chronological = PlaybackMode(speed: 1)

    /// Keeps the recorded timings, sped up `speed` times (`2` answers twice as fast). A speed
    /// that is zero, negative or not finite answers at once; speeds below 0.001 count as 0.001.
    public static func chronological(speed: Double) -> PlaybackMode {
        PlaybackMode(speed: speed.isFinite && speed > 0 ? max(speed, 0.001) : nil)
    }

    public var description: String {
        guard let speed else { return "momentary" }
        return speed == 1 ? "chronological" : "chronological(speed: \(speed))"
    }

    /// The delay for an answer that took `duration` when recorded, at most a year (as for
    /// ``MockResponse/delayed(by:)``).
    func delay(forRecorded duration: Duration) -> Duration {
        guard let speed else { return .zero }
        return min(duration / speed, .seconds(365 * 24 * 3600))
    }
}
