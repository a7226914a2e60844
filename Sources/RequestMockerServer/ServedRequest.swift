import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// One request a ``MockServer`` handled, as its `onRequest` handler sees it: for logging (the
/// `request-mocker` command prints one line each) and for tests that watch the wire.
///
/// ```swift
/// let server = MockServer(registry: registry) { served in
///     print(served)   // GET /users/7 -> 200 from filter GET /users/<id> (0.2 ms)
/// }
/// ```
public struct ServedRequest: Sendable, CustomStringConvertible {
    /// How the exchange ended.
    public enum Outcome: Sendable, Equatable {
        /// A response with this status was sent.
        case responded(status: HTTPStatus)
        /// The response asked for a fault, and the connection broke that way.
        case fault(ConnectionFault)
        /// The response was an error, so the connection was reset.
        case reset(reason: String)
        /// The server refused the request before matching it (400, 408, 413, 414, 417, 431, 505).
        case refused(status: HTTPStatus, reason: String)
        /// The client went away, or the server stopped, before the response was complete.
        case abandoned
        /// A response began with this status, and its body broke off before its end (a
        /// relayed upstream failed, or the mock was `truncated(afterBytes:)`): the connection
        /// was closed, so the client saw it incomplete.
        case brokeOff(status: HTTPStatus, reason: String)
        /// The server switched to the WebSocket protocol, and the connection ended: with the
        /// close code of its closing handshake (`nil` when it ended without one), after so many
        /// messages each way.
        case webSocket(closeCode: Int?, received: Int, sent: Int)
    }

    /// The request, or `nil` when it was refused before it could be read.
    public let request: MockRequest?
    /// What the registry made of it (also in the registry's journal); `nil` when refused.
    public let journalEntry: JournalEntry?
    /// How it ended.
    public let outcome: Outcome
    /// From the request's arrival to the end of the response.
    public let duration: Duration
    /// Whether the server has an upstream (``MockServer/Configuration/upstream``), where what it
    /// passes through or records goes.
    let hasUpstream: Bool
    /// Why the server answered with a refusal of its own (a failed forward, a mistake in the
    /// mocks), when it did.
    let refusal: String?
    /// What the request asked of the contract (`Prefer: code=404`) when a source before the
    /// contract answered it, so the preference did nothing.
    var unappliedPreferences: String?

    init(
        request: MockRequest?, journalEntry: JournalEntry?, outcome: Outcome, duration: Duration,
        hasUpstream: Bool = false, refusal: String? = nil
    ) {
        self.request = request
        self.journalEntry = journalEntry
        self.outcome = outcome
        self.duration = duration
        self.hasUpstream = hasUpstream
        self.refusal = refusal
    }

    /// One line: `GET /users/7 -> 200 from file users/7-GET.http (0.3 ms)`, or
    /// `GET /pets/7 -> 200 from openapi getPet (example "dog", 0.3 ms)`; for an unmatched
    /// request the names the mock-data folders looked for follow, for a request that breaks the
    /// contract its violations.
    public var description: String {
        var line = request.map { "\($0.method.rawValue) \(Self.target(of: $0.url))" } ?? "(unreadable request)"
        switch outcome {
        case .responded(let status): line += " -> \(status.code)"
        case .fault(let fault): line += " -> fault: \(fault)"
        case .reset(let reason): line += " -> reset: \(reason)"
        case .refused(let status, let reason): line += " -> \(status.code) refused: \(reason)"
        case .abandoned: line += " -> abandoned before the response was complete"
        case .brokeOff(let status, let reason): line += " -> \(status.code), body broke off: \(reason)"
        case .webSocket(let code, let received, let sent):
            let closing = code.map { "closed \($0)" } ?? "ended without a closing handshake"
            line += " -> 101 WebSocket, \(received) messages in, \(sent) out, \(closing)"
        }
        if let check = journalEntry?.upstreamCheck {
            return line + upstreamFirst(check)
        }
        if let answer = journalEntry?.contractAnswer, case .answered? = journalEntry?.disposition {
            // `from openapi getPet (example "dog", 0.3 ms)`, and what the request broke below.
            var how = answer.how
            if how.hasPrefix("example ") { how = "example \"\(how.dropFirst("example ".count))\"" }
            line += " from \(answer.kind) \(answer.operation) (\(how), \(Self.milliseconds(duration)) ms)"
            for violation in answer.violations + answer.warnings { line += "\n    \(violation)" }
            return line
        }
        if let source = journalEntry.flatMap(source) { line += " \(source)" }
        line += " (\(Self.milliseconds(duration)) ms)"
        if let preferred = unappliedPreferences {
            line += "\n    \(preferred) was not applied: a source before the contract answered"
        }
        if case .unmatched(let report) = journalEntry?.disposition {
            for note in report.notes { line += "\n    \(note)" }
        }
        return line
    }

