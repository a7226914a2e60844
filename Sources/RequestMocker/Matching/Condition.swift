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
    case predicate(String, @Sendable (MockRequest) -> Bool)

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
                return request.bodyHiddenByUploadTask
                    ? "body is hidden: Linux does not show upload-task bodies to URL protocols; "
                        + "use data(for:) with httpBody"
                    : "request has no body, filter wants JSON \(Redaction.shown(wanted))"
            }
            do {
                let actual = try JSONValue(parsing: body)
                return actual == wanted
                    ? nil : "JSON body is \(Redaction.shown(actual)), filter wants \(Redaction.shown(wanted))"
            } catch {
                return "body is not JSON (\(error)), filter wants \(Redaction.shown(wanted))"
            }
        case .predicate(let description, let predicate):
            return predicate(request) ? nil : "predicate \"\(description)\" returned false"
        }
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
        case .predicate(let description, _): return "when \"\(description)\""
        }
    }
}
