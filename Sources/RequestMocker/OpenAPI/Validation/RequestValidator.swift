import Foundation

/// One way a request breaks its operation: where (`query` and the parameter's name, `body` and
/// a pointer), the keyword, and a message.
package struct RequestViolation: Sendable, Hashable, CustomStringConvertible {
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

    init(plan: OperationPlan, request: MockRequest, pathValues: [String: String], conditionNames: Set<String> = []) {
        self.plan = plan
        self.request = request
        self.pathValues = pathValues
        self.conditionNames = conditionNames
        queryItems = request.queryItems
        var cookies: [String: String] = [:]
        for header in request.headers.values(for: .cookie) {
            for pair in header.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 2, cookies[parts[0]] == nil { cookies[parts[0]] = parts[1] }
            }
        }
        self.cookies = cookies
    }

    /// What the check found.
    struct Verdict {
        /// The security requirements, when the request meets none of them.
        var unauthorized: [[OperationPlan.Credential]]?
        /// Why the body's media type isn't one the operation takes, when it isn't.
        var unsupportedMediaType: String?
        var violations: [RequestViolation] = []

        var isClean: Bool { unauthorized == nil && unsupportedMediaType == nil && violations.isEmpty }

        /// Every finding, one line each, for the `RequestMocker-Violations` header and the journal.
        var lines: [String] {
            var lines: [String] = []
            if let unauthorized {
                lines.append("security: " + RequestValidator.missingCredentials(unauthorized))
            }
            if let unsupportedMediaType { lines.append("body: " + unsupportedMediaType) }
            return lines + violations.map(\.description)
        }
    }

    func verdict() -> Verdict {
        var verdict = Verdict()
        if !plan.security.isEmpty, !plan.security.contains(where: { $0.allSatisfy(isPresent) }) {
            verdict.unauthorized = plan.security
        }
        for parameter in plan.parameters { verdict.violations += violations(of: parameter) }
        verdict.violations += undeclaredQueryItems()
        checkBody(into: &verdict)
        return verdict
    }

    /// The query items the operation declares no parameter for: a client that sends one (a
    /// misspelt name, one the API dropped) has drifted from the contract.
    private func undeclaredQueryItems() -> [RequestViolation] {
        var declared = conditionNames.union(Preferences.queryNames)
        var prefixes: [String] = []
        for parameter in plan.parameters where parameter.location == .query {
            declared.insert(parameter.name)
            if parameter.style == "deepObject" { prefixes.append(parameter.name + "[") }
            if parameter.explode, let lookup = parameter.schema?.lookup, lookup.types?.contains("object") == true {
                declared.formUnion(lookup.declaredNames)
            }
        }
        for credential in plan.security.joined() {
            if case .apiKey(let name, .query) = credential.kind { declared.insert(name) }
        }
        var seen: Set<String> = []
        return queryItems.compactMap { item in
            guard !declared.contains(item.name), !prefixes.contains(where: item.name.hasPrefix),
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
        let essence = MediaType(contentType ?? media.type).essence
        let value: JSONValue
        var exactNumbers: [String: ExactNumber] = [:]
        if essence == "application/x-www-form-urlencoded" {
            (value, exactNumbers) = formValue(String(decoding: body, as: UTF8.self), schema)
        } else if essence == "multipart/form-data" {
            verdict.violations += missingParts(body, contentType ?? "", schema)
            return
        } else if MediaType(essence).isJSON || media.mediaType.isJSON {
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

    /// A form body as an object: each field converted by its property's schema, a repeated
    /// field (or one whose property is an array) as an array.
    private func formValue(_ text: String, _ schema: Schema) -> (JSONValue, [String: ExactNumber]) {
        var grouped: [(name: String, values: [String])] = []
        for (name, value) in FormFields.pairs(text) {
            if let index = grouped.firstIndex(where: { $0.name == name }) {
                grouped[index].values.append(value ?? "")
            } else {
                grouped.append((name, [value ?? ""]))
            }
        }
        var members: [String: JSONValue] = [:]
        var exact: [String: ExactNumber] = [:]
        func read(_ text: String, _ schema: Schema?, at pointer: String) -> JSONValue {
            let (value, number) = ParameterText.read(text, schema)
            if let number { exact[pointer] = number }
            return value
        }
        for (name, values) in grouped {
            let property = schema.lookup.property(name)
            let pointer = "/" + Located.escaped(name)
            if property?.lookup.types?.contains("array") == true || values.count > 1 {
                members[name] = .array(
                    values.enumerated().map { read($1, property?.lookup.items, at: pointer + "/\($0)") })
            } else {
                members[name] = read(values[0], property, at: pointer)
            }
        }
        return (.object(members), exact)
    }

    /// The required parts a `multipart/form-data` body lacks.
    private func missingParts(_ body: Data, _ contentType: String, _ schema: Schema) -> [RequestViolation] {
        let boundary = contentType.split(separator: ";").dropFirst().compactMap { parameter -> String? in
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { return nil }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }.first
        guard let boundary, !boundary.isEmpty else {
            return [
                RequestViolation(
                    location: "body", name: nil, pointer: "", keyword: "multipart",
                    message: "the multipart/form-data body has no boundary in its Content-Type")
            ]
        }
        let text = String(decoding: body, as: UTF8.self)
        var names: Set<String> = []
        for part in text.components(separatedBy: "--" + boundary).dropFirst() {
            let head = part.components(separatedBy: "\r\n\r\n").first ?? ""
            guard let range = head.range(of: "name=\"", options: .caseInsensitive) else { continue }
            let rest = head[range.upperBound...]
            names.insert(String(rest.prefix { $0 != "\"" }))
        }
        return schema.lookup.required.filter { !names.contains($0) }.map { name in
            RequestViolation(
                location: "body", name: nil, pointer: "/" + Located.escaped(name), keyword: "required",
                message: "the required part \"\(name)\" is missing")
        }
    }
}
