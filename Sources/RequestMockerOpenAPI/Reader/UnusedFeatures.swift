import RequestMocker

/// The features of OpenAPI and JSON Schema a contract uses and the mock doesn't, counted for one
/// notice: callbacks, webhooks, links, conditional and pattern keywords, `unevaluated*`,
/// `$dynamicRef` and XML objects.
enum UnusedFeatures {
    /// The keys counted, and how the notice names them.
    private static let named: [(key: String, name: String)] = [
        ("callbacks", "callbacks"), ("webhooks", "webhooks"), ("links", "links"), ("if", "if/then/else"),
        ("patternProperties", "patternProperties"), ("unevaluatedProperties", "unevaluatedProperties"),
        ("unevaluatedItems", "unevaluatedItems"), ("$dynamicRef", "$dynamicRef"), ("xml", "xml"),
        ("dependentSchemas", "dependentSchemas"), ("contains", "contains"), ("propertyNames", "propertyNames"),
    ]

    /// Keys whose members are names, not keywords: a property named `links` is no link.
    private static let naming: Set<String> = [
        "properties", "patternProperties", "dependentSchemas", "$defs", "definitions", "mapping", "variables",
        "headers", "content", "responses", "paths", "schemas", "parameters", "securitySchemes", "requestBodies",
        "callbacks", "links", "webhooks", "encoding", "scopes", "pathItems",
    ]
    /// Keys whose values are data, not part of the contract's structure.
    private static let data: Set<String> = ["example", "examples", "default", "enum", "const", "value"]

    /// One line with the counts, or `nil` when the contract uses none of them.
    static func notice(in root: DocumentNode) -> String? {
        var counts: [String: Int] = [:]
        // Depth first with an explicit stack; `names` is whether the node's keys are names.
        var pending: [(node: DocumentNode, names: Bool)] = [(root, false)]
        while let (node, names) = pending.popLast() {
            switch node.value {
            case .array(let elements): pending += elements.map { ($0, false) }
            case .object(let object):
                for member in object.members {
                    if names {
                        pending.append((member.value, false))
                        continue
                    }
                    if member.key.hasPrefix("x-") || data.contains(member.key) { continue }
                    if isCounted(member.key) { counts[member.key, default: 0] += 1 }
                    pending.append((member.value, naming.contains(member.key)))
                }
            default: break
            }
        }
        let used = Self.named.compactMap { entry in counts[entry.key].map { "\(entry.name) (\($0))" } }
        guard !used.isEmpty else { return nil }
        return "not used by the mock: " + used.joined(separator: ", ")
    }

    private static func isCounted(_ key: String) -> Bool {
        Self.named.contains { $0.key == key }
    }
}
