/// A filter that can never answer: a filter registered before it answers every request it
/// would, so a test that relies on it passes or fails for the wrong reason.
///
/// ```swift
/// registry.register(.get("/users/<id>"), respond: .json(["id": 1]))
/// registry.register(.get("/users/404"), respond: .status(404))
/// print(registry.diagnostics)
/// // ["GET /users/404 (UsersTests.swift:9) is shadowed by GET /users/<id> (UsersTests.swift:8): …"]
/// ```
public struct ShadowedFilter: Sendable, CustomStringConvertible {
    /// The filter that never answers.
    public let filter: RequestFilter
    /// The earlier filter that answers its requests.
    public let shadowedBy: RequestFilter

    public var description: String {
        "\(filter) is shadowed by \(shadowedBy): the earlier filter answers every request this one would; "
            + "register this one with at: .first, or narrow the earlier one"
    }
}

extension MockRegistry {
    /// The filters that can never answer, each with the filter that answers every request it
    /// would: one tried before it and registered before it (same or any method, scheme and
    /// host, a path pattern that covers its own, no conditions, and a response that never stops
    /// matching). A filter put first on purpose (`at: .first`, or a test's own filter before its
    /// suite's) overrides the ones it covers, and isn't reported.
    public var shadowedFilters: [ShadowedFilter] {
        let entries = state.withLock { $0.index.ordered }
        var found: [ShadowedFilter] = []
        // Earlier filters by the kind of path they have: an all-literal pattern only covers the
        // same pattern, so those are looked up by it; the rest are few, and each is tried.
        var literal: [[String]: [FilterIndex.Entry]] = [:]
        var general: [FilterIndex.Entry] = []
        for entry in entries {
            guard let filter = entry.filter else { continue }
            let literalKey = filter.path.flatMap(\.literalSegments)
            let candidates = (literalKey.flatMap { literal[$0] } ?? []) + general
            let shadowers = candidates.filter { $0.id < entry.id && $0.filter?.covers(filter) == true }
            if let first = shadowers.min(by: { $0.order < $1.order }), let shadower = first.filter {
                found.append(ShadowedFilter(filter: filter, shadowedBy: shadower))
            }
            guard filter.answersForever, filter.conditions.isEmpty else { continue }
            if let literalKey {
                literal[literalKey, default: []].append(entry)
            } else {
                general.append(entry)
            }
        }
        return found
    }

    /// What the registry has to say about how its filters are set up: a line for each shadowed
    /// filter (see ``shadowedFilters``) and each filter whose response always fails (see
    /// ``filterMistakes``). RequestMockerTesting reports these at the end of a test.
    public var diagnostics: [String] {
        shadowedFilters.map(\.description) + filterMistakes.map(\.description)
    }
}

extension RequestFilter {
    /// Whether this filter answers every request `later` would, so that `later`, tried after it,
    /// never answers.
    func covers(_ later: RequestFilter) -> Bool {
        // A filter that requires a scenario's state stops answering when the scenario moves on.
        guard conditions.isEmpty, answersForever, scenario?.requiredState == nil else { return false }
        if let method, method != later.method { return false }
        if let scheme, scheme.lowercased() != later.scheme?.lowercased() { return false }
        if let host, host.lowercased() != later.host?.lowercased() { return false }
        guard let path else { return true }
        guard let laterPath = later.path else { return path.matchesEveryPathAlways }
        return path.covers(laterPath)
    }

    /// Whether the response answers however many requests come (not `times(n)`, or a sequence
    /// that stops matching after its last response).
    var answersForever: Bool { response.answersForever }
}

extension MockResponse {
    /// Whether the response answers however many requests come: not a sequence that stops
    /// matching after its last response, or one whose last response (repeated from then on)
    /// does, or an empty one.
    var answersForever: Bool {
        guard case .sequence(let sequence) = content else { return true }
        guard !sequence.afterLast.stops, let last = sequence.steps.last else { return false }
        return last.response.answersForever
    }
}

extension PathPattern {
    /// Whether the pattern matches every path: `**`, or a lone `*` (which ``PathPattern`` reads
    /// as "any path").
    var matchesEveryPathAlways: Bool {
        error == nil && (segments == [.anyDepth] || segments == [.any])
    }

    /// The segments of an all-literal pattern, or `nil` when it has a wildcard or isn't valid.
    var literalSegments: [String]? {
        guard error == nil else { return nil }
        var literals: [String] = []
        for segment in segments {
            guard case .literal(let text) = segment else { return nil }
            literals.append(text)
        }
        return literals
    }

    /// Whether every path `other` matches, this pattern matches too: a table over the two
    /// patterns' segments (no recursion), where `**` here takes any run of `other`'s segments
    /// and `*` or `<name>` here takes any one segment that isn't a `**`.
    func covers(_ other: PathPattern) -> Bool {
        guard error == nil, other.error == nil else { return false }
        if matchesEveryPathAlways { return true }
        let mine = segments
        // A lone `*` matches every path, as `**` does.
        let theirs = other.matchesEveryPathAlways ? [.anyDepth] : other.segments
        // covered[i][j]: mine[i...] covers theirs[j...].
        var covered = Array(repeating: Array(repeating: false, count: theirs.count + 1), count: mine.count + 1)
        covered[mine.count][theirs.count] = true
        for i in stride(from: mine.count - 1, through: 0, by: -1) {
            for j in stride(from: theirs.count, through: 0, by: -1) {
                switch mine[i] {
                case .anyDepth:
                    covered[i][j] = covered[i + 1][j] || (j < theirs.count && covered[i][j + 1])
                case _ where j == theirs.count:
                    covered[i][j] = false
                case .any, .variable:
                    covered[i][j] = theirs[j] != .anyDepth && covered[i + 1][j + 1]
                case .literal(let text):
                    covered[i][j] = theirs[j] == .literal(text) && covered[i + 1][j + 1]
                }
            }
        }
        return covered[0][0]
    }
}
