/// What one source, or the unmatched-request policy, decided for a request.
package enum SourceAnswer {
    /// Why a folder or cassette had nothing, kept for the unmatched-request report (a filter that
    /// misses says nothing here: the report ranks filters itself).
    package struct Miss {
        /// The source's note for the report, made only when a report is (finding a cassette's
        /// nearest recording reads every recording).
        package let note: () -> String
        /// A cassette that doesn't record promises no network: when it misses, the registry fails
        /// the request even under ``UnmatchedRequestPolicy/passThrough``.
        package let forbidsNetwork: Bool

        package init(note: @escaping () -> String, forbidsNetwork: Bool) {
            self.note = note
            self.forbidsNetwork = forbidsNetwork
        }
    }

    /// Where a response came from, for the journal.
    package enum Origin: Sendable {
        /// The filter or policy itself.
        case inline
        /// A mock-data file.
        case file(URL)
        /// A cassette's recording: which of its `log.entries`.
        case recording(URL, entryIndex: Int)
        /// A contract, and how it answered.
        case contract(URL, ContractAnswer)

        package var file: URL? {
            switch self {
            case .inline: nil
            case .file(let url), .recording(let url, _), .contract(let url, _): url
            }
        }

        package var entryIndex: Int? {
            if case .recording(_, let index) = self { index } else { nil }
        }

        package var contractAnswer: ContractAnswer? {
            if case .contract(_, let answer) = self { answer } else { nil }
        }
    }

    /// Answer with this response; `captures` are the path variables a filter captured.
    case respond(MockResponse, captures: Captures, from: Origin)
    /// Answer with what `make` makes: the source answers this request, but making the answer
    /// takes time (a contract's generated body, a mock-data file read and parsed), so it is made
    /// where the transport runs slow work: off URL loading's queue, which every session in the
    /// process shares (see ``Forwarding/makesSlowAnswersElsewhere``). `file` is known now, for
    /// the journal; `make` runs once.
    case respondLater(file: URL, make: @Sendable () -> Made)

    /// What a source's answer made later (``respondLater(file:make:)``) turned out to be.
    package enum Made: Sendable {
        case respond(MockResponse, from: Origin)
        /// A mistake in the mocks: a file that can't be read or parsed.
        case fail(RequestMockerError)

        /// The same, as the answer the source would have given at once.
        var answer: SourceAnswer {
            switch self {
            case .respond(let response, let origin): .respond(response, captures: Captures(), from: origin)
            case .fail(let mistake): .fail(mistake)
            }
        }
    }
    /// Send the request to the real network and relay the answer.
    case passThrough
    /// Send the request to the real network, relay the answer and record it.
    case record(RecordingTicket)
    /// Leave the request's whole way to this source, which journals it and makes its outcome:
    /// `serve --upstream-first` sends it to the upstream first, checks the exchange against a
    /// contract, and lets the sources after it answer what the upstream lacks.
    case steered(any SteeringSource)
    /// Fail the request: a mistake in the mocks (an invalid pattern, an unreadable file), or
    /// ``RequestMockerError/unmatched(_:)`` from the policy.
    case fail(RequestMockerError)

    /// The response, its captures and its origin, when this is an answer with a response: one
    /// made later is made now (for a caller on a thread that may take the time).
    package var response: (response: MockResponse, captures: Captures, origin: Origin)? {
        switch self {
        case .respond(let response, let captures, let origin):
            return (response, captures, origin)
        case .respondLater(_, let make):
            guard case .respond(let response, let origin) = make() else { return nil }
            return (response, Captures(), origin)
        case .passThrough, .record, .steered, .fail:
            return nil
        }
    }
}
