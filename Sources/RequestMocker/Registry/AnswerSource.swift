/// Something a ``MockRegistry`` asks for answers: a ``RequestFilter``, a
/// ``MockDataFolder``, a ``Cassette``.
///
/// The registry tries its sources in order and the first one that doesn't miss decides the
/// request; ``MockRegistry/answer(_:forwarding:)`` turns that decision into an outcome. A new
/// kind of source is one type that conforms, in its own file.
package protocol AnswerSource: Sendable {
    /// What this source makes of `request`, or `nil` when it has nothing for it and the
    /// registry goes on to its next source; a source that misses may add to `misses` what the
    /// unmatched-request report should say.
    ///
    /// Runs outside the registry's lock, because sources run user code (predicates, request
    /// hooks) that may call back into the registry.
    func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer?

    /// Where the registry's index files the source: filters by their path's shape, so a
    /// request only meets the filters that could match it; everything else is tried for
    /// every request.
    var indexKey: FilterIndex.Key { get }
}

extension AnswerSource {
    package var indexKey: FilterIndex.Key { .general(host: nil) }
}

/// A source that takes a request's whole way in hand once it answers it, where the registry
/// would only carry a response: it journals the request itself and makes the outcome
/// (`serve --upstream-first`, in `RequestMockerOpenAPI`). Its ``AnswerSource/answer(_:misses:)``
/// says ``SourceAnswer/steered(_:)``.
package protocol SteeringSource: AnswerSource {
    /// The outcome of `request`, which this source (filed as `entry`) answers for `registry`,
    /// and the journal entry it wrote (with ``MockRegistry/journaled(_:_:_:_:_:webSocket:contractAnswer:madeLater:)``).
    func steer(
        _ request: MockRequest, entry: FilterIndex.Entry?, in registry: MockRegistry, forwarding: Forwarding
    ) -> (outcome: PendingOutcome, entry: JournalEntry)
}
