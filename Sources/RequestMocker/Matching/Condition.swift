/// The optional conditions of a ``RequestFilter`` beyond scheme, host, method and path.
enum Condition: Sendable, CustomStringConvertible {
    /// One query item a filter asks for.
    struct QueryRequirement: Sendable, Hashable {
        let name: String
        let value: String?
    }

    case query([QueryRequirement], exact: Bool)
    case header(name: HTTPHeaders.Name, value: String?)
    case jsonBody(JSONValue)
    /// Fields of an `application/x-www-form-urlencoded` body (others may be present too).
    case formBody([QueryRequirement])
    /// The last path segment's extension, lower case, without the dot.
    case pathExtension(String)
    case predicate(String, @Sendable (MockRequest) -> Bool)
    /// A GraphQL request for the named operation, with these variables among its own.
    case graphQL(operationName: String?, variables: [String: JSONValue])

    /// Why a body condition can't see the body of `request`, which has none.
    private static func missingBody(_ request: MockRequest, wanted: String) -> String {
        request.bodyHiddenByUploadTask
            ? "body is hidden: it came from an upload task, whose body the platform doesn't show URL protocols "
                + "(Linux never does); use data(for:) with httpBody"
            : "request has no body, filter wants \(wanted)"
    }

    /// Why `request` fails this condition, or `nil` when it holds.
    func mismatch(_ request: MockRequest) -> String? {
        switch self {
        case .query(let required, exact: false):
            let items = request.queryItems
            for requirement in required {
                let present = items.contains {
                    $0.name == requirement.name && (requirement.value == nil || $0.value == requirement.value)
                }
                if !present {
                    let actual = items.filter { $0.name == requirement.name }
                        .map { Redaction.shown($0.value ?? "", ofField: requirement.name) }
                    let wanted =
                        requirement.value.map {
                            "\(requirement.name)=\(Redaction.shown($0, ofField: requirement.name))"
                        }
                        ?? requirement.name
                    return actual.isEmpty
                        ? "query has no \(requirement.name), filter wants \(wanted)"
                        : "query has \(requirement.name)=\(actual.joined(separator: ",")), filter wants \(wanted)"
                }
            }
            return nil
        case .query(let required, exact: true):
            let actual = request.queryItems.map { "\($0.name)=\($0.value ?? "")" }.sorted()
            let wanted = required.map { "\($0.name)=\($0.value ?? "")" }.sorted()
            guard actual != wanted else { return nil }
            let shownPairs: ([String]) -> [String] = { pairs in
                pairs.map { pair in
                    let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                    return "\(parts[0])=\(Redaction.shown(String(parts[1]), ofField: String(parts[0])))"
                }
            }
            let shownActual = shownPairs(actual)
            let shownWanted = shownPairs(wanted)
            let shown = shownActual.isEmpty ? "no query" : "query \(shownActual.joined(separator: "&"))"
            let wantedText = shownWanted.isEmpty ? "no query" : shownWanted.joined(separator: "&")
            return "\(shown), filter wants exactly \(wantedText)"
        case .header(let name, let value):
            let values = request.headers.values(for: name)
            if values.isEmpty { return "header \(name) is missing" }
            if let value, !values.contains(value) {
                let shown = values.map { Redaction.shown($0, ofHeader: name) }.joined(separator: ", ")
                return "header \(name) is \"\(shown)\", filter wants \"\(Redaction.shown(value, ofHeader: name))\""
            }
            return nil
        case .jsonBody(let wanted):
            guard let body = request.body, !body.isEmpty else {
                return Self.missingBody(request, wanted: "JSON \(Redaction.shown(wanted))")
            }
            do {
                let actual = try JSONValue(parsing: body)
                return actual == wanted
                    ? nil : "JSON body is \(Redaction.shown(actual)), filter wants \(Redaction.shown(wanted))"
            } catch {
                return "body is not JSON (\(error)), filter wants \(Redaction.shown(wanted))"
            }
        case .formBody(let required):
            return Self.formMismatch(request, required)
        case .pathExtension(let wanted):
            let last = request.pathSegments.last ?? ""
            let dot = last.lastIndex(of: ".")
            let actual = dot.map { String(last[last.index(after: $0)...]).lowercased() }
            guard actual != wanted else { return nil }
            return actual.map { "path extension is \"\($0)\", filter wants \"\(wanted)\"" }
                ?? "path has no extension, filter wants \"\(wanted)\""
        case .predicate(let description, let predicate):
            return predicate(request) ? nil : "predicate \"\(description)\" returned false"
        case .graphQL(let operationName, let variables):
            guard let summary = GraphQLRequestSummary(request) else {
                return "request is not GraphQL (no query or operationName), filter wants \(self)"
            }
            if let operationName, summary.operationName != operationName {
                return "GraphQL operation is \(summary.operationName ?? "anonymous"), filter wants \(operationName)"
            }
            for (name, value) in variables.sorted(by: { $0.key < $1.key }) where summary.variables[name] != value {
                let actual = summary.variables[name].map { Redaction.shown($0) } ?? "missing"
                return "GraphQL variable \(name) is \(actual), filter wants \(Redaction.shown(value))"
            }
            return nil
        }
    }