    /// After the status, for an exchange `serve --upstream-first` handled: the mock that answered
    /// instead of the upstream and why; or `from upstream`, and why the body isn't checked when
    /// it isn't.
    private func upstreamFirst(_ check: JournalEntry.UpstreamCheck) -> String {
        let time = "\(Self.milliseconds(duration)) ms"
        guard let fallback = check.fallback else {
            // The findings come later, once the exchange is checked: `serve` prints them then.
            var line = " " + (journalEntry.flatMap(source) ?? "from upstream") + " (\(time))"
            if let kept = check.keptNotFound { line += ", not mocked: \(kept)" }
            if let why = check.bodyUnchecked { line += "\n    body not checked: \(why)" }
            return line
        }
        var line: String
        if let file = fallback.file, let index = fallback.entryIndex {
            line = " from cassette \(file.lastPathComponent), entry \(index) (\(time))"
        } else if let answer = fallback.contractAnswer {
            line = " from \(answer.kind) \(answer.operation) (\(answer.how), \(time))"
        } else if let file = fallback.file {
            line = " from file \(file.path) (\(time))"
        } else {
            line = " from filter \(fallback.filter.map(\.description) ?? "?") (\(time))"
        }
        line += ", because \(fallback.reason)"
        for violation in (fallback.contractAnswer).map({ $0.violations + $0.warnings }) ?? [] {
            line += "\n    \(violation)"
        }
        return line
    }

    /// The path and query, with secrets in the query hidden (see `SecretNames`).
    private static func target(of url: URL) -> String {
        let url = Redaction.hidingSecrets(url)
        let path = url.path(percentEncoded: true)
        let query = url.query(percentEncoded: true).map { "?\($0)" } ?? ""
        return (path.isEmpty ? "/" : path) + query
    }

    private func source(of entry: JournalEntry) -> String? {
        let network = hasUpstream ? "upstream" : "the network"
        let failure = refusal.map { ": \($0)" } ?? ""
        switch entry.disposition {
        case .answered:
            if let file = entry.file, let index = entry.entryIndex {
                return "from cassette \(file.lastPathComponent), entry \(index)"
            }
            if let file = entry.file { return "from file \(file.path)" }
            return entry.filter.map { "from filter \($0)" }
        case .recorded:
            guard refusal == nil, let file = entry.file else { return "from \(network), not recorded\(failure)" }
            let shown = file.pathExtension == "http" ? file.lastPathComponent : "into \(file.path)"
            return "from \(network), recorded \(shown)"
        case .passedThrough:
            // A filter's `.passThrough` is named, so a log reader sees which stub let it through.
            let by = entry.filter.map { ", passed through by \($0)" } ?? ""
            return (hasUpstream ? "from upstream" : "passed through to the network") + by + failure
        case .unmatched: return "unmatched"
        case .answeredByPolicy: return "from the unmatched-request policy"
        case .failed(let reason): return "failed: \(reason)"
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000
        return "\(tenths / 10).\(tenths % 10)"
    }
}

extension ServedRequest.Outcome {
    /// How the answer ended, as the journal records it; `refusal` is the reason when the
    /// response written was a refusal (a `404` for an unmatched request, a `500` for a mistake).
    func completion(refusal: String?) -> JournalEntry.Completion {
        switch self {
        case .responded(let status): refusal.map { .failed("\(status.code): \($0)") } ?? .delivered
        case .webSocket: .delivered
        case .fault(let fault): .failed("\(fault)")
        case .reset(let reason): .failed("reset: \(reason)")
        case .refused(let status, let reason): .failed("\(status.code): \(reason)")
        case .brokeOff(_, let reason): .failed("the body broke off: \(reason)")
        case .abandoned: .cancelled
        }
    }
}
