import Foundation
import RequestMocker

/// The kinds of drift between a contract and recorded traffic, as `check --format json`, SARIF
/// and ``ContractDrift`` name them.
///
/// ```swift
/// let undocumented = drift.findings.filter { $0.rule == .undocumentedProperty }
/// ```
public enum DriftRule: String, Sendable, Hashable, CaseIterable {
    /// A request to a method and path the contract lacks.
    case undocumentedOperation = "undocumented-operation"
    /// A status the operation declares no response for (nor `NXX`, nor `default`).
    case undocumentedStatus = "undocumented-status"
    /// A body's media type the operation doesn't declare.
    case undocumentedMediaType = "undocumented-media-type"
    /// A query parameter the operation doesn't declare.
    case undocumentedParameter = "undocumented-parameter"
    /// A body's member the schema doesn't declare (where it allows others).
    case undocumentedProperty = "undocumented-property"
    /// A value that breaks its schema, a missing required header or parameter.
    case schema
    /// A request that shows none of the credentials its operation's security asks for.
    case security

    /// What the rule finds, for SARIF's rule descriptions.
    public var summary: String {
        switch self {
        case .undocumentedOperation: "A method and path the contract doesn't declare"
        case .undocumentedStatus: "A response status the operation doesn't declare"
        case .undocumentedMediaType: "A body media type the operation doesn't declare"
        case .undocumentedParameter: "A query parameter the operation doesn't declare"
        case .undocumentedProperty: "A body member the schema doesn't declare"
        case .schema: "A value that breaks the contract's schema"
        case .security: "A request without the credentials its operation's security asks for"
        }
    }
}

extension CheckRule {
    /// `rule` as the findings of `check --openapi` carry it.
    init(_ rule: DriftRule) {
        self.init(rawValue: rule.rawValue, summary: rule.summary)
    }

    static let undocumentedOperation = CheckRule(DriftRule.undocumentedOperation)
    static let undocumentedStatus = CheckRule(DriftRule.undocumentedStatus)
    static let undocumentedMediaType = CheckRule(DriftRule.undocumentedMediaType)
    static let undocumentedParameter = CheckRule(DriftRule.undocumentedParameter)
    static let undocumentedProperty = CheckRule(DriftRule.undocumentedProperty)
    static let security = CheckRule(DriftRule.security)
}

extension DriftReport {
    /// The report of `check --openapi`: `findings`, and the operations and statuses `check`
    /// saw reached.
    package init(findings: [CheckFinding], check: ContractCheck) {
        self.init(findings: findings, rules: DriftRule.allCases.map(CheckRule.init))
        noteCoverage(of: check)
    }

    /// An empty report of `serve --upstream-first`'s drift that lists at most `maximumGroups`
    /// kinds of finding.
    package init(maximumGroups: Int) {
        self.init(maximumGroups: maximumGroups, rules: DriftRule.allCases.map(CheckRule.init))
    }

    /// Takes the operations and statuses reached from `check`'s coverage.
    package mutating func noteCoverage(of check: ContractCheck) {
        let reached = check.coverage.statuses
        operations = check.contract.operations.enumerated().map { offset, operation in
            (operation.description, operation.statuses, reached[offset] ?? [], reached[offset] != nil)
        }
    }
}

/// How recorded traffic drifted from a contract, as values a test can assert on: what
/// `request-mocker check --cassette` reports, from ``OpenAPIContract/drift(in:basePath:)``.
///
/// ```swift
/// let drift = contract.drift(in: cassette.interactions)
/// #expect(drift.findings.filter(\.isError).isEmpty, "\(drift.findings)")
/// #expect(drift.neverSeen.isEmpty)   // every operation and status was exercised
/// ```
public struct ContractDrift: Sendable {
    /// One kind of finding: its rule and place in the contract, the first message, how often it
    /// was seen and the indices of the first three exchanges that showed it.
    public struct Finding: Sendable, Hashable, CustomStringConvertible {
        public let rule: DriftRule
        /// Whether it breaks the contract (`false`: it is only undocumented).
        public let isError: Bool
        /// The operation's `operationId`, else its method and template (`GET /pets/{petId}`).
        public let operation: String?
        public let status: Int?
        public let mediaType: String?
        /// `request` or `response`.
        public let location: String?
        /// The JSON pointer of the value, or the parameter (`query sort`).
        public let pointer: String?
        public let message: String
        public let count: Int
        /// Where in the exchanges checked it was seen (the first three).
        public let exchanges: [Int]

        /// `error: GET /pets/{petId} 200: /id: expected integer, got "2" (2 times)`.
        public var description: String {
            (isError ? "error: " : "warning: ") + message + (count > 1 ? " (\(count) times)" : "")
        }
    }

    /// Each kind of finding once, in the order first seen.
    public let findings: [Finding]
    /// The operations, and each operation's declared statuses (`getPet 404`), that no exchange
    /// reached.
    public let neverSeen: [String]
    package let report: DriftReport

    /// The report as `check --format json` writes it.
    ///
    /// ```swift
    /// try drift.json().write(to: URL(fileURLWithPath: "drift.json"))
    /// ```
    public func json() -> Data { (try? report.json.serialized(pretty: true)) ?? Data() }

    /// The report as a SARIF 2.1.0 log, as `check --format sarif` writes it.
    ///
    /// ```swift
    /// try drift.sarif().write(to: URL(fileURLWithPath: "drift.sarif"))
    /// ```
    public func sarif() -> Data { (try? report.sarif.serialized(pretty: true)) ?? Data() }
}

extension OpenAPIContract {
    /// Checks recorded exchanges against the contract, requests and responses alike, as
    /// `request-mocker check --cassette` does.
    ///
    /// ```swift
    /// let cassette = try Cassette(contentsOf: URL(fileURLWithPath: "traffic.har"), record: .none)
    /// let drift = contract.drift(in: cassette.interactions)
    /// for finding in drift.findings { print(finding) }
    /// ```
    ///
    /// - Parameters:
    ///   - interactions: the exchanges; a transport error is skipped.
    ///   - basePath: the prefix the operations are under, when not the first server URL's path.
    public func drift(in interactions: [Interaction], basePath: String? = nil) -> ContractDrift {
        let check = ContractCheck(self, basePath: basePath)
        var findings: [ContractCheck.Finding] = []
        for (index, interaction) in interactions.enumerated() {
            guard let response = interaction.response else { continue }
            let request = interaction.request
            findings += check.check(
                request, answeredWith: response, at: "\(request.method.rawValue) \(request.path)", checkingRequest: true
            ).map { finding in
                var finding = finding
                finding.exchange = index
                return finding
            }
        }
        let report = DriftReport(findings: findings, check: check)
        let neverSeen = report.operations.flatMap { operation in
            !operation.exercised
                ? [operation.name]
                : operation.declared.filter { !operation.reached.contains($0) }.map { "\(operation.name) \($0)" }
        }
        return ContractDrift(
            findings: report.groups.map { group in
                let finding = group.finding
                return ContractDrift.Finding(
                    rule: DriftRule(rawValue: finding.rule.rawValue) ?? .schema, isError: finding.isError,
                    operation: finding.operation, status: finding.status,
                    mediaType: finding.mediaType, location: finding.location, pointer: finding.pointer,
                    message: finding.message, count: group.count, exchanges: group.examples.compactMap(\.exchange))
            }, neverSeen: neverSeen, report: report)
    }
}
