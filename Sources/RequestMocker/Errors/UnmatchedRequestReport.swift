/// Why a request matched nothing: the request, the nearest filters, and for each the first
/// condition that failed.
///
/// ```text
/// no filter matched GET https://api.test/users/42/posts
///   nearest filters, closest first:
///     GET /users/<id> (UserTests.swift:12): path /users/42/posts has 3 segments, pattern /users/<id> has 2
///     POST /users/<id>/posts (UserTests.swift:13): method is GET, filter wants POST
///   (2 filters registered)
/// ```
public struct UnmatchedRequestReport: Sendable, CustomStringConvertible {
    /// One filter that came close.
    public struct Candidate: Sendable, Hashable {
        /// The filter, as ``RequestFilter/description`` shows it.
        public let filter: String
        /// The first condition that failed, in words.
        public let reason: String
        /// Every check the request failed, in words, in the filter's order (the first is
        /// ``reason``): the method, the host, the path, each query item, header or body condition.
        /// A request that fails one check here is one edit away from matching.
        public let differences: [String]
    }

    /// The request, `METHOD URL`.
    public let request: String
    /// The closest filters, closest first (at most three).
    public let candidates: [Candidate]
    /// How many filters the registry held.
    public let filterCount: Int
    /// Further hints, such as the hidden body of a Linux upload task.
    public let notes: [String]

    /// How many filters a report lists.
    static let maximumCandidates = 3

    public var description: String {
        var lines = ["no filter matched \(request)"]
        if candidates.isEmpty {
            if notes.isEmpty { lines.append("  the registry has no filters; register one with registry.register(...)") }
        } else {
            lines.append("  nearest filters, closest first:")
            lines += candidates.map { "    \($0.filter): \($0.reason)" }
            lines.append("  (\(filterCount) filter\(filterCount == 1 ? "" : "s") registered)")
        }
        lines += notes.map { "  note: \($0)" }
        return lines.joined(separator: "\n")
    }
}
