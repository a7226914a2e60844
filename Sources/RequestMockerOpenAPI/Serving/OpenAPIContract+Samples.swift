import Foundation
import RequestMocker

extension OpenAPIContract {
    /// A request the contract allows for the operation at `index` of ``operations``: its path
    /// parameters, required query, header and cookie parameters and request body from the
    /// contract's examples where they pass their schemas, else generated; credentials of the
    /// right shape for its first security requirement. The tests of every operation of a real
    /// contract, and `request-mocker check`'s own examples, start from it.
    package func sampleRequest(forOperationAt index: Int, base: URL) -> URLRequest {
        let operation = operations[index]
        let plan = plans[index]
        var template = operation.path
        if let hash = template.firstIndex(of: "#") { template = String(template[..<hash]) }
        var queryItems: [URLQueryItem] = []
        if let question = template.firstIndex(of: "?") {
            queryItems += URLComponents(string: "/" + template[question...])?.queryItems ?? []
            template = String(template[..<question])
        }
        var headers: [(String, String)] = []
        var cookies: [String] = []
        for parameter in plan.parameters {
            guard parameter.location == .path || parameter.required, let value = Self.sample(of: parameter) else {
                continue
            }
            switch parameter.location {
            case .path:
                let text = Self.text(value, style: parameter.style, name: parameter.name, explode: parameter.explode)
                let encoded = text.addingPercentEncoding(withAllowedCharacters: Self.segmentCharacters) ?? text
                template = template.replacingOccurrences(of: "{\(parameter.name)}", with: encoded)
            case .query:
                queryItems += Self.queryItems(value, for: parameter)
            case .header:
                headers.append(
                    (parameter.name, Self.text(value, style: "simple", name: parameter.name, explode: false)))
            case .cookie:
                cookies.append(
                    "\(parameter.name)=\(Self.text(value, style: "form", name: parameter.name, explode: false))")
            }
        }
        for credential in plan.security.first ?? [] {
            switch credential.kind {
            case .apiKey(let name, .header): headers.append((name, "sample-key"))
            case .apiKey(let name, .query): queryItems.append(URLQueryItem(name: name, value: "sample-key"))
            case .apiKey(let name, .cookie): cookies.append("\(name)=sample-key")
            case .apiKey(_, .path), .none: break
            case .basic: headers.append(("Authorization", "Basic " + Data("user:password".utf8).base64EncodedString()))
            case .bearer: headers.append(("Authorization", "Bearer sample-token"))
            case .http(let scheme): headers.append(("Authorization", "\(scheme) sample-token"))
            }
        }
        let path = (operation.serverPath ?? basePath) + template
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        components.percentEncodedPath = components.percentEncodedPath.trimmingSuffix("/") + path
        components.queryItems = queryItems.isEmpty ? nil : queryItems
        var request = URLRequest(url: components.url ?? base)
        request.httpMethod = operation.method.rawValue
        request.setValue("*/*", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if !cookies.isEmpty { request.setValue(cookies.joined(separator: "; "), forHTTPHeaderField: "Cookie") }
        if let body = plan.body, let media = body.content.first {
            let (data, type) = Self.sampleBody(media)
            request.httpBody = data
            request.setValue(type, forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// The schema of the response the operation at `index` declares for `status` (exactly, by
    /// its range, or as `default`) and `mediaType`.
    package func responseSchema(of index: Int, status: Int, mediaType: String) -> Schema? {
        plans[index].response(for: status)?.content.first { $0.mediaType.accepts(mediaType) }?.schema
    }

    private static let segmentCharacters = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/;"))

    /// The parameter's example where it passes its schema, else a value generated from it.
    private static func sample(of parameter: OperationPlan.Parameter) -> JSONValue? {
        if let example = parameter.example?.jsonValue {
            guard let schema = parameter.schema else { return example }
            if SchemaValidator.violations(of: example, against: schema, direction: .request).isEmpty { return example }
        }
        guard let schema = parameter.schema else { return .string("sample") }
        return try? SchemaGenerator.value(for: schema, direction: .request).jsonValue
    }

    /// A value as a parameter's text in `style`: lists comma-separated (`.`-prefixed for
    /// `label`, `;name=`-prefixed for `matrix`), objects as `key,value` pairs.
    private static func text(_ value: JSONValue, style: String, name: String, explode: Bool) -> String {
        let text: String
        switch value {
        case .array(let items): text = items.map(scalarText).joined(separator: ",")
        case .object(let members):
            text = members.sorted { $0.key < $1.key }.map { "\($0.key),\(scalarText($0.value))" }.joined(separator: ",")
        default: text = scalarText(value)
        }
        switch style {
        case "label": return "." + text
        case "matrix": return ";\(name)=" + text
        default: return text
        }
    }

    private static func scalarText(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): String(double)
        case .bool(let bool): bool ? "true" : "false"
        case .null: ""
        case .array, .object: (try? value.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
    }

    private static func queryItems(_ value: JSONValue, for parameter: OperationPlan.Parameter) -> [URLQueryItem] {
        if parameter.isJSON {
            let json = (try? value.serialized()).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            return [URLQueryItem(name: parameter.name, value: json)]
        }
        switch value {
        case .array(let items) where parameter.explode && parameter.style == "form":
            return items.map { URLQueryItem(name: parameter.name, value: scalarText($0)) }
        case .array(let items):
            let separator = ["spaceDelimited": " ", "pipeDelimited": "|"][parameter.style] ?? ","
            return [URLQueryItem(name: parameter.name, value: items.map(scalarText).joined(separator: separator))]
        case .object(let members) where parameter.style == "deepObject":
            return members.sorted { $0.key < $1.key }.map {
                URLQueryItem(name: "\(parameter.name)[\($0.key)]", value: scalarText($0.value))
            }
        case .object(let members) where parameter.explode:
            return members.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: scalarText($0.value)) }
        default:
            return [
                URLQueryItem(
                    name: parameter.name,
                    value: text(value, style: parameter.style, name: parameter.name, explode: parameter.explode))
            ]
        }
    }

    /// A body of `media`: its example or a generated value, as JSON, a form or multipart parts.
    private static func sampleBody(_ media: OperationPlan.Media) -> (Data, String) {
        let type = media.type.contains("*") ? "application/octet-stream" : media.type
        var value = media.example?.jsonValue ?? media.examples.first?.value.jsonValue
        if let schema = media.schema,
            value.map({
                !SchemaValidator.violations(of: $0, against: schema, direction: .request).isEmpty
            }) ?? true
        {
            value = try? SchemaGenerator.value(for: schema, direction: .request).jsonValue
        }
        let essence = MediaType(type).essence
        switch (essence, value) {
        case ("application/x-www-form-urlencoded", .object(let members)?):
            var fields: [String] = []
            for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                let items: [JSONValue] = if case .array(let items) = member { items } else { [member] }
                for item in items { fields.append(FormFields.encode(name) + "=" + FormFields.encode(scalarText(item))) }
            }
            return (Data(fields.joined(separator: "&").utf8), type)
        case ("multipart/form-data", let value):
            let boundary = "RequestMockerSample"
            var parts: [MultipartBody.Part] = []
            if case .object(let members)? = value {
                for (name, member) in members.sorted(by: { $0.key < $1.key }) {
                    // A list is one part per item, as OpenAPI writes an array of a multipart body.
                    let items: [JSONValue] = if case .array(let items) = member { items } else { [member] }
                    parts += items.map { MultipartBody.Part(name: name, body: Data(scalarText($0).utf8)) }
                }
            }
            return (
                MultipartBody(parts: parts).encoded(boundary: boundary), "multipart/form-data; boundary=\(boundary)"
            )
        case (_, let value?) where MediaType(essence).isJSON:
            return ((try? value.serialized()) ?? Data("null".utf8), type)
        case (_, .string(let text)?):
            return (Data(text.utf8), type)
        default:
            return (Data("sample".utf8), type)
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String {
        hasSuffix(suffix) ? String(dropLast(suffix.count)) : self
    }
}
