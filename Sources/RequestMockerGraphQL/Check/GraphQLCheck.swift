import Foundation
import RequestMocker

/// Checks recorded GraphQL exchanges against a schema, for `request-mocker check --graphql`:
/// each request's operation is validated (its variables too), and its answer's `data` is
/// checked against the operation's selection (``GraphQLAnswerCheck``). Exchanges that aren't
/// GraphQL requests (other endpoints of the same recording) are counted and left alone.
/// Automatic persisted queries are followed as a server follows them: a hash sent alone stands
/// for the text an earlier exchange sent with it.
///
/// ```swift
/// var check = GraphQLCheck(schema)
/// let (findings, checked) = try check.check(cassette: URL(fileURLWithPath: "session.har"))
/// let report = check.report(findings)
/// ```
package struct GraphQLCheck {
    package static let invalidOperation = CheckRule(
        rawValue: "invalid-operation",
        summary: "An operation the schema refuses: its syntax, a validation rule, its variables")
    package static let unselectedField = CheckRule(
        rawValue: "unselected-field", summary: "A field in an answer that the operation didn't select")
    package static let missingField = CheckRule(
        rawValue: "missing-field", summary: "A field the operation selected that the answer lacks")
    package static let malformedAnswer = CheckRule(
        rawValue: "malformed-answer", summary: "An answer that isn't GraphQL's: no `data` nor `errors`, or not JSON")
    package static let unknownPersistedQuery = CheckRule(
        rawValue: "unknown-persisted-query",
        summary: "A persisted query's hash sent without its text, whose text no earlier exchange sent")
    /// The rules of this check, for SARIF's list.
    package static let rules = [
        invalidOperation, .schema, unselectedField, missingField, malformedAnswer, unknownPersistedQuery,
    ]

    let schema: GraphQLSchema
    private var persisted = GraphQLPersistedQueries()
    /// The root fields an operation of a checked exchange asked for: `Query.hero`.
    private var reached: Set<String> = []
    /// How many exchanges weren't GraphQL requests.
    package private(set) var notGraphQL = 0

    package init(_ schema: GraphQLSchema) {
        self.schema = schema
    }

    /// The findings of one exchange written at `place`, or `nil` when its request isn't a
    /// GraphQL request (or a persisted query's first, refused, try).
    package mutating func check(
        _ request: MockRequest, answeredWith response: RecordedResponse, at place: String
    ) -> [CheckFinding]? {
        guard let http = try? GraphQLHTTPRequest(request),
            http.query.map(Self.looksLikeGraphQL) ?? (http.extensions?["persistedQuery"] != nil)
        else {
            notGraphQL += 1
            return nil
        }
        var label = http.operationName ?? "anonymous operation"
        func finding(
            _ rule: CheckRule, _ message: String, isError: Bool = true, location: String = "response",
            pointer: String? = nil
        ) -> CheckFinding {
            var finding = CheckFinding(place: place, isError: isError, message: "\(label): \(message)")
            finding.rule = rule
            finding.operation = label
            finding.status = response.status.code
            finding.location = location
            finding.pointer = pointer
            return finding
        }
        let query: String
        switch persisted.resolve(http.query, extensions: http.extensions) {
        case .query(let text): query = text
        case .refused(let error, _) where error.extensions?["code"] == .string("PERSISTED_QUERY_NOT_FOUND"):
            // Apollo's first try, answered `PersistedQueryNotFound`: the next exchange sends the text.
            guard Self.errorMessages(of: response).contains("PersistedQueryNotFound") else {
                return [
                    finding(
                        Self.unknownPersistedQuery,
                        "the persisted query's text isn't in an earlier exchange, so its answer isn't checked; "
                            + "record the exchange that sent it too", isError: false, location: "request")
                ]
            }
            return nil
        case .refused(let error, _):
            return [finding(Self.invalidOperation, error.message, location: "request")]
        }
        let prepared: GraphQLPreparedOperation
        do {
            prepared = try GraphQLPreparedOperation(
                query: query, operationName: http.operationName, variables: http.variables, in: schema)
        } catch {
            return error.errors.map { error in
                let at = error.locations.first.map { " (line \($0.line), column \($0.column))" } ?? ""
                return finding(Self.invalidOperation, error.message + at, location: "request")
            }
        }
        label = prepared.name ?? "anonymous \(prepared.kind.rawValue)"
        // Validation passes an operation on a root type the schema lacks; execution refuses it.
        guard schema.rootType(for: prepared.kind) != nil else {
            let message = "the schema has no \(prepared.kind.rawValue) type, so it can't answer this operation"
            return [finding(Self.invalidOperation, message, location: "request")]
        }
        noteRootFields(of: prepared)
        guard let node = try? DocumentNode.parseJSON([UInt8](response.body)) else {
            return [
                finding(
                    Self.malformedAnswer,
                    "the answer isn't JSON (Content-Type \(response.headers[.contentType] ?? "none")), so it isn't "
                        + "checked", isError: false)
            ]
        }
        guard case .object(let members) = node.value, members["data"] != nil || members["errors"] != nil else {
            return [finding(Self.malformedAnswer, "the answer has neither `data` nor `errors`")]
        }
        guard let data = members["data"] else { return [] }
        let check = GraphQLAnswerCheck(schema: schema, prepared: prepared)
        return check.problems(of: data).map { problem in
            let rule =
                switch problem.kind {
                case .schema: CheckRule.schema
                case .unselected: Self.unselectedField
                case .missing: Self.missingField
                }
            return finding(rule, "/data\(problem.pointer): \(problem.message)", pointer: "/data" + problem.pointer)
        }
    }

    /// Whether `query` reads as a GraphQL document: its first token (after spaces, commas and
    /// comments) opens a selection or names an operation or a fragment. A search API's
    /// `?query=shoes` in the same recording is not GraphQL.
    static func looksLikeGraphQL(_ query: String) -> Bool {
        var rest = Substring(query)
        while let first = rest.first {
            if first == "#" {
                rest = rest.drop { !$0.isNewline }
            } else if first.isWhitespace || first == "," || first == "\u{FEFF}" {
                rest = rest.dropFirst()
            } else {
                break
            }
        }
        if rest.first == "{" { return true }
        let word = rest.prefix { $0.isLetter }
        let next = rest.dropFirst(word.count).first
        return ["query", "mutation", "subscription", "fragment"].contains(word)
            && (next.map { !$0.isLetter && !$0.isNumber && $0 != "_" } ?? true)
    }

    /// The messages of an answer's `errors`.
    private static func errorMessages(of response: RecordedResponse) -> [String] {
        guard let node = try? DocumentNode.parseJSON([UInt8](response.body)),
            case .array(let errors)? = node["errors"]?.value
        else { return [] }
        return errors.compactMap { if case .string(let message)? = $0["message"]?.value { message } else { nil } }
    }

    /// Notes the root fields `prepared` asks for, for the coverage.
    private mutating func noteRootFields(of prepared: GraphQLPreparedOperation) {
        guard let root = schema.rootType(for: prepared.kind) else { return }
        let executor = GraphQLExecutor(
            schema: schema, document: prepared.document, variables: prepared.variables, mocks: GraphQLMocks())
        var fields: GraphQLExecutor.CollectedFields = []
        var visited: Set<String> = []
        executor.collectFields(root, prepared.operation.selections, into: &fields, visited: &visited)
        for entry in fields {
            guard let name = entry.fields.first?.name.value, !name.hasPrefix("__") else { continue }
            reached.insert("\(root.name).\(name)")
        }
    }

    /// The report of `findings`, with the coverage of the root types' fields.
    package func report(_ findings: [CheckFinding]) -> DriftReport {
        var report = DriftReport(findings: findings, rules: Self.rules)
        report.coverageUnit = .rootFields
        let roots = [schema.queryType, schema.mutationType, schema.subscriptionType].compactMap { $0 }
        report.operations = roots.compactMap { schema.types[$0] }.flatMap { root in
            root.fields.map { field in
                let name = "\(root.name).\(field.name)"
                return (name, [], [], reached.contains(name))
            }
        }
        return report
    }
}
