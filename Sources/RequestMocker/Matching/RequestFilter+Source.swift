extension RequestFilter: AnswerSource {
    /// Answers with the filter's response when every check passes. A used-up response
    /// sequence misses, so the registry goes on to its next source.
    package func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        // An invalid filter ends the search: it is a mistake to report, not a miss.
        if let error = path?.error { return .fail(.invalidPathPattern(error, filter: description)) }
        guard let captures = match(request) else { return nil }
        let claimed: MockResponse?
        if let scenario, let scenarioStates {
            // The state's check, the claim of a sequence's next response and the move: one step.
            claimed = scenarioStates.advance(scenario, session: request.header(.scenarioSession)) {
                response.claimed()
            }
        } else {
            claimed = response.claimed()
        }
        guard let claimed else { return nil }
        return .respond(claimed, captures: captures, from: .inline)
    }

    /// Why a filter whose checks all pass didn't answer `request`: its scenario is in another
    /// state, or its response sequence is used up.
    package func unansweredReason(for request: MockRequest) -> String {
        if let scenario, let required = scenario.requiredState, let scenarioStates {
            let session = request.header(.scenarioSession)
            let current = scenarioStates.state(of: scenario.name, session: session)
            if current != required {
                return "matched, but scenario \"\(scenario.name)\" is in \(current), not \(required)"
                    + (session.map { " (session \($0))" } ?? "")
            }
        }
        return "matched, but its response sequence is used up"
    }

    package var indexKey: FilterIndex.Key {
        let host = hostPattern?.indexName
        return path?.indexKey(host: host) ?? .general(host: host)
    }
}
