import Foundation

/// Checks mocks against a contract, for `request-mocker check`: each mock is matched to an
/// operation by its method and path, and its status, media type, JSON body and required headers
/// are checked against what the operation declares.
package struct ContractCheck {
    /// One line of the report: `Mocks/GET|-pets-7.http:1: error: GET /pets/{petId} 200: /name: …`.
    package struct Finding: Sendable, Hashable, CustomStringConvertible {
        /// The file and line: `Mocks/GET|-pets-7.http:1`.
        package let place: String
        package let isError: Bool
        package let message: String

        package var description: String { "\(place): \(isError ? "error" : "warning"): \(message)" }
    }

    let contract: OpenAPIContract
    private let router: OpenAPIRouter

    package init(_ contract: OpenAPIContract, basePath: String? = nil) {
        self.contract = contract
        router = contract.router(basePath: basePath.map(ContractSource.normalized))
    }

    /// The contract's own examples and defaults that break their schemas.
    package var contractFindings: [Finding] {
        contract.problems.map { problem in
            let place = problem.file.path + (problem.line.map { ":\($0)" } ?? "")
            return Finding(place: place, isError: problem.isError, message: "\(problem.pointer): \(problem.message)")
        }
    }

    /// The findings for one mock: `request` answered with `response`, written at `place`.
    package func check(
        _ request: MockRequest, answeredWith response: RecordedResponse, at place: String
    ) -> [Finding] {
        func finding(_ message: String, isError: Bool = true) -> Finding {
            Finding(place: place, isError: isError, message: message)
        }
        let query = request.queryItems.filter { !Preferences.queryNames.contains($0.name) }
        let index: Int
        switch router.route(request.method, segments: request.pathSegments, query: query) {
        case .notFound:
            return [finding("\(request.method) \(request.path) is not in the contract", isError: false)]
        case .methodNotAllowed(let allowed):
            return [
                finding(
                    "\(request.path) has no \(request.method) operation in the contract; it has "
                        + allowed.map(\.rawValue).joined(separator: ", "))
            ]
        case .operation(let found, _):
            index = found
        }
        let operation = contract.operations[index]
        let status = response.status.code
        let label = "\(operation.method) \(operation.path) \(status)"
        let responses = contract.plans[index].responses
        guard let declared = contract.plans[index].response(for: status) else {
            return [
                finding(
                    "\(label): the status is not declared; \(operation) declares "
                        + responses.map(\.status).joined(separator: ", "))
            ]
        }
        var findings: [Finding] = []
        for header in declared.headers where header.required {
            if response.headers[HTTPHeaders.Name(header.name)] == nil {
                findings.append(finding("\(label): the required header \(header.name) is missing"))
            }
        }
        guard !response.body.isEmpty else { return findings }
        guard !declared.content.isEmpty else {
            return findings + [finding("\(label): there is a body, but the contract declares none")]
        }
        let contentType = response.headers[.contentType]
        // A body without a Content-Type is application/octet-stream (RFC 9110, 8.3).
        guard
            let media = declared.content.first(where: {
                $0.mediaType.accepts(contentType ?? "application/octet-stream")
            })
        else {
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
            findings.append(finding("\(label): \(violation)"))
        }
        return findings
    }
}
