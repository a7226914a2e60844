extension MockRegistry {
    /// Decides `request` and turns the decision into the outcome a transport carries: the one
    /// place a decision is acted on, for `MockURLProtocol` and `MockServer` alike.
    ///
    /// The request is journaled before its response resolves, so a block sees its own request
    /// in the journal.
    ///
    /// - Returns: the outcome, ready or pending, and the journal entry written for the request.
    package func answer(
        _ request: MockRequest, forwarding: Forwarding
    ) -> (outcome: PendingOutcome, entry: JournalEntry) {
        let (answer, entry) = decide(request)
        return act(on: answer, for: request, entry: entry, forwarding: forwarding)
    }

    /// The outcome of `answer`, the decision for `request`, and its journal entry.
    private func act(
        on answer: SourceAnswer, for request: MockRequest, entry: FilterIndex.Entry?, forwarding: Forwarding
    ) -> (outcome: PendingOutcome, entry: JournalEntry) {
        switch answer {
        case .respond(let response, let captures, let origin):
            let disposition: JournalEntry.Disposition =
                response.passesThrough ? .passedThrough : entry == nil ? .answeredByPolicy : .answered
            let transcript = request.asksForWebSocket ? WebSocketTranscript() : nil
            let journalEntry = journaled(
                request, entry, origin.file, origin.entryIndex, disposition, webSocket: transcript,
                contractAnswer: origin.contractAnswer)
            let context = MockResponse.ResolutionContext(
                request: request, captures: captures, entry: entry, transcript: transcript, forwarding: forwarding)
            return (response.resolve(context), journalEntry)
        case .respondLater(let file, let make):
            // A transport that makes slow answers in place gets the answer as if the source had
            // given it at once: journaled as it turned out.
            guard forwarding.makesSlowAnswersElsewhere else {
                return act(on: make().answer, for: request, entry: entry, forwarding: forwarding)
            }
            // Journaled now, in the order of arrival; what the contract made of it is noted once
            // it is made, and read through `JournalEntry.contractAnswer`, which waits for it.
            let journalEntry = journaled(request, entry, file, nil, .answered, madeLater: true)
            let resolve: @Sendable () -> PendingOutcome = {
                switch make() {
                case .respond(let response, let origin):
                    journalEntry.noteAnswerMade(contractAnswer: origin.contractAnswer)
                    let context = MockResponse.ResolutionContext(
                        request: request, captures: Captures(), entry: entry, transcript: nil, forwarding: forwarding)
                    return response.resolve(context)
                case .fail(let mistake):
                    journalEntry.noteAnswerMade(contractAnswer: nil)
                    return .ready(Outcome(.refusal(Refusal(mistake))))
                }
            }
            return (.blocking(resolve), journalEntry)
        case .passThrough:
            return (
                forwarding.passThrough(request, recording: nil), journaled(request, entry, nil, nil, .passedThrough)
            )
        case .steered(let source):
            return source.steer(request, entry: entry, in: self, forwarding: forwarding)
        case .record(let ticket):
            let journalEntry = journaled(request, entry, ticket.target.destination, nil, .recorded)
            return (forwarding.passThrough(request, recording: ticket), journalEntry)
        case .fail(let mistake):
            let disposition: JournalEntry.Disposition
            if case .unmatched(let report) = mistake {
                disposition = .unmatched(report)
            } else {
                disposition = .failed("\(mistake)")
            }
            return (.ready(Outcome(.refusal(Refusal(mistake)))), journaled(request, entry, nil, nil, disposition))
        }
    }

    /// Walks the sources in order and returns the first answer that isn't a miss, with its
    /// entry; when every source misses, the unmatched-request policy's answer, with none.
    ///
    /// Matching runs on a copy of the index taken under the lock, so user predicates and block
    /// responses never run while the registry is locked and may call back into it.
    private func decide(_ request: MockRequest) -> (SourceAnswer, FilterIndex.Entry?) {
        let (snapshot, policy) = state.withLock { ($0.index, $0.unmatchedPolicy) }
        var misses: [SourceAnswer.Miss] = []
        var found = snapshot.firstResult(for: request) { entry in
            entry.source.answer(request, misses: &misses).map { ($0, entry) }
        }
        // Moved out, not copied: the answer holds a whole response.
        if let found = found.take() { return found }
        switch policy.kind {
        // A cassette that doesn't record promises no network: its misses fail even when the
        // policy would pass them through.
        case .passThrough where !misses.contains(where: \.forbidsNetwork):
            return (.passThrough, nil)
        case .passThrough, .fail:
            let report = UnmatchedRequestReport(request: request, index: snapshot, misses: misses)
            return (.fail(.unmatched(report)), nil)
        case .respond(let response):
            return (.respond(response.claimed() ?? .status(404), captures: Captures(), from: .inline), nil)
        }
    }

    package func journaled(
        _ request: MockRequest, _ entry: FilterIndex.Entry?, _ file: URL?, _ entryIndex: Int?,
        _ disposition: JournalEntry.Disposition, webSocket: WebSocketTranscript? = nil,
        contractAnswer: ContractAnswer? = nil, madeLater: Bool = false
    ) -> JournalEntry {
        let journalEntry = JournalEntry(
            request: request, entry: entry, file: file, entryIndex: entryIndex, disposition: disposition,
            webSocket: webSocket, contractAnswer: contractAnswer, madeLater: madeLater)
        appendToJournal(journalEntry)
        return journalEntry
    }
}

