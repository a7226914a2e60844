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
                    let actual = items.filter { $0.name == requirement.name }.map { $0.value ?? "" }
                    let wanted = requirement.value.map { "\(requirement.name)=\($0)" } ?? requirement.name
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
            let shown = actual.isEmpty ? "no query" : "query \(actual.joined(separator: "&"))"
            return "\(shown), filter wants exactly \(wanted.isEmpty ? "no query" : wanted.joined(separator: "&"))"
        case .header(let name, let value):
            let values = request.headers.values(for: name)
            if values.isEmpty { return "header \(name) is missing" }
            if let value, !values.contains(value) {
                return "header \(name) is \"\(values.joined(separator: ", "))\", filter wants \"\(value)\""
            }
            return nil
        case .jsonBody(let wanted):
            guard let body = request.body, !body.isEmpty else {
                return request.bodyHiddenByUploadTask
                    ? "body is hidden: Linux does not show upload-task bodies to URL protocols; "
                        + "use data(for:) with httpBody"
                    : "request has no body, filter wants JSON \(wanted)"
            }
            do {
                let actual = try JSONValue(parsing: body)
                return actual == wanted ? nil : "JSON body is \(actual), filter wants \(wanted)"
            } catch {
                return "body is not JSON (\(error)), filter wants \(wanted)"
            }
        case .predicate(let description, let predicate):
            return predicate(request) ? nil : "predicate \"\(description)\" returned false"
        }
    }

    var description: String {
        switch self {
        case .query(let items, let exact):
            let text = items.map { item in item.value.map { "\(item.name)=\($0)" } ?? item.name }.joined(separator: "&")
            return exact ? "?=\(text)" : "?\(text)"
        case .header(let name, let value): return "[\(name)\(value.map { ": \($0)" } ?? "")]"
        case .jsonBody(let value): return "body \(value)"
        case .predicate(let description, _): return "when \"\(description)\""
        }
    }
}
