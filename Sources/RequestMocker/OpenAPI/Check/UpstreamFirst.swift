import Foundation

/// `serve --openapi FILE --upstream URL --upstream-first`: the source in front of the mocks that
/// sends every request to the upstream first and checks each exchange against the contract
/// (``DriftWatch``). What the upstream answers `404` or `501`, or can't answer at all, the mocks
/// behind this source answer instead (the folders, the cassette, the contract, in their order),
/// when one has it; otherwise the upstream's answer goes to the client as it is.
///
/// Only stubs registered in front of it (the admin API's, a stubs file's) answer before the
/// upstream. With a recorder, every exchange the upstream answers is recorded.
package final class UpstreamFirst: AnswerSource, CustomStringConvertible {
    /// Where `--record` writes the upstream's exchanges.
    package enum Recorder: Sendable {
        /// A cassette that records every request (``RecordMode/all``), or none (``RecordMode/once``
        /// on a cassette that isn't new).
        case cassette(Cassette)
        /// A folder that records every request.
        case folder(MockDataFolder)
    }

    package let watch: DriftWatch
    /// Told each finding that is the first of its kind, once its exchange is checked (after the
    /// answer went out): `serve` prints it.
    let onNewFinding: (@Sendable (MockRequest, ContractCheck.Finding) -> Void)?
    private let contract: ContractSource
    private let recorder: Recorder?

    /// The statuses that say the upstream lacks what was asked: a mock answers instead.
    static let fallbackStatuses: Set<Int> = [404, 501]
    /// The largest body checked; a larger one is relayed as it comes, its status and headers
    /// checked.
    static let maximumCheckedBody = 16 * 1024 * 1024

    package init(
        checkingAgainst contract: ContractSource, recordingInto recorder: Recorder? = nil,
        onNewFinding: (@Sendable (MockRequest, ContractCheck.Finding) -> Void)? = nil
    ) {
        self.contract = contract
        self.recorder = recorder
        self.onNewFinding = onNewFinding
        watch = DriftWatch(contract)
    }

    package var description: String { "the upstream, checked against \(contract)" }

    func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        .upstreamFirst(self)
    }

    /// Where the exchange for `request` is recorded, if it is. A recorder that doesn't record
    /// isn't asked: it would play a recording back, using it up.
    func ticket(for request: MockRequest) -> RecordingTicket? {
        var misses: [SourceAnswer.Miss] = []
        let answer: SourceAnswer? =
            switch recorder {
            case .cassette(let cassette) where cassette.recordMode.records(isNew: cassette.isNew):
                cassette.answer(request, misses: &misses)
            case .folder(let folder) where folder.recording.map({ $0.mode.records(isNew: $0.isNew) }) == true:
                folder.answer(request, misses: &misses)
            case .cassette, .folder, nil: nil
            }
        if case .record(let ticket)? = answer { return ticket }
        return nil
    }

    /// `request` as it goes to the upstream: asking for the body as it is (`identity`), which
    /// every client accepts, so that it can be checked.
    static func uncompressed(_ request: MockRequest) -> MockRequest {
        let name = HTTPHeaders.Name("Accept-Encoding")
        guard let asked = request.headers[name], asked != "identity" else { return request }
        var headers = request.headers
        headers.replace(name, with: "identity")
        return MockRequest(
            method: request.method, url: request.url, headers: headers, body: request.body,
            bodyHiddenByUploadTask: request.bodyHiddenByUploadTask)
    }

    /// `response` with its body read whole, and the body, when it ends by `deadline` within
    /// ``maximumCheckedBody``; otherwise the body's bytes read so far go first, the rest follows as
    /// it comes, and the body is `nil` with why it wasn't read.
    static func collected(
        _ response: ResolvedResponse, until deadline: ContinuousClock.Instant
    ) -> (response: ResolvedResponse, body: Result<Data, Unchecked>) {
        guard case .stream(let stream) = response.body else {
            if case .bytes(let data) = response.body { return (response, .success(data)) }
            return (response, .failure(Unchecked(reason: "the body is a file")))
        }
        var read = Data()
        var why = "it took longer than the forwarding timeout"
        reading: while ContinuousClock.now < deadline {
            guard read.count <= maximumCheckedBody else {
                why = "it is larger than \(maximumCheckedBody / 1024 / 1024) MiB"
                break
            }
            let wait = min(ContinuousClock.now.duration(to: deadline), .milliseconds(100))
            switch stream.next(waitingAtMost: wait) {
            case .bytes(let piece): read.append(piece)
            case .pending: continue
            case .end:
                // Framed by its length now (it came chunked, or until the upstream closed), still
                // encoded as it came.
                var headers = response.headers
                if headers[.contentLength] == nil, !response.status.forbidsBody {
                    headers.add(.contentLength, String(read.count))
                }
                let whole = ResolvedResponse(
                    status: response.status, httpVersion: response.httpVersion, headers: headers, body: .bytes(read),
                    relayed: true)
                return (whole, .success(read))
            case .failed(let error):
                why = "it broke off: \(error.localizedDescription)"
                break reading
            }
        }
        // The part read goes out first; then the stream, which after a failure fails again.
        let first = LockedState<Data?>(read)
        let rest = BodyStream(
            expectedLength: stream.expectedLength,
            pull: { wait in
                if let piece = first.withLock({ $0.take() }), !piece.isEmpty { return .bytes(piece) }
                return stream.next(waitingAtMost: wait)
            }, onCancel: { stream.cancel() })
        let relayed = ResolvedResponse(
            status: response.status, httpVersion: response.httpVersion, headers: response.headers,
            body: .stream(rest), relayed: true)
        return (relayed, .failure(Unchecked(reason: why)))
    }

    /// Why a body wasn't checked.
    struct Unchecked: Error {
        let reason: String
    }
}

