import Foundation
import RequestMocker

/// One way a request breaks its operation: where (`query` and the parameter's name, `body` and
/// a pointer), the keyword, and a message.
package struct RequestViolation: Error, Sendable, Hashable, CustomStringConvertible {
    /// `path`, `query`, `header`, `cookie`, `body` or `security`.
    package let location: String
    /// The parameter's name, for parameters.
    package let name: String?
    /// The JSON pointer within the value (`""` for the value itself).
    package let pointer: String
    package let keyword: String
    package let message: String

    /// `query limit: expected integer, got "x"`, `body /name: expected string, got 12`.
    package var description: String {
        location + (name.map { " \($0)" } ?? "") + (pointer.isEmpty ? "" : " \(pointer)") + ": " + message
    }

    /// The member of a `422` problem's `errors`.
    var problemMember: JSONValue {
        var members: [String: JSONValue] = [
            "in": .string(location), "pointer": .string(pointer), "keyword": .string(keyword),
            "message": .string(message),
        ]
        if let name { members["name"] = .string(name) }
        return .object(members)
    }
}

/// Checks a request against its operation: the credentials its security asks for, the
/// `Content-Type` of its body, its parameters (converted from text by their style, then checked
/// against their schemas) and its body (JSON, a form, or multipart parts).
///
/// Nothing here takes more than linear time in the request: schemas are checked by the bounded
/// ``SchemaValidator``.
struct RequestValidator {
    let plan: OperationPlan
    let request: MockRequest
    /// The path parameters' values, as the router captured them.
    let pathValues: [String: String]
    /// The query names the operation's path key itself carries (`/responses?beta=true`).
    let conditionNames: Set<String>
    /// The request's query items, all of them (`__code` too), and its cookies by name (the
    /// first of a name): read once, since every parameter and credential looks at them.
    let queryItems: [URLQueryItem]
    let cookies: [String: String]

