import Foundation
import RequestMocker

/// Checks mocks against a contract, for `request-mocker check`: each mock is matched to an
/// operation by its method and path, and its status, media type, JSON body and required headers
/// are checked against what the operation declares.
package struct ContractCheck: Sendable {
    /// The kinds of finding, as `check --format json` and SARIF name them: ``DriftRule``'s.
    package typealias Rule = CheckRule

    /// One line of the report: `Mocks/GET|-pets-7.http:1: error: GET /pets/{petId} 200: /name: …`.
    package typealias Finding = CheckFinding

    let contract: OpenAPIContract
    private let router: OpenAPIRouter
    /// The operations and declared statuses the checked mocks and recordings reached.
    package let coverage = Coverage()

    package init(_ contract: OpenAPIContract, basePath: String? = nil) {
        self.contract = contract
        router = contract.router(basePath: basePath.map(ContractSource.normalized))
    }

    /// The operations and declared response statuses (codes, `NXX`, `default`) that were
    /// reached, by operation index.
    package final class Coverage: Sendable {
        private let reached = LockedState<[Int: Set<String>]>([:])

        func note(_ operation: Int, status: String?) {
            reached.withLock { reached in
                var statuses = reached[operation] ?? []
                if let status { statuses.insert(status) }
                reached[operation] = statuses
            }
        }

        package var statuses: [Int: Set<String>] { reached.withLock { $0 } }
    }

    /// The contract's own examples and defaults that break their schemas.
    package var contractFindings: [Finding] {
        contract.problems.map { problem in
            let place = problem.file.path + (problem.line.map { ":\($0)" } ?? "")
            return Finding(place: place, isError: problem.isError, message: "\(problem.pointer): \(problem.message)")
        }
    }

    /// The findings for one mock: `request` answered with `response`, written at `place`. With
    /// `checkingRequest` (a recording, whose request is the one really sent), the request is
    /// checked too: its credentials, parameters and body.
    package func check(
        _ request: MockRequest, answeredWith response: RecordedResponse, at place: String,
        checkingRequest: Bool = false
    ) -> [Finding] {
        var rule = Rule.schema
        var operationName: String?
        var mediaType: String?
        var location = "response"
        func finding(_ message: String, isError: Bool = true, pointer: String? = nil) -> Finding {
            var finding = Finding(place: place, isError: isError, message: message)
            finding.rule = rule
            finding.operation = operationName
            finding.status = response.status.code
            finding.mediaType = mediaType
            finding.location = location
            finding.pointer = pointer
            return finding
        }
        let query = request.queryItems.filter { !Preferences.queryNames.contains($0.name) }
        let index: Int
        let pathValues: [String: String]
        switch router.route(request.method, segments: request.pathSegments, query: query) {
        case .notFound:
            rule = .undocumentedOperation
            operationName = "\(request.method) \(request.path)"
            return [finding("\(request.method) \(request.path) is not in the contract", isError: false)]
        case .methodNotAllowed(let allowed):
            rule = .undocumentedOperation
            operationName = "\(request.method) \(request.path)"
            return [
                finding(
                    "\(request.path) has no \(request.method) operation in the contract; it has "
                        + allowed.map(\.rawValue).joined(separator: ", "))
            ]
        case .operation(let found, let parameters):
            (index, pathValues) = (found, parameters)
        }
        let operation = contract.operations[index]
        operationName = operation.description
        var findings: [Finding] = []
        if checkingRequest {
            location = "request"
            findings += requestFindings(request, plan: contract.plans[index], pathValues: pathValues) {
                rule = $0
                mediaType = $1
                return finding($2, isError: $3, pointer: $4)
            }
            (location, mediaType, rule) = ("response", nil, .schema)
        }
        let status = response.status.code
        let label = "\(operation.method) \(operation.path) \(status)"
        let responses = contract.plans[index].responses
        guard let declared = contract.plans[index].response(for: status) else {
            coverage.note(index, status: nil)
            rule = .undocumentedStatus
            return findings + [
                finding(
                    "\(label): the status is not declared; \(operation) declares "
                        + responses.map(\.status).joined(separator: ", "))
            ]
        }
        coverage.note(index, status: declared.status)
        for header in declared.headers where header.required {
            if response.headers[HTTPHeaders.Name(header.name)] == nil {
                findings.append(
                    finding("\(label): the required header \(header.name) is missing", pointer: "header \(header.name)")
                )
            }
        }
        guard !response.body.isEmpty else { return findings }
        guard !declared.content.isEmpty else {
            rule = .undocumentedMediaType
            mediaType = response.headers[.contentType].map { MediaType($0).essence }
            return findings + [finding("\(label): there is a body, but the contract declares none")]
        }
        let contentType = response.headers[.contentType]
        mediaType = MediaType(contentType ?? "application/octet-stream").essence
        // A body without a Content-Type is application/octet-stream (RFC 9110, 8.3).
        guard
            let media = declared.content.first(where: {
                $0.mediaType.accepts(contentType ?? "application/octet-stream")
            })
        else {
            rule = .undocumentedMediaType
            return findings + [
                finding(
                    "\(label): Content-Type \(contentType ?? "(none)") is not declared; it declares "
                        + declared.content.map(\.type).joined(separator: ", "))
            ]
        }
        guard let schema = media.schema, MediaType(media.type).isJSON else { return findings }
        let body: JSONValue
        let exactNumbers: [String: ExactNumber]
        do {
            (body, exactNumbers) = try JSONValue.parsingExactly(response.body)
        } catch {
            return findings + [finding("\(label): the body is not JSON: \(error)")]
        }
        let violations = SchemaValidator.violations(
            of: body, against: schema, direction: .response, exactNumbers: exactNumbers)
        for violation in violations {
            findings.append(finding("\(label): \(violation)", pointer: violation.pointer))
        }
        rule = .undocumentedProperty
        for pointer in Self.undocumentedMembers(of: body, in: schema) {
            findings.append(
                finding("\(label): \(pointer) is not declared in the schema", isError: false, pointer: pointer))
        }
        return findings
    }

    /// What the request breaks: its credentials (`security`), query names the operation lacks
    /// (`undocumented-parameter`), its body's media type (`undocumented-media-type`), and its
    /// parameters' and body's schemas (`schema`), each made into a finding by `make` (the rule,
    /// the media type, the message, whether it is an error, the pointer).
    private func requestFindings(
        _ request: MockRequest, plan: OperationPlan, pathValues: [String: String],
        _ make: (Rule, String?, String, Bool, String?) -> Finding
    ) -> [Finding] {
        let verdict = RequestValidator(plan: plan, request: request, pathValues: pathValues).verdict()
        let label = "\(request.method) \(request.path) request"
        let mediaType = request.headers[.contentType].map { MediaType($0).essence }
        var findings: [Finding] = []
        if let unauthorized = verdict.unauthorized {
            findings.append(
                make(
                    .security, nil, "\(label): " + RequestValidator.missingCredentials(unauthorized), false, nil))
        }
        if let unsupported = verdict.unsupportedMediaType {
            findings.append(make(.undocumentedMediaType, mediaType, "\(label): \(unsupported)", true, nil))
        }
        for violation in verdict.violations + verdict.warnings {
            let undeclared = violation.location == "query" && violation.keyword == "additionalProperties"
            // As the violation names it: `query filter /api_key`.
            let place =
                violation.location + (violation.name.map { " \($0)" } ?? "")
                + (violation.pointer.isEmpty ? "" : " \(violation.pointer)")
            findings.append(
                make(
                    undeclared ? .undocumentedParameter : .schema, violation.location == "body" ? mediaType : nil,
                    "\(label): \(violation)", !undeclared, violation.location == "body" ? violation.pointer : place))
        }
        return findings
    }

    /// The members of `value` its schema doesn't declare, where the schema lists properties and
    /// allows others (one that forbids them already fails the check): `/owner/nickname`. Objects
    /// under `oneOf`, `anyOf` or `not`, and free-form ones, are not looked into.
    static func undocumentedMembers(of value: JSONValue, in schema: Schema) -> [String] {
        var found: [String] = []
        var pending: [(value: JSONValue, schema: Schema, pointer: String, depth: Int)] = [(value, schema, "", 0)]
        while let (value, schema, pointer, depth) = pending.popLast(), found.count < 1_000 {
            guard depth < SchemaValidator.maximumDepth, schema.oneOf.isEmpty, schema.anyOf.isEmpty, schema.not == nil
            else { continue }
            switch value {
            case .object(let members):
                let parts = [schema] + schema.allOf
                guard parts.allSatisfy({ if case .allowed = $0.additionalProperties { true } else { false } }),
                    parts.contains(where: { !$0.properties.isEmpty })
                else { continue }
                for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                    let escaped = "/" + Located.escaped(name)
                    guard let declared = parts.lazy.compactMap({ $0.propertyIndex[name] }).first else {
                        found.append(pointer + escaped)
                        continue
                    }
                    pending.append((member, declared, pointer + escaped, depth + 1))
                }
            case .array(let elements):
                guard let items = schema.items else { continue }
                for (offset, element) in elements.enumerated().reversed() {
                    pending.append((element, items, pointer + "/\(offset)", depth + 1))
                }
            default: continue
            }
        }
        return found.sorted()
    }
}
