/// Something a ``MockRegistry`` asks for answers: a ``RequestFilter``, a
/// ``MockDataDirectory``, a ``Cassette``.
///
/// The registry tries its sources in order and the first one that doesn't miss decides the
/// request; ``MockRegistry/answer(_:forwarding:)`` turns that decision into an outcome. A new
/// kind of source is one type that conforms, in its own file.
protocol AnswerSource: Sendable {
    /// What this source makes of `request`, or `nil` when it has nothing for it and the
    /// registry goes on to its next source; a source that misses may add to `misses` what the
    /// unmatched-request report should say.
    ///
    /// Runs outside the registry's lock, because sources run user code (predicates, request
    /// hooks) that may call back into the registry.
    func answer(_ request: MockRequest, misses: inout [SourceMiss]) -> SourceAnswer?

    /// Where the registry's index files the source: filters by their path's shape, so a
    /// request only meets the filters that could match it; everything else is tried for
    /// every request.
    var indexKey: FilterIndexKey { get }
}

extension AnswerSource {
    var indexKey: FilterIndexKey { .general }
}

/// What one source, or the unmatched-request policy, decided for a request.
enum SourceAnswer {
    /// Answer with this response; `captures` are the path variables a filter captured.
    case respond(MockResponse, captures: Captures, from: AnswerOrigin)
    /// Send the request to the real network and relay the answer.
    case passThrough
    /// Send the request to the real network, relay the answer and record it.
    case record(RecordingTicket)
    /// Fail the request: a mistake in the mocks (an invalid pattern, an unreadable file), or
    /// ``RequestMockerError/unmatched(_:)`` from the policy.
    case fail(RequestMockerError)
}

/// Where a response came from, for the journal.
enum AnswerOrigin {
    /// The filter or policy itself.
    case inline
    /// A mock-data file.
    case file(URL)
    /// A cassette's recording: which of its `log.entries`.
    case recording(URL, entryIndex: Int)

    var file: URL? {
        switch self {
        case .inline: nil
        case .file(let url), .recording(let url, _): url
        }
    }

    var entryIndex: Int? {
        if case .recording(_, let index) = self { index } else { nil }
    }
}

/// Why a folder or cassette had nothing, kept for the unmatched-request report (a filter that
/// misses says nothing here: the report ranks filters itself).
struct SourceMiss {
    /// The source's note for the report, made only when a report is (finding a cassette's
    /// nearest recording reads every recording).
    let note: () -> String
    /// A cassette that doesn't record promises no network: when it misses, the registry fails
    /// the request even under ``UnmatchedRequestPolicy/passThrough``.
    let forbidsNetwork: Bool
}
