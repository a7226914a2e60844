import Dispatch

/// One request a registry saw, and what became of it.
///
/// ```swift
/// for entry in registry.journal where entry.isUnmatched {
///     print(entry)   // GET https://api.test/missing -> unmatched
/// }
/// #expect(registry.journal.last?.filter?.path == "/users/<id>")
/// ```
public struct JournalEntry: Sendable, CustomStringConvertible {
    /// What became of a request.
    public enum Disposition: Sendable {
        /// A filter answered (see ``JournalEntry/filter``).
        case answered
        /// Sent to the network (or a server's upstream): no filter matched and the registry's
        /// policy passes such requests through, or the filter in ``JournalEntry/filter``
        /// answered with ``MockResponse/passThrough``.
        case passedThrough
        /// No filter matched, and the request failed with this report.
        case unmatched(UnmatchedRequestReport)
        /// No filter matched, and the unmatched policy's fixed response answered.
        case answeredByPolicy
        /// The request failed before any response: the reason.
        case failed(String)
        /// Nothing played it back, so it was sent to the network to be recorded into
        /// ``JournalEntry/file`` (a cassette, or a mock-data file). A
        /// ``Redaction/beforeRecordResponse(_:)`` hook may still keep the answer out.
        case recorded
    }

    /// The parts, behind one reference: an entry is copied into the journal, into the
    /// transport's state and out to callers, and each copy is then one reference count.
    private final class Storage: Sendable {
        let request: MockRequest
        let disposition: Disposition
        let date = Date()
        let file: URL?
        let entryIndex: Int?
        let webSocket: WebSocketTranscript?
        let entry: FilterIndex.Entry?
        let contractAnswer: ContractAnswer?
        /// How the answer ended, and when (set once, by the transport), and what a source
        /// noted of the exchange later.
        let later = LockedState<Later>(Later())
        /// For an answer made after the request was journaled (off URL loading's queue): entered
        /// at the start, left once the answer is made, so that reading how a contract answered
        /// waits for it.
        let making: DispatchGroup?

        init(
            request: MockRequest, disposition: Disposition, file: URL?, entryIndex: Int?,
            webSocket: WebSocketTranscript?, entry: FilterIndex.Entry?, contractAnswer: ContractAnswer?,
            madeLater: Bool
        ) {
            if madeLater {
                let making = DispatchGroup()
                making.enter()
                self.making = making
            } else {
                making = nil
            }
            self.request = request
            self.disposition = disposition
            self.file = file
            self.entryIndex = entryIndex
            self.webSocket = webSocket
            self.entry = entry
            self.contractAnswer = contractAnswer
        }
    }

    /// What is learnt of a request after it is journaled.
    private struct Later: Sendable {
        var completion: (completion: Completion, date: Date)?
        var note: (any Note)?
        /// How a contract answered, when the answer was made after the request was journaled
        /// (off URL loading's queue): set before the answer is delivered.
        var contractAnswer: ContractAnswer?
        /// Whether that answer is made (so `making` was left).
        var isMade = false
    }

    /// The longest a reader waits for an answer being made: the making is the library's own
    /// bounded work (a generated body, a file read), so this only guards against the unforeseen.
    static let longestMaking: DispatchTimeInterval = .seconds(60)

    private let storage: Storage

    /// The request as captured.
    public var request: MockRequest { storage.request }
    /// What became of it.
    public var disposition: Disposition { storage.disposition }
    /// When it arrived.
    public var date: Date { storage.date }
    /// The mock-data file or cassette that answered, or that the request was recorded into.
    public var file: URL? { storage.file }
    /// For a cassette that answered: which of its `log.entries` (from 0).
    public var entryIndex: Int? { storage.entryIndex }
    /// For a request that asked for a WebSocket (`Upgrade: websocket`): the frames of the
    /// connection, both ways, once the server switched protocols (empty until then, and for good
    /// when it didn't).
    public var webSocket: WebSocketTranscript? { storage.webSocket }
    var entry: FilterIndex.Entry? { storage.entry }
    /// For a request a contract answered: the operation, the status and how the body was
    /// chosen, and what the request broke of the contract.
    ///
    /// For an answer made off URL loading's queue, reading this waits until it is made (the
    /// making is bounded: a generated body, a file read), so a test that waited for the request
    /// with ``MockRegistry/waitForRequests(count:matching:timeout:)`` reads the violations too.
    public var contractAnswer: ContractAnswer? {
        if let answer = storage.contractAnswer { return answer }
        guard let making = storage.making else { return nil }
        _ = making.wait(timeout: .now() + Self.longestMaking)
        return storage.later.withLock { $0.contractAnswer }
    }

