import Foundation
import RequestMocker

extension ContractDraft {
    /// The methods a 3.1 path item holds, in the order a draft writes them.
    package static let methods = ["GET", "PUT", "POST", "DELETE", "OPTIONS", "HEAD", "PATCH", "TRACE"]

    /// The drafted contract as a document tree: OpenAPI 3.1, paths by template, same bytes each run.
    package func document() -> DocumentNode {
        let tree = root.copy()
        tree.foldSiblings(pastFirst: false)
        var schemes = SchemeNames()
        var paths: [(String, DocumentNode)] = []
        for (template, parameters, node) in tree.templates() {
            var item: [(String, DocumentNode)] = []
            if !parameters.isEmpty {
                item.append(
                    (
                        "parameters",
                        .list(
                            parameters.map { name, values in
                                .map([
                                    ("name", .text(name)), ("in", .text("path")),
                                    ("required", DocumentNode(.bool(true), at: 0)),
                                    ("schema", values.schema),
                                ])
                            })
                    ))
            }
            for method in Self.methods {
                guard let operation = node.operations[method] else { continue }
                item.append((method.lowercased(), operationNode(operation, schemes: &schemes)))
            }
            if item.count > (parameters.isEmpty ? 0 : 1) { paths.append((template, .map(item))) }
        }
        let (rewritten, schemas) = SchemaComponents.extract(from: paths)
        var top: [(String, DocumentNode)] = [
            ("openapi", .text("3.1.0")),
            (
                "info",
                .map([
                    ("title", .text("Drafted from recordings")), ("version", .text("0.1.0")),
                    (
                        "description",
                        .text(
                            "Drafted by request-mocker draft from \(exchanges) recorded exchange"
                                + "\(exchanges == 1 ? "" : "s"). Review it before publishing it.")
                    ),
                ])
            ),
        ]
        let prefix = basePath.isEmpty ? "" : "/" + basePath.joined(separator: "/")
        let servers = origins.sorted().map { DocumentNode.map([("url", .text($0 + prefix))]) }
        top.append(
            ("servers", .list(servers.isEmpty ? [.map([("url", .text(prefix.isEmpty ? "/" : prefix))])] : servers)))
        top.append(("paths", .map(rewritten)))
        var components: [(String, DocumentNode)] = []
        if !schemas.isEmpty { components.append(("schemas", .map(schemas))) }
        if !schemes.all.isEmpty { components.append(("securitySchemes", .map(schemes.all))) }
        if !components.isEmpty { top.append(("components", .map(components))) }
        return .map(top)
    }

    /// How many paths and operations a drafted document holds.
    package static func counts(of document: DocumentNode) -> (paths: Int, operations: Int) {
        let paths = document["paths"]?.object?.members ?? []
        let operations = paths.reduce(0) { total, path in
            total + (path.value.object?.members.count { methods.contains($0.key.uppercased()) } ?? 0)
        }
        return (paths.count, operations)
    }

    /// Writes `document` to `file` atomically, as JSON when its extension is `json`, else as
    /// YAML; a missing folder is made.
    package static func write(_ document: DocumentNode, to file: URL) throws {
        let bytes =
            file.pathExtension.lowercased() == "json" ? document.prettyJSONBytes : YAMLWriter.bytes(of: document)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(Data(bytes), to: file)
    }

    /// The draft as YAML, in block style.
    ///
    /// ```swift
    /// print(String(decoding: draft.yaml(), as: UTF8.self))
    /// ```
    public func yaml() -> Data { Data(YAMLWriter.bytes(of: document())) }

    /// The draft as JSON, indented two spaces a level.
    ///
    /// ```swift
    /// let contract = try JSONSerialization.jsonObject(with: draft.json())
    /// ```
    public func json() -> Data { Data(document().prettyJSONBytes) }

