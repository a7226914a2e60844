import Foundation
import RequestMocker

/// How live traffic drifts from a contract, as `serve --upstream-first` watches it: each exchange
/// the upstream answers is checked, request and response, as `check --cassette` checks a
/// recording of it, and the findings are grouped into one report (`GET /__admin/drift`).
///
/// Checks run one at a time, in the order submitted (as a whole body is written to the client, or
/// a streamed one has ended), so checking costs the client no time (a check takes longer than
/// relaying: parsing and validating the body). While 1,000 exchanges (or 64 MiB of their bodies)
/// wait, the next submitter waits until its own is checked, rather than memory grow. ``settle()``
/// waits for those submitted.
///
/// A finding quotes the value that broke the schema, unless a name on the way to it, or in it,
/// marks it as a secret (`SecretNames`): then the value is left out. The report starts over when
/// the contract is reloaded (an edited file: its operations are others) and on ``reset()``.
package final class DriftWatch: Sendable {
    private let source: ContractSource
    /// The most kinds of finding the report lists.
    private let maximumKinds: Int

    private struct State: Sendable {
        /// Which report this is: a new one for each reset and each reload of the contract, so a
        /// check that began before is not counted in it.
        var epoch: Int
        /// The contract's revision the check and report are about.
        var revision: Int
        var check: ContractCheck
        var report: DriftReport
        /// Exchanges checked since the start: the next one's number, as a cassette's entry index.
        var exchanges = 0
    }

    private let state: LockedState<State>

    /// Where the checks run.
    private let queue = DispatchQueue(label: "RequestMocker.DriftWatch")
    /// Exchanges submitted and not yet checked, and the bytes of their bodies.
    private let waiting = LockedState<(count: Int, bytes: Int)>((0, 0))
    /// The most exchanges, and body bytes, that wait to be checked.
    private let maximumWaiting: (count: Int, bytes: Int)
    /// How many submitters waited for their own check, the bound reached.
    private let waitedInTurn = LockedState(0)

    init(
        _ source: ContractSource, maximumKinds: Int = 10_000,
        maximumWaiting: (count: Int, bytes: Int) = (1_000, 64 * 1024 * 1024)
    ) {
        self.source = source
        self.maximumKinds = maximumKinds
        self.maximumWaiting = maximumWaiting
        state = LockedState(Self.fresh(source, maximumKinds: maximumKinds, epoch: 0))
    }

    /// An empty report of `epoch`, about the contract served now.
    private static func fresh(_ source: ContractSource, maximumKinds: Int, epoch: Int) -> State {
        let (contract, revision) = source.revision
        return State(
            epoch: epoch, revision: revision, check: ContractCheck(contract, basePath: source.basePath),
            report: DriftReport(maximumGroups: maximumKinds))
    }

    /// `state` for the contract served now: a new report when it was reloaded since.
    private func current(_ state: inout State) {
        guard state.revision != source.revisionNumber else { return }
        state = Self.fresh(source, maximumKinds: maximumKinds, epoch: state.epoch + 1)
    }

    /// One exchange's findings, each with whether it is the first of its kind since the start.
    package struct Checked: Sendable {
        package let finding: ContractCheck.Finding
        package let isNew: Bool
    }

    /// Checks `request` answered with `response` soon (see ``check(_:answeredWith:)``), then
    /// hands the exchange's number and findings to `done`, on the thread that checked.
    func submit(
        _ request: MockRequest, answeredWith response: RecordedResponse,
        then done: @escaping @Sendable (_ exchange: Int, _ findings: [Checked]) -> Void
    ) {
        let size = response.body.count + (request.body?.count ?? 0)
        // The report it belongs to is the one of its time: a reset meanwhile leaves it out.
        let epoch = state.withLock { state in
            current(&state)
            return state.epoch
        }
        let queued = waiting.withLock { waiting in
            guard waiting.count < maximumWaiting.count, waiting.bytes + size <= maximumWaiting.bytes
            else { return false }
            waiting.count += 1
            waiting.bytes += size
            return true
        }
        guard queued else {
            // In turn, after those waiting: the submitter waits.
            waitedInTurn.withLock { $0 += 1 }
            queue.sync {
                let (exchange, findings) = check(request, answeredWith: response, epoch: epoch)
                done(exchange, findings)
            }
            return
        }
        queue.async {
            let (exchange, findings) = self.check(request, answeredWith: response, epoch: epoch)
            done(exchange, findings)
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

    /// How many submitters have waited for their own check, the bound reached.
    var submittersThatWaited: Int { waitedInTurn.withLock { $0 } }

    /// Checks `request` answered with `response` (its body whole, or empty to check only its
    /// status and headers) and adds the findings to the report of `epoch` (by default the one of
    /// now), unless another has begun since; returns the exchange's number with them.
    func check(
        _ request: MockRequest, answeredWith response: RecordedResponse, epoch submitted: Int? = nil
    ) -> (Int, [Checked]) {
        let (check, epoch, exchange) = state.withLock { state in
            current(&state)
            defer { state.exchanges += 1 }
            return (state.check, submitted ?? state.epoch, state.exchanges)
        }
        // The request line without its query: a place, as a recording's file is.
        let place = "\(request.method.rawValue) \(request.path)"
        let findings = check.check(request, answeredWith: response, at: place, checkingRequest: true).map {
            var finding = Self.hidingSecretValue($0)
            finding.exchange = exchange
            return finding
        }
        return state.withLock { state in
            // Begun before a reset or a reload: not part of the new report.
            guard state.epoch == epoch else { return (exchange, findings.map { Checked(finding: $0, isNew: false) }) }
            return (exchange, findings.map { Checked(finding: $0, isNew: state.report.add($0)) })
        }
    }

    /// What was found since the start (or the last reset, or reload of the contract), with the
    /// coverage so far: the JSON of `check --format json`.
    package var report: DriftReport {
        settle()
        return state.withLock { state in
            current(&state)
            var report = state.report
            report.noteCoverage(of: state.check)
            return report
        }
    }

    /// `finding` without the value it quotes when a name on the way to it (a member on its
    /// pointer, a parameter, a header) or in it (a member of an object it quotes) marks it as a
    /// secret: what a recording of the exchange would have redacted, found without redacting every
    /// exchange.
    static func hidingSecretValue(_ finding: ContractCheck.Finding) -> ContractCheck.Finding {
        guard finding.rule == .schema, let pointer = finding.pointer,
            let at = finding.message.range(of: pointer + ": ")
        else { return finding }
        // A body's `/owner/password`, or a parameter's `query filter /api_key`: each name on the way.
        let names = pointer.split(whereSeparator: { $0 == "/" || $0 == " " }).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        let isSecret = { (name: String) in SecretNames.isSecretField(name) || SecretNames.isSecretHeader(name) }
        // A value is quoted after its member's whole name and colon, so the names quoted are enough.
        let quoted = quotedMemberNames(in: finding.message[at.upperBound...])
        guard names.contains(where: isSecret) || quoted.contains(where: SecretNames.isSecretField) else {
            return finding
        }
        var hidden = finding
        hidden.message =
            finding.message[..<at.lowerBound] + pointer
            + ": the value breaks its schema (not shown: a name marks it as a secret)"
        return hidden
    }

    /// The names written `"name":` in `text`: the members of an object a message quotes.
    private static func quotedMemberNames(in text: Substring) -> [String] {
        var names: [String] = []
        var start: String.Index?
        var escaped = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if escaped {
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "\"" {
                if let opened = start {
                    let after = text[text.index(after: index)...].drop { $0 == " " }
                    if after.first == ":" { names.append(String(text[text.index(after: opened)..<index])) }
                    start = nil
                } else {
                    start = index
                }
            }
            index = text.index(after: index)
        }
        return names
    }

    /// Starts the report over (`POST /__admin/reset`).
    package func reset() {
        state.withLock { state in state = Self.fresh(source, maximumKinds: maximumKinds, epoch: state.epoch + 1) }
    }
}
