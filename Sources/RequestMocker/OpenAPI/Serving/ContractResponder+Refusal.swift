import Foundation

extension ContractResponder {
    /// What a request that breaks the contract gets, in the contract's own shape where it declares
    /// one, so an app's generated client can decode it: the status is ours (`401` without
    /// credentials, `415` for a body of another media type, else `422`, or `400` where the
    /// operation declares a `400` and no `422`), the response is the operation's own for that
    /// status, else its `4XX`, else its `default` (``OperationPlan/response(for:)``). Its body
    /// says what is wrong where its schema has a place for it (``explained(_:_:)``). Only an
    /// operation that declares none of them gets our `application/problem+json`.
    mutating func refusal(_ verdict: RequestValidator.Verdict) -> ContractReply {
        // The operation's own error, chosen as any response is, without the request's
        // preferences (they were for the answer it would have had).
        preferences = Preferences()
        if let requirements = verdict.unauthorized {
            let reason = RequestValidator.missingCredentials(requirements)
            var refused =
                plan.response(for: 401).map { explained(reply(401, $0), reason) } ?? problem(401, reason)
            let realm = contract.title ?? contract.url.lastPathComponent
            if refused.headers[.wwwAuthenticate] == nil {
                refused.headers.add(.wwwAuthenticate, RequestValidator.challenges(requirements, realm: realm))
            }
            return refused
        }
        if let unsupported = verdict.unsupportedMediaType {
            return plan.response(for: 415).map { explained(reply(415, $0), unsupported) } ?? problem(415, unsupported)
        }
        let count = verdict.violations.count
        let reason =
            count == 1
            ? verdict.violations[0].description
            : "\(count) problems: " + verdict.violations.prefix(3).map(\.description).joined(separator: "; ")
                + (count > 3 ? "; …" : "")
        let declared = plan.responses.contains { $0.status == "400" } && !plan.responses.contains { $0.status == "422" }
        let status = declared ? 400 : 422
        if let response = plan.response(for: status) {
            return explained(reply(status, response), reason)
        }
        return problem(
            422, "the request breaks the contract in \(count) place\(count == 1 ? "" : "s"); see errors",
            extra: ["errors": .array(verdict.violations.map(\.problemMember))])
    }

    /// The members of an error body that say what went wrong, in the order one is chosen.
    private static let messageNames = ["message", "detail", "error_description", "error", "description", "title"]
    /// The members that carry the status.
    private static let statusNames = ["code", "status"]

    /// `refused` with its JSON body telling the reader what is wrong: the first string member its
    /// schema names like a message (`message`, `detail`, `error_description`, `error`,
    /// `description`, `title`) carries `reason`, and integer members named `code` or `status`
    /// carry the status; the same one level down, in an object named `error` (`{"error":
    /// {"message": …}}`). A change that would break the schema (an `enum`, a `maxLength`) is not
    /// made; an example or generated value stays where nothing fits.
    private func explained(_ refused: ContractReply, _ reason: String) -> ContractReply {
        guard let contentType = refused.headers[.contentType], MediaType(contentType).isJSON,
            let response = plan.response(for: refused.status),
            let schema = response.content.first(where: { $0.type == contentType })?.schema,
            case .object(var body)? = try? JSONValue(parsing: refused.body)
        else { return refused }
        func fill(_ object: inout [String: JSONValue], _ schema: Schema) {
            let lookup = schema.lookup
            func declared(_ name: String, as type: String) -> Bool {
                lookup.declaredProperty(name)?.lookup.types?.contains(type) == true
            }
            if let name = Self.messageNames.first(where: { declared($0, as: "string") }) {
                object[name] = .string(reason)
            }
            for name in Self.statusNames where declared(name, as: "integer") {
                object[name] = .int(refused.status)
            }
        }
        let original = body
        fill(&body, schema)
        if case .object(var inner)? = body["error"], let errorSchema = schema.lookup.declaredProperty("error") {
            fill(&inner, errorSchema)
            body["error"] = .object(inner)
        }
        let value = JSONValue.object(body)
        guard value != .object(original),
            SchemaValidator.violations(of: value, against: schema, direction: .response).isEmpty,
            let bytes = try? value.serialized()
        else { return refused }
        var explained = refused
        explained.body = bytes
        return explained
    }
}