extension MockRegistry {
    /// Sends `request` to the upstream first (see ``UpstreamFirst``): journaled as passed through
    /// (or recorded), its exchange checked, or a mock's answer instead.
    func answer(
        _ request: MockRequest, upstreamFirst source: UpstreamFirst, entry: FilterIndex.Entry?,
        forwarding: Forwarding
    ) -> (outcome: PendingOutcome, entry: JournalEntry) {
        let ticket = source.ticket(for: request)
        let journalEntry = journaled(
            request, entry, ticket?.target.destination, nil, ticket == nil ? .passedThrough : .recorded)
        // The body whole, to check it (the relay to a plain-HTTP upstream may still stream it).
        var whole = forwarding
        whole.streamsBodies = false
        let deadline = ContinuousClock.now + .milliseconds(Int64(max(forwarding.timeout, 1) * 1000))
        // The sources after this one are the mocks (the registry's order: lower is earlier).
        let order = entry?.order ?? .max
        let sent = whole.passThrough(UpstreamFirst.uncompressed(request), recording: ticket)
        let next = sent.then { [self] outcome in
            afterUpstream(
                outcome, of: request, source: source, after: order, journalEntry: journalEntry,
                forwarding: forwarding, deadline: deadline)
        }
        return (next, journalEntry)
    }