    /// - Parameter queryItems: the request's query items, when they were read already.
    init(
        plan: OperationPlan, request: MockRequest, pathValues: [String: String], conditionNames: Set<String> = [],
        queryItems: [URLQueryItem]? = nil
    ) {
        self.plan = plan
        self.request = request
        self.pathValues = pathValues
        self.conditionNames = conditionNames
        self.queryItems = queryItems ?? request.queryItems
        var cookies: [String: String] = [:]
        for header in plan.readsCookies ? request.headers.values(for: .cookie) : [] {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, cookies[parts[0]] == nil { cookies[parts[0]] = parts[1] }
            }
        }
        self.cookies = cookies
    }

    /// What the check found.
    struct Verdict: Sendable {
        /// The security requirements, when the request meets none of them.
        var unauthorized: [[OperationPlan.Credential]]?
        /// Why the body's media type isn't one the operation takes, when it isn't.
        var unsupportedMediaType: String?
        var violations: [RequestViolation] = []
        /// What the request does that the contract doesn't declare but no server refuses (a query
        /// parameter it doesn't name): named beside the answer, never a reason to refuse.
        var warnings: [RequestViolation] = []

        /// Whether nothing is broken (warnings may still be there).
        var isClean: Bool { unauthorized == nil && unsupportedMediaType == nil && violations.isEmpty }

        /// Every violation, one line each, for the `RequestMocker-Violations` header and the journal.
        var lines: [String] {
            var lines: [String] = []
            if let unauthorized {
                lines.append("security: " + RequestValidator.missingCredentials(unauthorized))
            }
            if let unsupportedMediaType { lines.append("body: " + unsupportedMediaType) }
            return lines + violations.map(\.description)
        }

        /// Every warning, one line each: `warning: query acitve: the operation declares no …`.
        var warningLines: [String] { warnings.map { "warning: \($0)" } }
    }

    func verdict() -> Verdict {
        var verdict = Verdict()
        if !plan.security.isEmpty, !plan.security.contains(where: { $0.allSatisfy(isPresent) }) {
            verdict.unauthorized = plan.security
        }
        for parameter in plan.parameters {
            let found = violations(of: parameter)
            if !found.isEmpty { verdict.violations += found }
        }
        verdict.warnings = undeclaredQueryItems()
        checkBody(into: &verdict)
        return verdict
    }

    /// The query items the operation declares no parameter for: a client that sends one (a
    /// misspelt name, one the API dropped) has drifted from the contract, but a cache-buster or a
    /// tracking parameter must not break an app, so each is a warning, never a refusal.
    private func undeclaredQueryItems() -> [RequestViolation] {
        var seen: Set<String> = []
        return queryItems.compactMap { item in
            guard !plan.queryNames.contains(item.name), !conditionNames.contains(item.name),
                !Preferences.queryNames.contains(item.name), !plan.queryPrefixes.contains(where: item.name.hasPrefix),
                seen.insert(item.name).inserted
            else { return nil }
            return RequestViolation(
                location: "query", name: item.name, pointer: "", keyword: "additionalProperties",
                message: "the operation declares no query parameter of this name")
        }
    }

    // MARK: Security

    /// Whether the request shows the credential: present and well-formed, never checked for truth.
    private func isPresent(_ credential: OperationPlan.Credential) -> Bool {
        let authorization = request.header(.authorization)?.trimmingCharacters(in: .whitespaces) ?? ""
        func token(after scheme: String) -> Substring? {
            guard authorization.count > scheme.count, authorization.lowercased().hasPrefix(scheme.lowercased() + " ")
            else { return nil }
            let token = authorization.dropFirst(scheme.count + 1).drop { $0 == " " }
            return token.isEmpty ? nil : token
        }
        switch credential.kind {
        case .apiKey(let name, .header): return !(request.header(HTTPHeaders.Name(name)) ?? "").isEmpty
        case .apiKey(let name, .query): return queryItems.contains { $0.name == name && $0.value != nil }
        case .apiKey(let name, .cookie): return cookies[name] != nil
        case .apiKey(_, .path): return false
        case .basic:
            guard let token = token(after: "Basic"), let decoded = Data(base64Encoded: String(token)) else {
                return false
            }
            return String(decoding: decoded, as: UTF8.self).contains(":")
        case .bearer: return token(after: "Bearer") != nil
        case .http(let scheme): return token(after: scheme) != nil
        case .none: return true
        }
    }

    /// What a request without credentials is told: the requirements it may meet, `or` between them.
    static func missingCredentials(_ requirements: [[OperationPlan.Credential]]) -> String {
        let described = requirements.map { requirement in
            requirement.map { credential in
                switch credential.kind {
                case .apiKey(let name, let location): "an API key in the \(location.rawValue) \(name)"
                case .basic: "Authorization: Basic with user:password"
                case .bearer: "Authorization: Bearer with a token"
                case .http(let scheme): "Authorization: \(scheme)"
                case .none: "mutual TLS"
                }
            }.joined(separator: " and ")
        }
        return "no credentials; send " + described.joined(separator: ", or ")
    }

    /// The `WWW-Authenticate` challenges for the requirements: one per scheme, in order.
    static func challenges(_ requirements: [[OperationPlan.Credential]], realm: String) -> String {
        var challenges: [String] = []
        for credential in requirements.joined() {
            let challenge: String =
                switch credential.kind {
                case .basic: "Basic realm=\"\(realm)\""
                case .bearer: "Bearer realm=\"\(realm)\""
                case .http(let scheme): "\(scheme.prefix(1).uppercased() + scheme.dropFirst()) realm=\"\(realm)\""
                case .apiKey(let name, let location): "APIKey realm=\"\(realm)\", name=\"\(name)\", in=\"\(location)\""
                case .none: ""
                }
            if !challenge.isEmpty, !challenges.contains(challenge) { challenges.append(challenge) }
        }
        return challenges.joined(separator: ", ")
    }

    // MARK: Body

    private func checkBody(into verdict: inout Verdict) {
        // An upload task's body is hidden from URL protocols on Linux: nothing to check.
        guard let declared = plan.body, !request.bodyHiddenByUploadTask else { return }
        let body = request.body ?? Data()
        let offered = declared.content.map(\.type)
        // An empty optional form is a form with no fields, checked as one; any other empty body is none.
        let isForm = request.header(.contentType).map { MediaType($0).essence } == "application/x-www-form-urlencoded"
        let formDeclared = declared.content.contains { $0.mediaType.accepts("application/x-www-form-urlencoded") }
        guard !body.isEmpty || isForm && formDeclared && !declared.required else {
            if declared.required {
                verdict.violations.append(
                    RequestViolation(
                        location: "body", name: nil, pointer: "", keyword: "required",
                        message: "the operation needs a body (\(offered.joined(separator: ", ")))"))
            }
            return
        }
        guard !declared.content.isEmpty else { return }
        let contentType = request.header(.contentType)
        guard let media = declared.content.first(where: { $0.mediaType.accepts(contentType) }) else {
            verdict.unsupportedMediaType =
                "Content-Type \(contentType ?? "(none)") is not one the operation takes: "
                + offered.joined(separator: ", ")
            return
        }
        guard let schema = media.schema else { return }
        let value: JSONValue
        var exactNumbers: [String: ExactNumber] = [:]
        if let form = FormBody.read(body, contentType: contentType ?? media.type, media: media) {
            switch form {
            case .success(let read):
                (value, exactNumbers) = (read.object.jsonValue, read.exactNumbers)
                verdict.violations += read.problems
            case .failure(let violation):
                verdict.violations.append(violation)
                return
            }
        } else if MediaType(contentType ?? media.type).isJSON || media.mediaType.isJSON {
            do {
                (value, exactNumbers) = try JSONValue.parsingExactly(body)
            } catch {
                verdict.violations.append(
                    RequestViolation(
                        location: "body", name: nil, pointer: "", keyword: "json",
                        message: "the body is not JSON: \(error)"))
                return
            }
        } else {
            return
        }
        let violations = SchemaValidator.violations(
            of: value, against: schema, direction: .request, exactNumbers: exactNumbers)
        verdict.violations += violations.map {
            RequestViolation(location: "body", name: nil, pointer: $0.pointer, keyword: $0.keyword, message: $0.message)
        }
    }
}
