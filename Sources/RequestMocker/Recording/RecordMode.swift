/// When a cassette (or a recording mock-data folder) plays back and when it records.
///
/// Four modes are built in, and ``automatic`` (every cassette's default) picks one of them; the
/// environment variable `REQUEST_MOCKER_RECORD_MODE` (`once`,
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

    /// A mode of your own; the built-in ones are the static members.
    public init(name: String, playsBack: Bool, recording: Recording, replacesExisting: Bool) {
        self.name = name
        self.playsBack = playsBack
        self.recording = recording
        self.replacesExisting = replacesExisting
    }

    /// Records into a cassette that doesn't exist yet; once it exists, only plays back and
    /// fails requests it has no recording for: record on the first run, replay on every run
    /// after. What ``automatic``, the default, is on a developer's machine.
    public static let once = RecordMode(name: "once", playsBack: true, recording: .whenNew, replacesExisting: false)

    /// Plays back what matches and records (and appends) what doesn't.
    public static let newEpisodes = RecordMode(
        name: "new_episodes", playsBack: true, recording: .always, replacesExisting: false)

    /// Only plays back; never sends a request to the network and never writes the file.
    public static let none = RecordMode(name: "none", playsBack: true, recording: .never, replacesExisting: false)

    /// Sends every request to the network and records it; the saved cassette holds only what
    /// this run recorded.
    public static let all = RecordMode(name: "all", playsBack: false, recording: .always, replacesExisting: true)

    /// The default of every cassette: ``once`` on a developer's machine and ``none`` on a CI
    /// server (where the `CI` environment variable is set, as GitHub Actions, GitLab, Buildkite,
    /// CircleCI and Travis set it), so a build never records and a missing recording fails it.
    /// Decided when the cassette is opened; an explicit mode, or `REQUEST_MOCKER_RECORD_MODE`,
    /// wins.
    public static let automatic = RecordMode(
        name: "automatic", playsBack: true, recording: .whenNew, replacesExisting: false)

    /// The built-in modes, by the names `REQUEST_MOCKER_RECORD_MODE` accepts.
    static let builtIn: [RecordMode] = [.once, .newEpisodes, .none, .all]

    /// The environment variable that overrides every cassette's mode.
    static let environmentVariable = "REQUEST_MOCKER_RECORD_MODE"

    /// What ``automatic`` is: ``once``, except on a CI server (the `CI` environment variable set,
    /// as GitHub Actions, GitLab, Buildkite, CircleCI and Travis set it), where it is ``none``.
    static func automaticMode(environment: [String: String]) -> RecordMode {
        let ci = environment["CI"]?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        return ci.isEmpty || ci == "false" || ci == "0" ? .once : .none
    }

    public var description: String { name }

    /// Where `mode`, the effective mode, came from, for messages: the environment variable,
    /// ``automatic`` on a CI server, or the code.
    static func origin(of mode: RecordMode, requested: RecordMode, environment: [String: String]) -> String {
        if let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty {
            return "record mode \(mode) (from \(environmentVariable)=\(value))"
        }
        if requested == .automatic {
            return "record mode \(mode) (automatic, with the CI environment variable set)"
        }
        return "record mode \(mode)"
    }

    /// Whether a source in this mode may record, given whether its file or folder is new.
    package func records(isNew: Bool) -> Bool {
        switch recording {
        case .never: false
        case .whenNew: isNew
        case .always: true
        }
    }

    /// The mode to use: the environment's when it names one, else `requested` (``automatic``
    /// decided by the environment).
    ///
    /// - Throws: ``RequestMockerError/invalidRecordMode(value:variable:)`` when the variable is
    ///   set to something that isn't a mode's name.
    static func effective(
        _ requested: RecordMode, environment: [String: String]
    ) throws(RequestMockerError) -> RecordMode {
        guard let value = environment[environmentVariable]?.trimmingCharacters(in: .whitespaces), !value.isEmpty else {
            return requested == .automatic ? automaticMode(environment: environment) : requested
        }
        let normalized = value.lowercased().replacingOccurrences(of: "-", with: "_")
        let spelled = normalized == "newepisodes" ? "new_episodes" : normalized
        guard let mode = builtIn.first(where: { $0.name == spelled }) else {
            throw .invalidRecordMode(value: value, variable: environmentVariable)
        }
        return mode
    }
}
