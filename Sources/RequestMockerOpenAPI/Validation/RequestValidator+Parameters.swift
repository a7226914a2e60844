import Foundation
import RequestMocker

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
        var exact: [String: ExactNumber] = [:]
        if parameter.isJSON {
            guard let text = rawValues(of: parameter).first else { return missing(parameter, violation) }
            do {
                (value, exact) = try JSONValue.parsingExactly(Data(text.utf8))
            } catch {
                return [violation("", "json", "the value is not JSON: \(error)")]
            }
        } else {
            guard let read = self.value(of: parameter, exact: &exact) else { return missing(parameter, violation) }
            value = read
        }
        guard let schema = parameter.schema else { return [] }
        return SchemaValidator.violations(of: value, against: schema, direction: .request, exactNumbers: exact).map {
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

    /// The parameter's value read by its style, or `nil` when the request doesn't send it; the
    /// numbers in it no `Int` or `Double` holds exactly go into `exact`, by their pointer.
    private func value(of parameter: OperationPlan.Parameter, exact: inout [String: ExactNumber]) -> JSONValue? {
        let types = parameter.schema?.lookedUpTypes ?? []
        let isArray = types.contains("array")
        let isObject = types.contains("object") && !isArray
        // Made only for a list or an object, whose items and members it reads.
        let lookup = isArray || isObject ? parameter.schema?.lookup : nil
        func read(_ text: String, _ schema: Schema?, at pointer: String) -> JSONValue {
            let (value, number) = ParameterText.read(text, schema)
            if let number { exact[pointer] = number }
            return value
        }
        if isObject, parameter.location == .query, parameter.style == "deepObject" || parameter.explode {
            return exploded(parameter, read)
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
            return .array(items.enumerated().map { read($1, lookup?.items, at: "/\($0)") })
        }
        if isObject {
            // `k,v,k2,v2`, or `k=v,k2=v2` where exploded (headers and paths).
            let pieces = text.components(separatedBy: Self.separator(of: parameter))
            var members: [String: JSONValue] = [:]
            if parameter.explode {
                for piece in pieces {
                    let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
                    if pair.count == 2 {
                        members[pair[0]] = read(pair[1], lookup?.property(pair[0]), at: "/" + Located.escaped(pair[0]))
                    }
                }
            } else {
                var index = 0
                while index + 1 < pieces.count {
                    let key = pieces[index]
                    members[key] = read(pieces[index + 1], lookup?.property(key), at: "/" + Located.escaped(key))
                    index += 2
                }
            }
            return .object(members)
        }
        return read(text, parameter.schema, at: "")
    }

    /// What separates a list's items: `.` for an exploded label, space and pipe for their
    /// delimited styles, else a comma. A form body's field (``FormBody``) is split by the same rule.
    static func separator(style: String, explode: Bool) -> String {
        switch style {
        case "spaceDelimited": " "
        case "pipeDelimited": "|"
        case "label" where explode: "."
        default: ","
        }
    }

    private static func separator(of parameter: OperationPlan.Parameter) -> String {
        separator(style: parameter.style, explode: parameter.explode)
    }

    /// An exploded object in the query: its properties as query items of their own (`form`),
    /// or as `name[key]` (`deepObject`); `nil` when none is there.
    private func exploded(
        _ parameter: OperationPlan.Parameter, _ read: (String, Schema?, String) -> JSONValue
    ) -> JSONValue? {
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
            members[key] = read(item.value ?? "", lookup?.property(key), "/" + Located.escaped(key))
        }
        return members.isEmpty ? nil : .object(members)
    }
}
