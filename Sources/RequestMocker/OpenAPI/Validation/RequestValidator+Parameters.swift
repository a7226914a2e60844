import Foundation

extension RequestValidator {
    /// Header parameters the specification says to ignore: other rules cover them.
    private static let ignoredHeaders: Set<String> = ["accept", "content-type", "authorization"]

    /// The violations of one parameter: required and missing, not JSON where it must be, or
    /// against its schema once its text is read by its style.
    func violations(of parameter: OperationPlan.Parameter) -> [RequestViolation] {
        if parameter.location == .header, Self.ignoredHeaders.contains(parameter.name.lowercased()) { return [] }
        func violation(_ pointer: String, _ keyword: String, _ message: String) -> RequestViolation {
            RequestViolation(
                location: parameter.location.rawValue, name: parameter.name, pointer: pointer, keyword: keyword,
                message: message)
        }
        let value: JSONValue
        if parameter.isJSON {
            guard let text = rawValues(of: parameter).first else { return missing(parameter, violation) }
            do {
                value = try JSONValue(parsing: Data(text.utf8))
            } catch {
                return [violation("", "json", "the value is not JSON: \(error)")]
            }
        } else {
            guard let read = self.value(of: parameter) else { return missing(parameter, violation) }
            value = read
        }
        guard let schema = parameter.schema else { return [] }
        return SchemaValidator.violations(of: value, against: schema, direction: .request).map {
            violation($0.pointer, $0.keyword, $0.message)
        }
    }

    private func missing(
        _ parameter: OperationPlan.Parameter, _ violation: (String, String, String) -> RequestViolation
    ) -> [RequestViolation] {
        guard parameter.required else { return [] }
        return [violation("", "required", "the required \(parameter.location.rawValue) parameter is missing")]
    }

    /// The query items that are parameters (not `__code` and the like).
    private var query: [URLQueryItem] {
        queryItems.filter { !Preferences.queryNames.contains($0.name) }
    }

    /// The texts sent for the parameter, as they arrived: every query item of its name, the
    /// header's value, the cookie's, the path segment's.
    private func rawValues(of parameter: OperationPlan.Parameter) -> [String] {
        switch parameter.location {
        case .query: query.filter { $0.name == parameter.name }.map { $0.value ?? "" }
        case .header: request.header(HTTPHeaders.Name(parameter.name)).map { [$0] } ?? []
        case .cookie: cookies[parameter.name].map { [$0] } ?? []
        case .path: pathValues[parameter.name].map { [$0] } ?? []
        }
    }

    /// The parameter's value read by its style, or `nil` when the request doesn't send it.
    private func value(of parameter: OperationPlan.Parameter) -> JSONValue? {
        let lookup = parameter.schema?.lookup
        let types = lookup?.types ?? []
        let isArray = types.contains("array")
        let isObject = types.contains("object") && !isArray
        if isObject, parameter.location == .query, parameter.style == "deepObject" || parameter.explode {
            return exploded(parameter)
        }
        guard var text = rawValues(of: parameter).first else { return nil }
        // The prefixes of the path styles: `.5` (label), `;id=5` (matrix).
        if parameter.location == .path, parameter.style == "label", text.hasPrefix(".") {
            text.removeFirst()
        } else if parameter.location == .path, parameter.style == "matrix" {
            text = text.replacingOccurrences(of: ";\(parameter.name)=", with: parameter.explode ? "," : "")
            if text.hasPrefix(",") { text.removeFirst() }
        }
        if isArray {
            var items: [String]
            if parameter.location == .query, parameter.explode, parameter.style == "form" {
                items = rawValues(of: parameter)
            } else {
                items = text.components(separatedBy: Self.separator(of: parameter))
            }
            if text.isEmpty, items == [""] { items = [] }
            return .array(items.map { ParameterText.value($0, lookup?.items) })
        }
        if isObject {
            // `k,v,k2,v2`, or `k=v,k2=v2` where exploded (headers and paths).
            let pieces = text.components(separatedBy: Self.separator(of: parameter))
            var members: [String: JSONValue] = [:]
            if parameter.explode {
                for piece in pieces {
                    let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
                    if pair.count == 2 { members[pair[0]] = ParameterText.value(pair[1], lookup?.property(pair[0])) }
                }
            } else {
                var index = 0
                while index + 1 < pieces.count {
                    members[pieces[index]] = ParameterText.value(pieces[index + 1], lookup?.property(pieces[index]))
                    index += 2
                }
            }
            return .object(members)
        }
        return ParameterText.value(text, parameter.schema)
    }

    /// What separates a list's items: `.` for an exploded label, space and pipe for their
    /// delimited styles, else a comma.
    private static func separator(of parameter: OperationPlan.Parameter) -> String {
        switch parameter.style {
        case "spaceDelimited": " "
        case "pipeDelimited": "|"
        case "label" where parameter.explode: "."
        default: ","
        }
    }

    /// An exploded object in the query: its properties as query items of their own (`form`),
    /// or as `name[key]` (`deepObject`); `nil` when none is there.
    private func exploded(_ parameter: OperationPlan.Parameter) -> JSONValue? {
        let lookup = parameter.schema?.lookup
        var members: [String: JSONValue] = [:]
        for item in query {
            let key: String
            if parameter.style == "deepObject" {
                let prefix = parameter.name + "["
                guard item.name.hasPrefix(prefix), item.name.hasSuffix("]") else { continue }
                key = String(item.name.dropFirst(prefix.count).dropLast())
            } else {
                guard lookup?.declares(item.name) == true else { continue }
                key = item.name
            }
            members[key] = ParameterText.value(item.value ?? "", lookup?.property(key))
        }
        return members.isEmpty ? nil : .object(members)
    }
}
