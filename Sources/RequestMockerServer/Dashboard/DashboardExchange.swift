import Foundation
import RequestMocker
import RequestMockerOpenAPI

/// One exchange as the dashboard keeps it: the request, what the registry made of it, the
/// response as it went out (its body's first ``shownBytes``), and how it ended. Recorded as
/// references on the connection's thread; turned into JSON only when a page asks.
package final class DashboardExchange: Sendable {
    /// The most of a body the dashboard shows (and a HAR download or "mock this" carries).
    package static let shownBytes = 256 * 1024

    package let id: Int
    let served: ServedRequest
    let date: Date
    /// The response's head as it went out, when one did.
    var head: (status: HTTPStatus, httpVersion: String, headers: HTTPHeaders)? { kept.head }
    private let kept: Kept
    /// The server's stubs, to name the one that answered (looked up when shown, not when served).
    let stubs: StubStore

    /// What is kept of a response: its head, and never more than ``shownBytes`` of its body in
    /// memory (a longer body's first bytes are copied out, so the rest is let go; a file only by
    /// its place). Made before the exchange is recorded, outside the feed's lock.
    struct Kept: Sendable {
        let head: (status: HTTPStatus, httpVersion: String, headers: HTTPHeaders)?
        fileprivate let body: Body

        fileprivate enum Body: Sendable {
            case none
            case bytes(Data, size: Int)
            /// Read when shown.
            case file(FileSlice)
        }

        init(response: ResolvedResponse?, relayed: (prefix: Data, size: Int)?) {
            head = response.map { ($0.status, $0.httpVersion, $0.headers) }
            if let relayed {
                body = .bytes(relayed.prefix, size: relayed.size)
                return
            }
            switch response?.body {
            case .bytes(let data)?:
                let shown = DashboardExchange.shownBytes
                body = .bytes(data.count <= shown ? data : Data(data.prefix(shown)), size: data.count)
            case .file(let slice)?: body = .file(slice)
            case .stream?, nil: body = .none
            }
        }
    }

    init(id: Int, served: ServedRequest, kept: Kept, stubs: StubStore) {
        self.id = id
        self.served = served
        date = served.journalEntry?.date ?? Date()
        self.kept = kept
        self.stubs = stubs
    }

    /// The id of the stub that answered, when one of the server's stubs did (and still is).
    var stubID: String? {
        served.journalEntry?.filterID.flatMap(stubs.id(ofFilter:))
    }

    /// The request as the dashboard shows it: secrets hidden as a recording hides them.
    var shownRequest: MockRequest? {
        served.request.map { Redaction.default.redact($0) ?? $0 }
    }

    /// The status sent, when a response began.
    var status: Int? {
        switch served.outcome {
        case .responded(let status), .refused(let status, _), .brokeOff(let status, _): status.code
        case .webSocket: 101
        case .fault, .reset, .abandoned: nil
        }
    }

    /// How the exchange ended, in words, when it didn't end with a whole response.
    var ending: String? {
        switch served.outcome {
        case .responded: nil
        case .fault(let fault): "fault: \(fault)"
        case .reset(let reason): "reset: \(reason)"
        case .refused(_, let reason): "refused: \(reason)"
        case .abandoned: "abandoned before the response was complete"
        case .brokeOff(_, let reason): "body broke off: \(reason)"
        case .webSocket(let code, let received, let sent):
            "WebSocket, \(received) received, \(sent) sent, " + (code.map { "closed \($0)" } ?? "no closing handshake")
        }
    }

    /// What answered, as a kind the page filters by and a name: `stub` and its id, `file` and
    /// its path, `cassette` and its entry, `openapi` or `graphql` and the operation, `upstream`
    /// (and whether it was recorded), or `unmatched`.
    var source: (kind: String, name: String) {
        guard let entry = served.journalEntry else {
            if case .refused(_, let reason) = served.outcome { return ("refused", reason) }
            return ("none", "")
        }
        /// The mock that answered: a cassette's entry, a contract's answer, a file, a stub or a filter.
        func mock(_ file: URL?, _ index: Int?, _ answer: ContractAnswer?, _ filter: RequestFilter?) -> (String, String)
        {
            if let file, let index { return ("cassette", "\(file.lastPathComponent), entry \(index)") }
            if let answer { return (answer.kind, answer.description) }
            if let file { return ("file", file.path) }
            if let stubID { return ("stub", stubID) }
            return ("filter", filter?.description ?? "filter")
        }
        if let fallback = entry.upstreamCheck?.fallback {
            // The upstream came first and lacked it (`--upstream-first`).
            let (kind, name) = mock(fallback.file, fallback.entryIndex, fallback.contractAnswer, fallback.filter)
            return (kind, name + ", because \(fallback.reason)")
        }
        switch entry.disposition {
        case .answered:
            return mock(entry.file, entry.entryIndex, entry.contractAnswer, entry.filter)
        case .recorded: return ("upstream", "recorded into \(entry.file?.path ?? "?")")
        case .passedThrough: return ("upstream", entry.upstreamCheck == nil ? "" : "checked against the contract")
        case .unmatched: return ("unmatched", "")
        case .answeredByPolicy: return ("policy", "the unmatched-request policy")
        case .failed(let reason): return ("failed", reason)
        }
    }

    /// The line of the page's list: `{"id", "time", "method", "url", "status", "ending",
    /// "duration" (ms), "source": {"kind", "name"}, "drift" (how many findings)}`.
    package var summary: JSONValue {
        // The method and the URL (its secrets hidden) only: the whole request is redacted for the
        // details alone.
        let request = served.request
        let (kind, name) = source
        var members: [String: JSONValue] = [
            "id": .int(id), "time": .string(HARTimestamp.format(date)),
            "method": .string(request?.method.rawValue ?? ""),
            "url": .string(request.map { Redaction.hidingSecrets($0.url).absoluteString } ?? "(unreadable request)"),
            "status": status.map(JSONValue.int) ?? .null, "ending": ending.map(JSONValue.string) ?? .null,
            "duration": .double((served.duration / .microseconds(1)).rounded() / 1000),
            "source": ["kind": .string(kind), "name": .string(name)],
        ]
        if let findings = served.journalEntry?.upstreamCheck?.findings, !findings.isEmpty {
            members["drift"] = .int(findings.count)
        }
        return .object(members)
    }

    /// The response's body as it went out: its first ``shownBytes`` and its whole size, or
    /// `nil` when none was sent.
    var responseBody: (prefix: Data, size: Int)? {
        guard head != nil, status != nil else { return nil }
        switch kept.body {
        case .bytes(let data, let size): return (data, size)
        case .file(let slice):
            guard let handle = try? slice.open() else { return nil }
            defer { try? handle.close() }
            let data = (try? handle.read(upToCount: min(slice.length, Self.shownBytes))) ?? Data()
            return (data, slice.length)
        case .none: return nil
        }
    }

    /// The response as a recording keeps it (secrets hidden), when a whole one went out and its
    /// body is all here.
    var recordedResponse: RecordedResponse? {
        guard let head, case .responded = served.outcome, let request = served.request else { return nil }
        let body = responseBody ?? (Data(), 0)
        guard body.prefix.count == body.size else { return nil }
        let recorded = RecordedResponse(
            status: head.status, httpVersion: head.httpVersion, headers: head.headers, body: body.prefix)
        return Redaction.default.redact(recorded, for: request)
    }

    /// The exchange as a recording: for the HAR download, and "mock this".
    var interaction: Interaction? {
        guard let request = served.request, let head else { return nil }
        let body = responseBody ?? (Data(), 0)
        let recorded = RecordedResponse(
            status: head.status, httpVersion: head.httpVersion, headers: head.headers, body: body.prefix)
        return Interaction(request: request, result: .success(recorded), startedAt: date, duration: served.duration)
    }
}
