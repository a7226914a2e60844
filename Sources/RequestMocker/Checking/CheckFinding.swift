/// A kind of finding of `request-mocker check`, as its JSON and SARIF name it: each contract
/// kind has its own (`undocumented-status` for OpenAPI, `unselected-field` for GraphQL), and
/// `schema` is both kinds' (a value that breaks what the contract declares).
package struct CheckRule: Sendable, Hashable {
    /// The name in JSON and SARIF: `schema`, `missing-field`.
    package let rawValue: String
    /// What the rule finds, for SARIF's rule descriptions.
    package let summary: String

    package init(rawValue: String, summary: String) {
        self.rawValue = rawValue
        self.summary = summary
    }

    /// A value that breaks the contract's schema.
    package static let schema = CheckRule(rawValue: "schema", summary: "A value that breaks the contract's schema")

    package static func == (lhs: CheckRule, rhs: CheckRule) -> Bool { lhs.rawValue == rhs.rawValue }
    package func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
}

/// One line of a check's report: `Mocks/GET|-pets-7.http:1: error: GET /pets/{petId} 200: /name: …`,
/// with what groups it among its kind (its rule, operation, status, side and pointer).
package struct CheckFinding: Sendable, Hashable, CustomStringConvertible {
    /// The file and line: `Mocks/GET|-pets-7.http:1`.
    package let place: String
    package let isError: Bool
    package var message: String
    package var rule: CheckRule = .schema
    /// The operation: an OpenAPI `operationId` (else its method and template), a GraphQL
    /// operation's name.
    package var operation: String?
    package var status: Int?
    package var mediaType: String?
    /// `request` or `response`.
    package var location: String?
    /// The JSON pointer of the offending value, or the parameter (`query limit`).
    package var pointer: String?
    /// For a cassette's recording, its index among the entries.
    package var entry: Int?
    /// For an exchange checked as it happened (`serve --upstream-first`), its number; its
    /// ``place`` is then the request line (`GET /users/42`), no file.
    package var exchange: Int?

    package init(place: String, isError: Bool, message: String) {
        self.place = place
        self.isError = isError
        self.message = message
    }

    package var description: String { "\(place): \(isError ? "error" : "warning"): \(message)" }
}