    /// Notes that the answer made later is made, and how a contract answered it, if one did.
    func noteAnswerMade(contractAnswer answer: ContractAnswer?) {
        let isFirst = storage.later.withLock { later in
            defer { later.isMade = true }
            if !later.isMade { later.contractAnswer = answer }
            return !later.isMade
        }
        if isFirst { storage.making?.leave() }
    }

    /// How the answer to a request ended, as far as the transport can tell: handed over whole,
    /// failed, or abandoned because the caller cancelled or the client went away.
    public enum Completion: Sendable, Equatable {
        /// The whole answer reached the caller (through `MockServer`: was written).
        case delivered
        /// The request failed instead: an error, a fault, a refusal, a body that broke off.
        case failed(String)
        /// The caller cancelled the task, or the client left, before the answer was complete.
        case cancelled
    }

    /// How the answer ended, or `nil` while it is still on its way (a delay, an `async`
    /// block, a stream). ``MockRegistry/waitForCompletedRequests(count:matching:timeout:)`` waits
    /// for it.
    public var completion: Completion? { storage.later.withLock { $0.completion?.completion } }

    /// When the answer ended.
    public var completionDate: Date? { storage.later.withLock { $0.completion?.date } }

    /// What a source learns of an exchange after it is journaled, kept with the entry: one note
    /// per entry (`serve --upstream-first` notes its check of the upstream's answer).
    package protocol Note: Sendable {
        /// What the entry's description says after the arrow instead of its disposition
        /// (`openapi getPet 200 example, because the upstream answered 404`), or `nil` to leave it.
        var answerDescription: String? { get }
    }

    /// The entry's note, when it has one of this type.
    package func note<Kind: Note>(_ kind: Kind.Type) -> Kind? {
        storage.later.withLock { $0.note as? Kind }
    }

    /// Changes the entry's note of this type, starting from `initial` when it has none.
    package func changeNote<Kind: Note>(from initial: @autoclosure () -> Kind, _ change: (inout Kind) -> Void) {
        storage.later.withLock { later in
            var note = later.note as? Kind ?? initial()
            change(&note)
            later.note = note
        }
    }

    init(
        request: MockRequest, entry: FilterIndex.Entry?, file: URL? = nil, entryIndex: Int? = nil,
        disposition: Disposition, webSocket: WebSocketTranscript? = nil, contractAnswer: ContractAnswer? = nil,
        madeLater: Bool = false
    ) {
        storage = Storage(
            request: request, disposition: disposition, file: file, entryIndex: entryIndex, webSocket: webSocket,
            entry: entry, contractAnswer: contractAnswer, madeLater: madeLater)
    }

    /// Sets how the answer ended unless that is set already; whether this call set it.
    func complete(_ completion: Completion) -> Bool {
        storage.later.withLock { later in
            guard later.completion == nil else { return false }
            later.completion = (completion, Date())
            return true
        }
    }

    /// The filter that matched it, if any.
    public var filter: RequestFilter? { entry?.filter }

    /// The id of the filter that answered, as its ``FilterHandle`` has it.
    package var filterID: Int? { entry?.id }

    /// Whether no filter matched the request.
    public var isUnmatched: Bool {
        switch disposition {
        case .passedThrough: entry == nil
        case .unmatched, .answeredByPolicy: true
        case .answered, .failed, .recorded: false
        }
    }

    public var description: String {
        if let said = storage.later.withLock({ $0.note?.answerDescription }) { return "\(request) -> \(said)" }
        return switch disposition {
        case .answered:
            if let file, let entryIndex {
                "\(request) -> cassette \(file.path), entry \(entryIndex)"
            } else if let file, let contractAnswer {
                "\(request) -> openapi \(contractAnswer) (\(file.path))"
            } else {
                "\(request) -> \(file.map { "file \($0.path)" } ?? filter.map(\.description) ?? "?")"
            }
        case .recorded: "\(request) -> recorded into \(file?.path ?? "?")"
        case .passedThrough:
            "\(request) -> passed through to the network\(filter.map { " by \($0)" } ?? "")"
        case .unmatched: "\(request) -> unmatched"
        case .answeredByPolicy: "\(request) -> unmatched-request policy"
        case .failed(let reason): "\(request) -> failed: \(reason)"
        }
    }
}
