import Foundation
import RequestMocker

/// `serve --openapi FILE --upstream URL --upstream-first`: the source in front of the mocks that
/// sends every request to the upstream first and checks each exchange against the contract
/// (``DriftWatch``). What the upstream answers `501`, or can't answer (see
/// ``lacking(_:for:)``), the mocks behind this source answer instead (the folders, the cassette,
/// the contract, in their order), when one has it; otherwise the upstream's answer goes to the
/// client as it is. A `404` falls back the same way only while the upstream has answered the
/// operation with nothing but `404` and `501`: once it has answered it otherwise, the operation
/// is built there, and its `404` ("no such user") is the answer.
///
/// Only stubs registered in front of it (the admin API's, a stubs file's) answer before the
/// upstream. With a recorder, every exchange whose answer comes from the upstream is recorded.
package final class UpstreamFirst: SteeringSource, CustomStringConvertible {
    /// Where `--record` writes the upstream's exchanges.
    package enum Recorder: Sendable {
        /// A cassette that records every request (`RecordMode.all`), or none (`RecordMode.once`
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
    /// The largest body checked; of a larger one, the status and headers are.
    static let maximumCheckedBody = 16 * 1024 * 1024
    /// The streamed bodies being copied aside for checks, on every connection at once.
    private let keptBytes = KeptBytes(limit: 64 * 1024 * 1024)
    /// The most findings an exchange's journal entry keeps (the report counts them all).
    static let maximumFindingsNoted = 100
    /// The contract's operations the upstream has answered with a status other than `404` and
    /// `501` (as `GET /users/{userId}`): built there, so their `404`s are real. At most as many as
    /// the contract has operations; kept across resets (a reset forgets what was asked, not what
    /// the upstream serves).
    private let built = LockedState<Set<String>>([])

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

    package func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        .steered(self)
    }

    package func steer(
        _ request: MockRequest, entry: FilterIndex.Entry?, in registry: MockRegistry, forwarding: Forwarding
    ) -> (outcome: PendingOutcome, entry: JournalEntry) {
        registry.answer(request, upstreamFirst: self, entry: entry, forwarding: forwarding)
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

    /// The contract operation `request` reaches, as `GET /users/{userId}`.
    func operation(of request: MockRequest) -> String? {
        contract.operationName(of: request)
    }

    /// Notes what the upstream answered `operation` with, and tells whether a `404` of it falls
    /// back to a mock: only while the upstream has answered it with nothing but `404` or `501`.
    /// A request outside the contract always may (nothing is kept for it).
    func notes(_ outcome: Outcome, of operation: String?) -> Bool {
        guard let operation else { return true }
        if case .response(let response) = outcome.result, !Self.fallbackStatuses.contains(response.status.code) {
            built.withLock { _ = $0.insert(operation) }
            return false
        }
        return built.withLock { !$0.contains(operation) }
    }

    /// Why a mock answers instead of the upstream, or `nil` when the upstream's answer goes to the
    /// client: a `404` or `501`; a connection that couldn't be made; and for a method that may be
    /// sent twice (RFC 9110, 9.2.2), no answer in time or a connection lost before the answer
    /// (another method's request may have been acted on). A cancelled forward (the client left,
    /// the server is stopping) is answered by nobody.
    static func lacking(_ outcome: Outcome, for method: HTTPMethod) -> String? {
        switch outcome.result {
        case .response(let response) where fallbackStatuses.contains(response.status.code):
            return "the upstream answered \(response.status.code)"
        case .refusal(let refusal):
            guard let error = refusal.error as? URLError,
                unreached.contains(error.code) || (method.isIdempotent && unanswered.contains(error.code))
            else { return nil }
            // The transport's reason, without the request the log line shows already.
            let reason = refusal.message.range(of: " failed: ").map { String(refusal.message[$0.upperBound...]) }
            return "the upstream could not answer (\(reason ?? refusal.message))"
        default:
            return nil
        }
    }

    private static let unreached: Set<URLError.Code> = [
        .cannotConnectToHost, .cannotFindHost, .dnsLookupFailed, .notConnectedToInternet,
    ]
    private static let unanswered: Set<URLError.Code> = [.timedOut, .networkConnectionLost, .badServerResponse]

    /// `response` on its way to the client, its exchange with `request` submitted to the watch:
    /// a whole body at once; a streamed one as it passes (see `CheckedBody`), so the client gets
    /// each piece when it comes. A body the upstream encoded anyway is not checked.
    func checking(_ response: ResolvedResponse, of request: MockRequest, journalEntry: JournalEntry) -> ResolvedResponse
    {
        let submit: @Sendable (Data, String?) -> Void = { [watch, onNewFinding] body, unchecked in
            if let unchecked { journalEntry.noteUpstream { $0.bodyUnchecked = unchecked } }
            let exchange = RecordedResponse(
                status: response.status, httpVersion: response.httpVersion, headers: response.headers, body: body)
            watch.submit(request, answeredWith: exchange) { number, checked in
                journalEntry.noteUpstream { upstream in
                    upstream.exchange = number
                    upstream.findings = Array(checked.prefix(Self.maximumFindingsNoted))
                    upstream.findingsLeftOut = max(0, checked.count - Self.maximumFindingsNoted)
                }
                for new in checked where new.isNew { onNewFinding?(request, new.finding) }
            }
        }
        if let encoding = response.headers[.contentEncoding], encoding.lowercased() != "identity" {
            submit(Data(), "the upstream sent it encoded (Content-Encoding: \(encoding))")
            return response
        }
        switch response.body {
        case .bytes(let data):
            submit(data, nil)
            return response
        case .stream(let stream):
            let isJSON = MediaType(response.headers[.contentType] ?? "application/octet-stream").isJSON
            let body = CheckedBody(keepsWhole: isJSON, budget: keptBytes, submit: submit).relay(stream)
            return ResolvedResponse(
                status: response.status, httpVersion: response.httpVersion, headers: response.headers,
                body: .stream(body), transfer: response.transfer, relayed: true)
        case .file:
            submit(Data(), "it is a file")
            return response
        }
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
}

extension MockRegistry {
    /// Sends `request` to the upstream first (see ``UpstreamFirst``): journaled as passed through
    /// (or recorded), its exchange checked, or a mock's answer instead.
    func answer(
        _ request: MockRequest, upstreamFirst source: UpstreamFirst, entry: FilterIndex.Entry?,
        forwarding: Forwarding
    ) -> (outcome: PendingOutcome, entry: JournalEntry) {
        // Recorded only once it is known that the upstream's answer goes to the client.
        let ticket = source.ticket(for: request)
        let held = ticket.map { HeldRecording($0.target) }
        let journalEntry = journaled(
            request, entry, ticket?.target.destination, nil, ticket == nil ? .passedThrough : .recorded)
        // The sources after this one are the mocks (the registry's order: lower is earlier).
        let order = entry?.order ?? .max
        let sent = forwarding.passThrough(
            UpstreamFirst.uncompressed(request),
            recording: ticket.flatMap { ticket in held.map { RecordingTicket(request: ticket.request, target: $0) } })
        let operation = source.operation(of: request)
        let next = sent.then { [self] outcome in
            var lacking = UpstreamFirst.lacking(outcome, for: request.method)
            if case .response(let response) = outcome.result, response.status.code == 404 {
                if source.notes(outcome, of: operation) {
                    if let operation { lacking? += " (it has answered \(operation) with nothing else yet)" }
                } else if let operation {
                    lacking = nil
                    journalEntry.noteUpstream {
                        $0.keptNotFound =
                            "\(operation) is built there (the upstream has answered it before), so its 404 "
                            + "is the answer"
                    }
                }
            } else {
                _ = source.notes(outcome, of: operation)
            }
            if let lacking, let mock = mockAnswer(to: request, after: order, forwarding: forwarding) {
                if case .response(let response) = outcome.result, case .stream(let stream) = response.body {
                    stream.cancel()
                }
                held?.drop()
                journalEntry.noteUpstream { $0.fallback = mock.fallback(lacking) }
                return mock.outcome
            }
            do throws(RequestMockerError) {
                try held?.keep()
            } catch {
                return .ready(Outcome(.refusal(Refusal(error))))
            }
            guard case .response(let response) = outcome.result else { return .ready(outcome) }
            var relayed = outcome
            relayed.result = .response(source.checking(response, of: request, journalEntry: journalEntry))
            return .ready(relayed)
        }
        return (next, journalEntry)
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
                let (response, captures, origin) = entry.source.answer(request, misses: &misses)?.response,
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