    /// Writes the draft to `file`, as JSON when its extension is `json`, else as YAML, replacing
    /// it atomically (a missing folder is made).
    ///
    /// ```swift
    /// try draft.write(to: URL(fileURLWithPath: "openapi.yaml"))
    /// ```
    public func write(to file: URL) throws {
        try Self.write(document(), to: file)
    }

    /// Whether no exchange reached a path the draft can hold (every one was outside the base
    /// path, say): ``notes`` says why.
    ///
    /// ```swift
    /// if draft.isEmpty { print(draft.notes.joined(separator: "\n")) }
    /// ```
    public var isEmpty: Bool { !hasOperations }

    func operationNode(_ operation: OperationShape, schemes: inout SchemeNames) -> DocumentNode {
        var members: [(String, DocumentNode)] = []
        var parameters: [DocumentNode] = []
        for (location, texts) in [("query", operation.query), ("header", operation.headers)] {
            for (name, shape) in texts.entries {
                parameters.append(
                    .map([
                        ("name", .text(name)), ("in", .text(location)),
                        ("required", DocumentNode(.bool(shape.count == operation.count), at: 0)),
                        ("schema", shape.schema),
                    ]))
            }
        }
        if !parameters.isEmpty { members.append(("parameters", .list(parameters))) }
        if operation.credentials != [[]] {
            let requirements = operation.credentials.map { keys in
                DocumentNode.map(
                    keys.compactMap { key in
                        operation.schemes[key].map { (schemes.name(for: $0), DocumentNode.list([])) }
                    })
            }
            members.append(("security", .list(requirements)))
        }
        if !operation.requestBodies.types.isEmpty {
            members.append(
                (
                    "requestBody",
                    .map([
                        ("required", DocumentNode(.bool(operation.requestsWithBody == operation.count), at: 0)),
                        ("content", content(operation.requestBodies)),
                    ])
                ))
        }
        var responses: [(String, DocumentNode)] = []
        // A status OpenAPI can't name (600–999 are valid HTTP on the wire) is the default response.
        var named: [(key: String, response: ResponseShape, description: String)] = []
        var other: ResponseShape?
        for status in operation.responses.keys.sorted() {
            guard let response = operation.responses[status] else { continue }
            if (100...599).contains(status) {
                let phrase = HTTPStatus(status).reasonPhrase
                named.append((String(status), response, phrase.isEmpty ? "Status \(status)" : phrase))
            } else if let other {
                other.absorb(response)
            } else {
                other = response.copy()
            }
        }
        if let other { named.append(("default", other, "A status outside 100–599")) }
        for (key, response, description) in named {
            responses.append((key, responseNode(response, description: description)))
        }
        if responses.isEmpty {
            responses.append(("default", .map([("description", .text("No response was recorded"))])))
        }
        members.append(("responses", .map(responses)))
        return .map(members)
    }

    /// A response object: its description, its headers that aren't standard (`required` when
    /// every response had them) and its content.
    func responseNode(_ response: ResponseShape, description: String) -> DocumentNode {
        var fields: [(String, DocumentNode)] = [("description", .text(description))]
        let headers = response.headers.entries
        if !headers.isEmpty {
            fields.append(
                (
                    "headers",
                    .map(
                        headers.map { name, shape in
                            var header: [(String, DocumentNode)] = [("schema", shape.schema)]
                            if shape.count == response.count {
                                header.insert(("required", DocumentNode(.bool(true), at: 0)), at: 0)
                            }
                            return (name, .map(header))
                        })
                ))
        }
        if !response.bodies.types.isEmpty { fields.append(("content", content(response.bodies))) }
        return .map(fields)
    }

    func content(_ bodies: MediaBodies) -> DocumentNode {
        .map(bodies.types.compactMap { type in bodies.bodies[type].map { (type, $0.node) } })
    }
}

/// The security schemes a draft declares, each under one name.
struct SchemeNames {
    private(set) var all: [(String, DocumentNode)] = []
    private var names: [String: String] = [:]
    private var taken: Set<String> = []

    init() {}

