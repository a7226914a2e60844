import Foundation

/// How live traffic drifts from a contract, as `serve --upstream-first` watches it: each exchange
/// the upstream answers is checked, request and response, as `check --cassette` checks a
/// recording of it, and the findings are grouped into one report (`GET /__admin/drift`).
///
/// Checks run one at a time, in the order submitted, after the answer has gone to the client, so
/// checking costs the client no time (a check takes longer than relaying: parsing and validating
/// the body). While more than ``maximumWaiting`` exchanges wait, a check runs in place instead,
/// and the client waits for it rather than memory grow. ``settle()`` waits for those submitted.
///
/// A finding quotes the value that broke the schema, unless the value's name marks it as a secret
/// (``SecretNames``): then the value is left out. The report starts over when the contract is
/// reloaded (an edited file: its operations are others) and on ``reset()``.
package final class DriftWatch: Sendable {
    private let source: ContractSource

    private struct State: Sendable {
        /// The contract's revision the check and report are about.
        var revision: Int
        var check: ContractCheck
        var report: DriftReport
        /// Exchanges checked since the start: the next one's number, as a cassette's entry index.
        var exchanges = 0

        init(_ contract: OpenAPIContract, revision: Int, basePath: String?) {
            self.revision = revision
            check = ContractCheck(contract, basePath: basePath)
            report = DriftReport(findings: [], check: check)
        }
    }

    private let state: LockedState<State>

    /// Where the checks run.
    private let queue = DispatchQueue(label: "RequestMocker.DriftWatch")
    /// Exchanges submitted and not yet checked, and the bytes of their bodies.
    private let waiting = LockedState<(count: Int, bytes: Int)>((0, 0))
    /// The most exchanges, and body bytes, that wait to be checked.
    static let maximumWaiting = (count: 1_000, bytes: 64 * 1024 * 1024)

    init(_ source: ContractSource) {
        self.source = source
        let (contract, revision) = source.revision
        state = LockedState(State(contract, revision: revision, basePath: source.basePath))
    }

    /// One exchange's findings, each with whether it is the first of its kind since the start.
    package struct Checked: Sendable {
        package let finding: ContractCheck.Finding
        package let isNew: Bool
    }

    /// Checks `request` answered with `response` soon (see ``check(_:answeredWith:)``), then
    /// hands the findings to `done`, on the thread that checked.
    func submit(
        _ request: MockRequest, answeredWith response: RecordedResponse,
        then done: @escaping @Sendable ([Checked]) -> Void
    ) {
        let size = response.body.count + (request.body?.count ?? 0)
        let queued = waiting.withLock { waiting in
            guard waiting.count < Self.maximumWaiting.count, waiting.bytes + size <= Self.maximumWaiting.bytes
            else { return false }
            waiting.count += 1
            waiting.bytes += size
            return true
        }
        guard queued else {
            done(check(request, answeredWith: response))
            return
        }
        queue.async {
            done(self.check(request, answeredWith: response))
            self.waiting.withLock { waiting in
                waiting.count -= 1
                waiting.bytes -= size
            }
        }
    }

    /// Waits until the checks submitted so far are done: before the report or the journal is
    /// read.
    package func settle() {
        queue.sync {}
    }

    /// Checks `request` answered with `response` (its body whole, or empty to check only its
    /// status and headers) and adds the findings to the report.
    func check(_ request: MockRequest, answeredWith response: RecordedResponse) -> [Checked] {
        let (contract, revision) = source.revision
        let (check, exchange) = state.withLock { state in
            if state.revision != revision {
                state = State(contract, revision: revision, basePath: source.basePath)
            }
            defer { state.exchanges += 1 }
            return (state.check, state.exchanges)
        }
        // The request line without its query: a place, as a recording's file is.
        let place = "\(request.method.rawValue) \(request.path)"
        let findings = check.check(request, answeredWith: response, at: place, checkingRequest: true).map {
            var finding = Self.hidingSecretValue($0)
            finding.entry = exchange
            return finding
        }
        return state.withLock { state in
            // Checked against a contract reloaded meanwhile: not part of the new one's report.
            guard state.revision == revision else { return findings.map { Checked(finding: $0, isNew: false) } }
            return findings.map { Checked(finding: $0, isNew: state.report.add($0)) }
        }
    }

    /// What was found since the start (or the last reset), with the coverage so far: the JSON of
    /// `check --format json`.
    package var report: DriftReport {
        settle()
        return state.withLock { state in
            var report = state.report
            report.noteCoverage(of: state.check)
            return report
        }
    }

    /// `finding` without the value it quotes when the value's name (a member on its pointer, a
    /// parameter or header) marks it as a secret: what a recording of the exchange would have
    /// redacted, found without redacting every exchange.
    static func hidingSecretValue(_ finding: ContractCheck.Finding) -> ContractCheck.Finding {
        guard finding.rule == .schema, let pointer = finding.pointer else { return finding }
        let names =
            pointer.hasPrefix("/")
            ? pointer.split(separator: "/").map { $0.replacingOccurrences(of: "~1", with: "/") }
            : [pointer.split(separator: " ").last.map(String.init) ?? pointer]
        let location = pointer.hasPrefix("header ") ? SecretNames.isSecretHeader : SecretNames.isSecretField
        guard names.contains(where: location), let at = finding.message.range(of: pointer + ": ") else {
            return finding
        }
        var hidden = finding
        hidden.message =
            finding.message[..<at.lowerBound] + pointer
            + ": the value breaks its schema (not shown: its name marks a secret)"
        return hidden
    }

    /// Starts the report over (`POST /__admin/reset`).
    package func reset() {
        let (contract, revision) = source.revision
        state.withLock { $0 = State(contract, revision: revision, basePath: source.basePath) }
    }
}
