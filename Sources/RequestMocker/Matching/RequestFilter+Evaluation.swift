/// A filter's checks against one request, folded in one pass: how close the request came,
/// which check missed first, and the captured path variables.
///
/// Matching and the unmatched-request report both come from ``RequestFilter/evaluate(_:stoppingAtFirstMiss:)``,
/// so the report can't disagree with the decision it explains.
struct FilterEvaluation {
    /// The check a request failed, put into words only when a report needs them.
    enum Miss {
        case scheme(String)
        case method(HTTPMethod)
        case host(HostPattern)
        case path(PathPattern)
        /// A condition's own words, made when it was checked.
        case condition(String)

        func reason(for request: MockRequest) -> String {
            switch self {
            case .scheme(let scheme): "scheme is \(request.scheme), filter wants \(scheme)"
            case .method(let method): "method is \(request.method), filter wants \(method)"
            case .host(let host):
                "host is \(request.host ?? "(none)")\(request.url.port.map { ":\($0)" } ?? ""), filter wants \(host)"
            case .path(let path): path.mismatch(segments: request.pathSegments) ?? "path does not match \(path)"
            case .condition(let words): words
            }
        }
    }

    /// Checks passed; a matching path counts double, so a filter with the right path and the
    /// wrong method ranks nearer than one with the right method and the wrong path.
    var passed = 0
    var firstMiss: FilterEvaluation.Miss?
    /// Every check that missed, in order, when the fold doesn't stop at the first (a report's).
    var misses: [FilterEvaluation.Miss] = []
    var captures = Captures()
    fileprivate let stops: Bool

    /// Notes one check; returns whether the fold ends here.
    fileprivate mutating func ends(
        after holds: Bool, _ miss: @autoclosure () -> FilterEvaluation.Miss, weight: Int = 1
    ) -> Bool {
        if holds {
            passed += weight
            return false
        }
        if stops {
            if firstMiss == nil { firstMiss = miss() }
            return true
        }
        let missed = miss()
        if firstMiss == nil { firstMiss = missed }
        misses.append(missed)
        return false
    }
}

extension RequestFilter {
    /// Every check in order: scheme, method, host, path, then the conditions in the order they
    /// were added. Matching stops at the first miss; a report goes on, to rank the filter.
    func evaluate(_ request: MockRequest, stoppingAtFirstMiss stops: Bool) -> FilterEvaluation {
        var evaluation = FilterEvaluation(stops: stops)
        if let scheme, evaluation.ends(after: scheme.caseInsensitiveEquals(request.scheme), .scheme(scheme)) {
            return evaluation
        }
        if let method, evaluation.ends(after: method == request.method, .method(method)) { return evaluation }
        if let hostPattern, evaluation.ends(after: hostPattern.matches(request), .host(hostPattern)) {
            return evaluation
        }
        if let path {
            let captures = path.match(segments: request.pathSegments)
            if let captures { evaluation.captures = captures }
            if evaluation.ends(after: captures != nil, .path(path), weight: 2) { return evaluation }
        }
        for condition in conditions {
            let words = condition.mismatch(request)
            if evaluation.ends(after: words == nil, .condition(words ?? "")) { return evaluation }
        }
        return evaluation
    }
}