    /// Names that reuse an existing contract's schemes of the same kind (`components/securitySchemes`
    /// of `document`), which ``all`` doesn't list.
    init(existing document: DocumentNode) {
        for member in document["components"]?["securitySchemes"]?.object?.members ?? [] {
            taken.insert(member.key)
            let scheme = member.value
            var key: String?
            switch scheme["type"]?.string {
            case "http":
                if let word = scheme["scheme"]?.string { key = "http:" + word.lowercased() }
            case "apiKey":
                if let location = scheme["in"]?.string, let name = scheme["name"]?.string {
                    key = "apiKey:\(location):\(location == "header" ? name.lowercased() : name)"
                }
            default: continue
            }
            // The first scheme of a kind is the one a new operation names.
            if let key, names[key] == nil { names[key] = member.key }
        }
    }

    mutating func name(for scheme: SecurityScheme) -> String {
        if let known = names[scheme.key] { return known }
        let name = Self.unique(scheme.name, among: &taken)
        names[scheme.key] = name
        all.append((name, scheme.node))
        return name
    }

    /// `base`, or `base2`, `base3`… when it is taken; marked as taken.
    static func unique(_ base: String, among taken: inout Set<String>) -> String {
        var name = base
        var suffix = 2
        while taken.contains(name) {
            name = base + String(suffix)
            suffix += 1
        }
        taken.insert(name)
        return name
    }
}

/// Moves object schemas that a draft writes more than once into `components/schemas`, named
/// from where they appear: after the path of a body they are the whole of (`/users/{userId}` →
/// `User`), else where they first appear (a property `author` → `Author`, the items of
/// `comments` → `Comment`); each place is then a `$ref`.
enum SchemaComponents {
    static func extract(
        from paths: [(String, DocumentNode)]
    ) -> (paths: [(String, DocumentNode)], schemas: [(String, DocumentNode)]) {
        var counts: [[UInt8]: Int] = [:]
        var bodyNames: [[UInt8]: String] = [:]
        forEachSchema(in: paths) { schema, hint in
            count(schema, into: &counts, depth: 0)
            let key = schema.jsonBytes
            if bodyNames[key] == nil { bodyNames[key] = hint }
        }
        guard counts.values.contains(where: { $0 > 1 }) else { return (paths, []) }
        var state = Rewriting(counts: counts, bodyNames: bodyNames)
        let rewritten = mapSchemas(in: paths) { schema, hint in state.rewrite(schema, hint: hint, depth: 0) }
        return (rewritten, state.schemas)
    }

    /// The schemas of request and response bodies, with the name their path suggests.
    private static func forEachSchema(in paths: [(String, DocumentNode)], _ body: (DocumentNode, String) -> Void) {
        _ = mapSchemas(in: paths) { schema, hint in
            body(schema, hint)
            return schema
        }
    }

    private static func mapSchemas(
        in paths: [(String, DocumentNode)], _ transform: (DocumentNode, String) -> DocumentNode
    ) -> [(String, DocumentNode)] {
        paths.map { template, item in
            let literal = template.split(separator: "/").last { !$0.hasPrefix("{") }.map(String.init) ?? "body"
            let hint = pascalCase(PathShape.singular(literal))
            return (
                template,
                item.replacingMembers { method, operation in
                    guard ContractDraft.methods.contains(method.uppercased()) else { return operation }
                    return operation.replacingMembers { key, value in
                        switch key {
                        case "requestBody":
                            return value.replacingMembers { field, content in
                                field == "content" ? mapContent(content, hint: hint, transform) : content
                            }
                        case "responses":
                            return value.replacingMembers { _, response in
                                response.replacingMembers { field, content in
                                    field == "content" ? mapContent(content, hint: hint, transform) : content
                                }
                            }
                        default: return value
                        }
                    }
                }
            )
        }
    }

