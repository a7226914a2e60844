extension RequestFilter: AnswerSource {
    /// Answers with the filter's response when every check passes. A used-up response
    /// sequence misses, so the registry goes on to its next source.
    package func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        // An invalid filter ends the search: it is a mistake to report, not a miss.
        if let error = path?.error { return .fail(.invalidPathPattern(error, filter: description)) }
        guard let captures = match(request), let response = response.claimed() else { return nil }
        return .respond(response, captures: captures, from: .inline)
    }

    package var indexKey: FilterIndex.Key {
        let host = hostPattern?.indexName
        return path?.indexKey(host: host) ?? .general(host: host)
    }
}
