import Foundation
import RequestMocker

extension JournalEntry {
    /// What `serve --upstream-first` made of an exchange (see `UpstreamFirst`): what it broke of
    /// the contract, or the mock that answered instead of the upstream. The entry keeps it as its
    /// note.
    package struct UpstreamCheck: JournalEntry.Note {
        /// A mock that answered because the upstream lacked the operation.
        package struct Fallback: Sendable {
            /// `the upstream answered 404`.
            package let reason: String
            package let file: URL?
            package let entryIndex: Int?
            package let contractAnswer: ContractAnswer?
            package let filter: RequestFilter?
        }

        /// The exchange's number among those checked since the start (or the last reset): the
        /// `entry` of the drift report's examples; `nil` until it is checked.
        package var exchange: Int?
        /// The exchange's findings, each with whether it was the first of its kind: empty until
        /// the exchange is checked, after its answer went out.
        package var findings: [DriftWatch.Checked] = []
        /// Findings past the first 100, not kept here (the drift report counts them).
        package var findingsLeftOut = 0
        /// Why the body was not checked (its status and headers were), when it wasn't.
        package var bodyUnchecked: String?
        package var fallback: Fallback?
        /// Why the upstream's `404` went to the client rather than to a mock, when it did.
        package var keptNotFound: String?

        /// The mock that answered instead of the upstream, and why.
        package var answerDescription: String? {
            guard let fallback else { return nil }
            let mock =
                fallback.contractAnswer.map { "openapi \($0)" } ?? fallback.file.map { "file \($0.path)" }
                ?? fallback.filter.map(\.description) ?? "?"
            return "\(mock), because \(fallback.reason)"
        }
    }

    /// What `serve --upstream-first` made of the exchange, once the upstream answered.
    package var upstreamCheck: UpstreamCheck? { note(UpstreamCheck.self) }

    func noteUpstream(_ change: (inout UpstreamCheck) -> Void) {
        changeNote(from: UpstreamCheck(), change)
    }
}