    private static func mapContent(
        _ content: DocumentNode, hint: String, _ transform: (DocumentNode, String) -> DocumentNode
    ) -> DocumentNode {
        content.replacingMembers { _, media in
            media.replacingMembers { field, schema in field == "schema" ? transform(schema, hint) : schema }
        }
    }

    /// Whether a schema is worth a name: an object schema with properties.
    private static func isNamed(_ schema: DocumentNode) -> Bool {
        schema["properties"]?.object.map { !$0.isEmpty } ?? false
    }

    private static func count(_ schema: DocumentNode, into counts: inout [[UInt8]: Int], depth: Int) {
        guard depth <= 4 * ValueShape.maximumDepth else { return }
        if isNamed(schema) { counts[schema.jsonBytes, default: 0] += 1 }
        for (child, _) in children(of: schema, hint: "") { count(child, into: &counts, depth: depth + 1) }
    }

    /// The schemas directly inside `schema`, with the names they'd take.
    fileprivate static func children(of schema: DocumentNode, hint: String) -> [(DocumentNode, String)] {
        var found: [(DocumentNode, String)] = []
        if let properties = schema["properties"]?.object {
            for member in properties.members { found.append((member.value, pascalCase(member.key))) }
        }
        if let items = schema["items"] { found.append((items, PathShape.singular(hint))) }
        if let values = schema["additionalProperties"], values.object != nil { found.append((values, hint + "Value")) }
        if case .array(let branches)? = schema["oneOf"]?.value {
            for (index, branch) in branches.enumerated() { found.append((branch, hint + "Variant\(index + 1)")) }
        }
        return found
    }

    fileprivate static func pascalCase(_ text: String) -> String {
        let camel = SecurityScheme.camelCase(text)
        return camel.prefix(1).uppercased() + camel.dropFirst()
    }

    private struct Rewriting {
        let counts: [[UInt8]: Int]
        /// The name a schema takes from the path of a body it is the whole of, which wins over
        /// a property's name.
        let bodyNames: [[UInt8]: String]
        var names: [[UInt8]: String] = [:]
        var schemas: [(String, DocumentNode)] = []
        var taken: Set<String> = []

        mutating func rewrite(_ schema: DocumentNode, hint: String, depth: Int) -> DocumentNode {
            guard depth <= 4 * ValueShape.maximumDepth else { return schema }
            let original = schema.jsonBytes
            if let name = names[original] { return Self.reference(name) }
            var rewritten = schema
            let children = SchemaComponents.children(of: schema, hint: hint)
            if !children.isEmpty {
                var replaced: [[UInt8]: DocumentNode] = [:]
                for (child, childHint) in children {
                    replaced[child.jsonBytes] = rewrite(child, hint: childHint, depth: depth + 1)
                }
                rewritten = schema.replacingMembers { key, value in
                    switch key {
                    case "properties":
                        return value.replacingMembers { _, property in replaced[property.jsonBytes] ?? property }
                    case "items", "additionalProperties": return replaced[value.jsonBytes] ?? value
                    case "oneOf":
                        guard case .array(let branches) = value.value else { return value }
                        return .list(branches.map { replaced[$0.jsonBytes] ?? $0 })
                    default: return value
                    }
                }
            }
            guard SchemaComponents.isNamed(schema), counts[original, default: 0] > 1 else { return rewritten }
            let name = SchemeNames.unique(bodyNames[original] ?? (hint.isEmpty ? "Schema" : hint), among: &taken)
            names[original] = name
            schemas.append((name, rewritten))
            return Self.reference(name)
        }

        static func reference(_ name: String) -> DocumentNode {
            .map([("$ref", .text("#/components/schemas/" + name))])
        }
    }
}

extension DocumentNode {
    /// The object with each member's value replaced by `transform(key, value)`; anything else as
    /// it is.
    func replacingMembers(_ transform: (String, DocumentNode) -> DocumentNode) -> DocumentNode {
        guard let object else { return self }
        return .map(object.members.map { ($0.key, transform($0.key, $0.value)) })
    }
}
