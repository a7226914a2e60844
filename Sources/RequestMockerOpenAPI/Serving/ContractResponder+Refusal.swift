import Foundation
import RequestMocker

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
        // preferences (they were for the answer it would have had); never a 406 instead.
        preferences = Preferences()
        refusing = true
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
    /// `description`, `title`) that takes it carries `reason`, and integer members named `code`
    /// or `status` carry the status; the same one level down, in an object named `error`
    /// (`{"error": {"message": …}}`). Each is a change of its own, not made where it would break
    /// the schema (an `enum`, a `maxLength`); the example or generated value stays where nothing
    /// fits.
    private func explained(_ refused: ContractReply, _ reason: String) -> ContractReply {
        guard let contentType = refused.headers[.contentType], MediaType(contentType).isJSON,
            let response = plan.response(for: refused.status),
            let schema = response.content.first(where: { $0.type == contentType })?.schema,
            case .object(var body)? = try? JSONValue(parsing: refused.body)
        else { return refused }
        // Each member filled on its own, and kept only where the body breaks its schema in no more
        // places than before (a message past a `maxLength` is not written; the code still is).
        func broken(_ value: JSONValue) -> Int {
            SchemaValidator.violations(of: value, against: schema, direction: .response).count
        }
        let before = broken(.object(body))
        @discardableResult
        func fill(_ name: String, with value: JSONValue, declaredAs type: String, inError: Bool) -> Bool {
            var changed = body
            if inError {
                guard case .object(var inner)? = body["error"],
                    let errorSchema = schema.lookup.declaredProperty("error"),
                    errorSchema.lookup.declaredProperty(name)?.lookup.types?.contains(type) == true
                else { return false }
                inner[name] = value
                changed["error"] = .object(inner)
            } else {
                guard schema.lookup.declaredProperty(name)?.lookup.types?.contains(type) == true else { return false }
                changed[name] = value
            }
            guard broken(.object(changed)) <= before else { return false }
            body = changed
            return true
        }
        let original = body
        for inError in [false, true] {
            // The first message member that takes the text.
            for name in Self.messageNames
            where fill(name, with: .string(reason), declaredAs: "string", inError: inError) {
                break
            }
            for name in Self.statusNames {
                fill(name, with: .int(refused.status), declaredAs: "integer", inError: inError)
            }
        }
        guard body != original, let bytes = try? JSONValue.object(body).serialized() else { return refused }
        var explained = refused
        explained.body = bytes
        return explained
    }
}
