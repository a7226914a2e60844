/// How a contract answered one request: the operation, the status, and where the body came
/// from. The journal keeps it (``JournalEntry/contractAnswer``); the `RequestMocker-OpenAPI`
/// header and the server's log show it the same way: `getPet 200 example dog`.
///
/// A contract kind's module makes it (`RequestMockerOpenAPI` calls it `OpenAPIContract.Answer`);
/// the core only carries it, so the journal and the end-of-test reports read every contract kind
/// alike.
///
/// ```swift
/// let answer = try #require(registry.journal.last?.contractAnswer)
/// #expect("\(answer)" == "getPet 200 example dog")
/// #expect(answer.violations.isEmpty)
/// ```
public struct ContractAnswer: Sendable, Hashable, CustomStringConvertible {
    /// The `operationId`, else the method and the path template.
    public let operation: String
    public let status: Int
    /// `example` (the media type's single example), `example NAME`, `schema example`,
    /// `generated`, `dynamic SEED`, either with ` minimal` after it (the smallest valid body,
    /// made because the full one passes the bounds on a body's size), `empty` (no body), or
    /// `problem` (the contract source's own problem+json).
    public let how: String
    /// What the request broke, one line each (`query limit: expected integer, got "x"`).
    public let violations: [String]
    /// What the request does that the contract doesn't declare, though no server would refuse
    /// it, one line each (`warning: query acitve: the operation declares no query parameter
    /// of this name`). Never a reason to refuse, nor an end-of-test issue.
    public package(set) var warnings: [String] = []
    /// The kind of contract that answered, as the log names it: `openapi` or `graphql`.
    package var kind = "openapi"

    public var description: String { "\(operation) \(status) \(how)" }

    package init(operation: String, status: Int, how: String, violations: [String], warnings: [String] = []) {
        self.operation = operation
        self.status = status
        self.how = how
        self.violations = violations
        self.warnings = warnings
    }
}