    /// Why `request`'s body isn't a form with the `required` fields, naming the first field
    /// that differs.
    private static func formMismatch(_ request: MockRequest, _ required: [QueryRequirement]) -> String? {
        guard let body = request.body, !body.isEmpty else {
            return missingBody(request, wanted: "a form with \(formText(required))")
        }
        if let type = request.headers[.contentType],
            !type.lowercased().hasPrefix("application/x-www-form-urlencoded")
        {
            return "body is \(type), filter wants a form (application/x-www-form-urlencoded)"
        }
        guard let text = String(data: body, encoding: .utf8) else {
            return "body is not UTF-8 text, filter wants a form with \(formText(required))"
        }
        let fields = FormFields.pairs(text)
        for requirement in required {
            let named = fields.filter { $0.name == requirement.name }
            guard !named.isEmpty else {
                return "form has no field \(requirement.name), filter wants \(formText([requirement]))"
            }
            guard let wanted = requirement.value, !named.contains(where: { $0.value == wanted }) else { continue }
            let actual = named.map { field in
                field.value.map { "\"\(Redaction.shown($0, ofField: requirement.name))\"" } ?? "(no value)"
            }
            return "form field \(requirement.name) is \(actual.joined(separator: ", ")), filter wants "
                + "\"\(Redaction.shown(wanted, ofField: requirement.name))\""
        }
        return nil
    }

    /// Fields as a filter's description shows them: `name=value`, or the name alone.
    private static func formText(_ fields: [QueryRequirement]) -> String {
        fields.map { field in
            field.value.map { "\(field.name)=\(Redaction.shown($0, ofField: field.name))" } ?? field.name
        }.joined(separator: "&")
    }

    var description: String {
        switch self {
        case .query(let items, let exact):
            let text = items.map { item in
                item.value.map { "\(item.name)=\(Redaction.shown($0, ofField: item.name))" } ?? item.name
            }.joined(separator: "&")
            return exact ? "?=\(text)" : "?\(text)"
        case .header(let name, let value):
            return "[\(name)\(value.map { ": \(Redaction.shown($0, ofHeader: name))" } ?? "")]"
        case .jsonBody(let value): return "body \(Redaction.shown(value))"
        case .formBody(let fields): return "form \(Self.formText(fields))"
        case .pathExtension(let wanted): return "*.\(wanted)"
        case .predicate(let description, _): return "when \"\(description)\""
        case .graphQL(let operationName, let variables):
            let variablesText = variables.isEmpty ? "" : " variables \(Redaction.shown(JSONValue.object(variables)))"
            return "graphql \(operationName ?? "any operation")" + variablesText
        }
    }
}