extension UnmatchedRequestReport {
    /// The most filters a report compares with the request, so a miss among 100,000 filters
    /// costs milliseconds: the ones the index offered for the request's path and host first,
    /// then the earliest registered.
    static let maximumCompared = 1_000

    init(request: MockRequest, index: FilterIndex, misses: [SourceAnswer.Miss] = []) {
        var compared: [FilterIndex.Entry] = []
        var seen: Set<Int> = []
        let limit = Self.maximumCompared
        _ = index.firstResult(for: request) { entry -> Bool? in
            if entry.filter != nil, seen.insert(entry.id).inserted { compared.append(entry) }
            return compared.count >= limit ? true : nil
        }
        if compared.count < limit {
            for entry in index.leading(limit) where entry.filter != nil && compared.count < limit {
                if seen.insert(entry.id).inserted { compared.append(entry) }
            }
        }
        compared.sort { $0.order < $1.order }
        let filterCount = index.entries.values.count { $0.filter != nil }
        var notes: [String] = []
        if filterCount > compared.count {
            notes.append(
                "\(compared.count) of the \(filterCount) filters were compared: those for this path and host, "
                    + "then the earliest registered")
        }
        self.init(
            request: request, filters: compared.compactMap(\.filter), filterCount: filterCount, misses: misses,
            notes: notes)
    }

    init(
        request: MockRequest, filters: [RequestFilter], filterCount: Int? = nil, misses: [SourceAnswer.Miss] = [],
        notes extra: [String] = []
    ) {
        let ranked = filters.enumerated()
            .map { position, filter in
                (position: position, filter: filter, evaluation: filter.evaluate(request, stoppingAtFirstMiss: false))
            }
            .sorted { ($0.evaluation.passed, -$0.position) > ($1.evaluation.passed, -$1.position) }
            .prefix(Self.maximumCandidates)
        var notes = extra + misses.map { $0.note() }
        if request.bodyHiddenByUploadTask {
            notes.append(
                "this came from an upload task without a body: the platform hid it from URL protocols "
                    + "(Linux always does), so body conditions cannot match; send the body with data(for:) "
                    + "and httpBody instead")
        }
        self.init(
            request: request.description,
            candidates: ranked.map {
                Candidate(
                    filter: $0.filter.description,
                    reason: $0.evaluation.firstMiss?.reason(for: request) ?? $0.filter.unansweredReason(for: request),
                    differences: $0.evaluation.misses.isEmpty
                        ? [$0.filter.unansweredReason(for: request)]
                        : $0.evaluation.misses.map { $0.reason(for: request) }
                )
            },
            filterCount: filterCount ?? filters.count,
            notes: notes
        )
    }
}