    private func afterUpstream(
        _ outcome: Outcome, of request: MockRequest, source: UpstreamFirst, after order: Int,
        journalEntry: JournalEntry, forwarding: Forwarding, deadline: ContinuousClock.Instant
    ) -> PendingOutcome {
        let lacking: String? =
            switch outcome.result {
            case .response(let response) where UpstreamFirst.fallbackStatuses.contains(response.status.code):
                "the upstream answered \(response.status.code)"
            case .refusal(let refusal) where refusal.error is URLError:
                // The transport's reason, without the request the log line shows already.
                "the upstream could not answer ("
                    + (refusal.message.range(of: " failed: ").map { String(refusal.message[$0.upperBound...]) }
                        ?? refusal.message) + ")"
            default: nil
            }
        if let lacking, let mock = mockAnswer(to: request, after: order, forwarding: forwarding) {
            if case .response(let response) = outcome.result, case .stream(let stream) = response.body {
                stream.cancel()
            }
            journalEntry.noteUpstream { $0.fallback = mock.fallback(lacking) }
            return mock.outcome
        }
        guard case .response(let response) = outcome.result else { return .ready(outcome) }
        let (relayed, body) = UpstreamFirst.collected(response, until: deadline)
        var checkedBody = Data()
        var unchecked: String?
        switch body {
        case .success(let data):
            if let encoding = response.headers[.contentEncoding], encoding.lowercased() != "identity" {
                unchecked = "the upstream sent it encoded (Content-Encoding: \(encoding))"
            } else {
                checkedBody = data
            }
        case .failure(let failure):
            unchecked = failure.reason
        }
        journalEntry.noteUpstream { $0.bodyUnchecked = unchecked }
        let exchange = RecordedResponse(
            status: response.status, httpVersion: response.httpVersion, headers: response.headers, body: checkedBody)
        source.watch.submit(request, answeredWith: exchange) { [onNewFinding = source.onNewFinding] checked in
            journalEntry.noteUpstream { $0.findings = checked }
            for new in checked where new.isNew { onNewFinding?(request, new.finding) }
        }
        var relayedOutcome = outcome
        relayedOutcome.result = .response(relayed)
        return .ready(relayedOutcome)
    }

    /// What the first source after `order` that answers `request` itself answers; one that would
    /// send it to the network is passed over (the upstream was asked already).
    private func mockAnswer(
        to request: MockRequest, after order: Int, forwarding: Forwarding
    ) -> (outcome: PendingOutcome, fallback: (String) -> JournalEntry.UpstreamCheck.Fallback)? {
        let snapshot = state.withLock { $0.index }
        var misses: [SourceAnswer.Miss] = []
        let found = snapshot.firstResult(for: request) {
            entry -> (MockResponse, Captures, SourceAnswer.Origin, FilterIndex.Entry)? in
            guard entry.order > order,
                case .respond(let response, let captures, let origin)? = entry.source.answer(request, misses: &misses),
                !response.passesThrough
            else { return nil }
            return (response, captures, origin, entry)
        }
        guard let (response, captures, origin, entry) = found else { return nil }
        let context = MockResponse.ResolutionContext(
            request: request, captures: captures, entry: entry, transcript: nil, forwarding: forwarding)
        return (
            response.resolve(context),
            { reason in
                JournalEntry.UpstreamCheck.Fallback(
                    reason: reason, file: origin.file, entryIndex: origin.entryIndex,
                    contractAnswer: origin.contractAnswer, filter: entry.filter)
            }
        )
    }
}

extension MockRegistry {
    /// Adds the source that sends every request to the upstream first (`serve --upstream-first`);
    /// the mocks registered after it answer what the upstream lacks.
    @discardableResult
    package func register(_ source: UpstreamFirst, at placement: Placement = .last) -> FilterHandle {
        insert(source, at: placement.position)
    }

    /// What the upstream's exchanges broke of the contract so far (`GET /__admin/drift`), or
    /// `nil` when no source sends requests to the upstream first.
    package var driftReport: DriftReport? { upstreamFirstSources.first?.watch.report }

    /// Waits until the exchanges sent to the upstream so far are checked: before the journal is
    /// read (`GET /__admin/requests`).
    package func settleDrift() {
        for source in upstreamFirstSources { source.watch.settle() }
    }

    /// Starts the drift report over (`POST /__admin/reset`).
    package func resetDrift() {
        for source in upstreamFirstSources {
            source.watch.settle()
            source.watch.reset()
        }
    }

    private var upstreamFirstSources: [UpstreamFirst] {
        state.withLock { state in state.index.ordered.compactMap { $0.source as? UpstreamFirst } }
    }
}
