import Foundation
import RequestMocker

/// What a request asks of the contract through `Prefer` (RFC 7240: several preferences in one
/// header, comma-separated) or the query, for clients that can't set headers.
package struct Preferences {
    /// The query items that are preferences, not parameters.
    static let queryNames: Set<String> = ["__code", "__example", "__dynamic"]

    var code: String?
    var example: String?
    var dynamic = false

    /// No preferences.
    init() {}

    /// - Parameter queryItems: the request's query items, when they were read already.
    init(_ request: MockRequest, queryItems: [URLQueryItem]? = nil) {
        for header in request.headers.values(for: "Prefer") {
            for preference in header.split(separator: ",") {
                // `name=value; parameter`: the parameters don't matter here.
                let token = preference.split(separator: ";").first ?? ""
                let parts = token.split(separator: "=", maxSplits: 1)
                let name = parts.first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
                var value = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : "true"
                if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                    value = String(value.dropFirst().dropLast())
                }
                set(name, value)
            }
        }
        for item in queryItems ?? request.queryItems where Self.queryNames.contains(item.name) {
            set(String(item.name.dropFirst(2)), item.value ?? "true")
        }
    }

    /// What the request prefers, as `serve`'s log shows it when a source other than the contract
    /// answered it (the preferences were not applied): `Prefer: code=404`; `nil` when it
    /// prefers nothing.
    package static func shown(for request: MockRequest) -> String? {
        let preferences = Preferences(request)
        var shown: [String] = []
        if let code = preferences.code { shown.append("code=\(code)") }
        if let example = preferences.example { shown.append("example=\(example)") }
        if preferences.dynamic { shown.append("dynamic=true") }
        return shown.isEmpty ? nil : "Prefer: " + shown.joined(separator: ", ")
    }

    private mutating func set(_ name: String, _ value: String) {
        switch name {
        case "code": code = value
        case "example": example = value
        case "dynamic": dynamic = value.lowercased() == "true"
        default: break
        }
    }
}
