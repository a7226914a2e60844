/// What a registry does with a request no filter matches.
///
/// ```swift
/// let registry = MockRegistry(unmatchedPolicy: .fail)              // the default for new registries
/// MockRegistry.shared.unmatchedPolicy = .passThrough                 // the shared registry's default
/// let strict = MockRegistry(unmatchedPolicy: .respond(.status(404))) // misses get an empty 404
/// ```
public struct UnmatchedRequestPolicy: Sendable {
    enum Kind: Sendable {
        case fail
        case passThrough
        case respond(MockResponse)
    }

    let kind: Kind

    /// Fail the request with ``RequestMockerError/unmatched(_:)``, whose description lists the
    /// nearest filters and why each missed. The default for every registry you create.
    public static let fail = UnmatchedRequestPolicy(kind: .fail)

    /// Send the request to the real network through RequestMocker's own inner `URLSession` and
    /// relay the answer, as an unmocked session would. The default for ``MockRegistry/shared``.
    /// The request is still written to the journal.
    public static let passThrough = UnmatchedRequestPolicy(kind: .passThrough)

    /// Answer with a fixed response, for example `.status(404)`.
    public static func respond(_ response: MockResponse) -> UnmatchedRequestPolicy {
        UnmatchedRequestPolicy(kind: .respond(response))
    }
}
