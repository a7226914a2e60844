import Foundation
import RequestMocker

/// Changes to a contract's entry file, made through its tree: values set at JSON pointers'
/// steps, following the `$ref`s within the file.
struct DocumentEditor {
    private(set) var root: DocumentNode
    let isOpenAPI30: Bool
    private(set) var additions: [String] = []
    private(set) var unchanged: [String] = []

    init(contentsOf url: URL, isOpenAPI30: Bool) throws(OpenAPIContract.Error) {
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: url))
        } catch {
            throw OpenAPIContract.Error(file: url, reason: "the file can't be read: \(error.localizedDescription)")
        }
        do {
            root = DocumentSyntax(of: bytes) == .json ? try DocumentNode.parseJSON(bytes) : try YAMLReader.parse(bytes)
        } catch {
            throw OpenAPIContract.Error(file: url, reason: "the file can't be read again: \(error.reason)")
        }
        self.isOpenAPI30 = isOpenAPI30
    }

    /// The value at `steps`, without following `$ref`s.
    func node(at steps: [String]) -> DocumentNode? {
        let (node, reached) = root.deepest(at: steps)
        return reached == steps.count ? node : nil
    }

    /// Where the value at `steps` really is: each `$ref` within the file on the way followed
    /// (at most 64 in a row); `nil` when a step isn't there or a `$ref` leads to another file.
    func resolve(_ steps: [String]) -> [String]? {
        var resolved: [String] = []
        for step in steps + [""] {
            var followed = 0
            while let reference = node(at: resolved)?["$ref"]?.string {
                guard reference.hasPrefix("#"), followed < 64 else { return nil }
                resolved = Self.steps(of: reference)
                followed += 1
            }
            guard !step.isEmpty else { break }
            resolved.append(step)
            guard node(at: resolved) != nil else { return nil }
        }
        return resolved
    }

    /// The steps of a JSON pointer (`#/paths/~1pets/get` → `paths`, `/pets`, `get`).
    static func steps(of pointer: String) -> [String] {
        pointer.drop { $0 == "#" }.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            let text = String($0).removingPercentEncoding ?? String($0)
            return text.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// Sets `value` at `steps` (the last a member to add), following `$ref`s to the object it
    /// goes in and making objects missing on the way; says so in ``additions``, or why not in
    /// ``unchanged``.
    mutating func add(_ value: DocumentNode, at steps: [String], isSchema: Bool = false, saying what: String) {
        guard let key = steps.last else { return }
        var parent: [String] = []
        for step in steps.dropLast() {
            guard let resolved = resolve(parent) else {
                unchanged.append("\(what): it belongs in another file")
                return
            }
            parent = resolved + [step]
            if node(at: parent) == nil { set(.map([]), at: parent) }
        }
        guard let container = resolve(parent) else {
            unchanged.append("\(what): it belongs in another file")
            return
        }
        guard node(at: container + [key]) == nil else { return }
        set(isOpenAPI30 ? Self.openAPI30(value, isSchema: isSchema) : value, at: container + [key])
        additions.append("added " + what)
    }

    /// Replaces (or adds) the member at `steps`, whose parent is an object.
    private mutating func set(_ value: DocumentNode, at steps: [String]) {
        root = Self.setting(value, at: steps[...], in: root)
    }

    private static func setting(
        _ value: DocumentNode, at steps: ArraySlice<String>, in node: DocumentNode
    )
        -> DocumentNode
    {
        guard let step = steps.first else { return value }
        guard let object = node.object else { return node }
        var members = object.members.map { ($0.key, $0.value) }
        if let index = members.firstIndex(where: { $0.0 == step }) {
            members[index].1 = setting(value, at: steps.dropFirst(), in: members[index].1)
        } else {
            members.append((step, setting(value, at: steps.dropFirst(), in: .map([]))))
        }
        return .map(members)
    }

    /// What one existing operation's traffic adds: statuses, media types, a request body,
    /// properties and types.
    mutating func update(
        _ operation: OpenAPIContract.Operation, plan: OperationPlan, with shape: OperationShape, draft: ContractDraft
    ) {
        let steps = Self.steps(of: operation.pointer)
        let label = "\(operation.method) \(operation.path)"
        for status in shape.responses.keys.sorted() {
            guard let response = shape.responses[status] else { continue }
            guard let declared = plan.response(for: status) else {
                let key = (100...599).contains(status) ? String(status) : "default"
                let phrase = HTTPStatus(status).reasonPhrase
                add(
                    draft.responseNode(response, description: phrase.isEmpty ? "Status \(status)" : phrase),
                    at: steps + ["responses", key], saying: "\(label) \(key)")
                continue
            }
            update(
                content: declared.content, at: steps + ["responses", declared.status, "content"], with: response.bodies,
                label: "\(label) \(declared.status)", draft: draft)
        }
        guard !shape.requestBodies.types.isEmpty else { return }
        guard let body = plan.body else {
            add(
                .map([
                    ("required", DocumentNode(.bool(shape.requestsWithBody == shape.count), at: 0)),
                    ("content", draft.content(shape.requestBodies)),
                ]), at: steps + ["requestBody"], saying: "\(label) request body")
            return
        }
        update(
            content: body.content, at: steps + ["requestBody", "content"], with: shape.requestBodies,
            label: "\(label) request body", draft: draft)
    }

    private mutating func update(
        content declared: [OperationPlan.Media], at steps: [String], with bodies: MediaBodies, label: String,
        draft: ContractDraft
    ) {
        for type in bodies.types {
            guard let body = bodies.bodies[type] else { continue }
            guard let media = declared.first(where: { $0.mediaType.accepts(type) }) else {
                add(body.node, at: steps + [type], saying: "\(label) \(type)")
                continue
            }
            guard media.schema != nil, body.kind == .json || body.kind == .form, body.unreadable == 0 else { continue }
            merge(
                body.shape.schema(loose: body.skipped > 0).node, into: steps + [media.type, "schema"],
                label: "\(label) \(media.type)", pointer: "", depth: 0)
        }
    }

    /// Adds to the schema at `steps` the properties `drafted` has and it lacks, and widens its
    /// type to the ones seen; below `allOf`, `oneOf`, `anyOf` and `not` nothing is changed.
    private mutating func merge(
        _ drafted: DocumentNode, into steps: [String], label: String, pointer: String, depth: Int
    ) {
        guard depth < 2 * ValueShape.maximumDepth else { return }
        guard let at = resolve(steps) else {
            unchanged.append("\(label) \(pointer.isEmpty ? "/" : pointer): its schema is in another file")
            return
        }
        guard let schema = node(at: at), schema.object != nil,
            !["allOf", "oneOf", "anyOf", "not"].contains(where: { schema[$0] != nil })
        else { return }
        let place = "\(label) \(pointer.isEmpty ? "/" : pointer)"
        if let seen = Self.types(of: drafted), let declared = Self.types(of: schema) {
            widen(schema, at: at, declared: declared, seen: seen, place: place)
        }
        let objects = Self.types(of: schema).map { $0.contains("object") } ?? true
        if objects, let properties = drafted["properties"]?.object {
            for member in properties.members {
                let escaped = member.key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(
                    of: "/", with: "~1")
                if let known = resolve(at + ["properties"]), node(at: known + [member.key]) != nil {
                    merge(
                        member.value, into: known + [member.key], label: label, pointer: pointer + "/" + escaped,
                        depth: depth + 1)
                } else {
                    add(
                        member.value, at: at + ["properties", member.key], isSchema: true,
                        saying: "property \(label) \(pointer)/\(escaped)")
                }
            }
        }
        if let items = drafted["items"], node(at: at + ["items"]) != nil {
            merge(items, into: at + ["items"], label: label, pointer: pointer + "/items", depth: depth + 1)
        }
    }

    /// Adds to a schema's `type` the types values had that it doesn't allow: a type list in 3.1;
    /// in 3.0, `nullable` for null and `number` for an `integer` that had fractions (other
    /// types are said, not added: 3.0 has no type lists).
    private mutating func widen(
        _ schema: DocumentNode, at steps: [String], declared: [String], seen: [String], place: String
    ) {
        var missing = seen.filter { !declared.contains($0) }
        if declared.contains("number") { missing.removeAll { $0 == "integer" } }
        if isOpenAPI30, schema["nullable"]?.bool == true { missing.removeAll { $0 == "null" } }
        guard !missing.isEmpty else { return }
        if isOpenAPI30 {
            if missing.contains("null") {
                set(DocumentNode(.bool(true), at: 0), at: steps + ["nullable"])
                additions.append("widened \(place) to take null")
                missing.removeAll { $0 == "null" }
            }
            if missing == ["number"], declared == ["integer"] {
                set(.text("number"), at: steps + ["type"])
                additions.append("widened \(place) from integer to number")
                missing = []
            }
            if !missing.isEmpty {
                unchanged.append(
                    "\(place): also seen as \(missing.joined(separator: ", ")), which OpenAPI 3.0 can't add to a "
                        + "type")
            }
            return
        }
        var types = declared
        if missing.contains("number"), let index = types.firstIndex(of: "integer") {
            types[index] = "number"
            missing.removeAll { $0 == "number" }
        }
        types += missing
        set(types.count == 1 ? .text(types[0]) : .list(types.map(DocumentNode.text)), at: steps + ["type"])
        additions.append("widened \(place) to \(types.joined(separator: ", "))")
    }

    /// A schema's types (`type`, a list, and 3.0's `nullable`); `nil` when it allows any.
    static func types(of schema: DocumentNode) -> [String]? {
        var types: [String]
        switch schema["type"]?.value {
        case .string(let type): types = [type]
        case .array(let list): types = list.compactMap(\.string)
        default: return nil
        }
        if schema["nullable"]?.bool == true, !types.contains("null") { types.append("null") }
        return types
    }

    /// A drafted value (a schema, or a part of a contract holding schemas) in 3.0's dialect: a
    /// type list as one type and `nullable` (or no `type` when it lists several), `const` as a
    /// one-value `enum`; examples as they are.
    static func openAPI30(_ node: DocumentNode, isSchema: Bool, depth: Int = 0) -> DocumentNode {
        guard depth < 4 * ValueShape.maximumDepth else { return node }
        if case .array(let elements) = node.value {
            return .list(elements.map { openAPI30($0, isSchema: isSchema, depth: depth + 1) })
        }
        guard let object = node.object else { return node }
        var members: [(String, DocumentNode)] = []
        for member in object.members {
            let value = member.value
            switch (isSchema, member.key) {
            case (true, "type"):
                let types: [String]
                switch value.value {
                case .array(let list): types = list.compactMap(\.string)
                case .string(let type): types = [type]
                default: types = []
                }
                let other = types.filter { $0 != "null" }
                if other.count == 1 { members.append(("type", .text(other[0]))) }
                if types.contains("null") { members.append(("nullable", DocumentNode(.bool(true), at: 0))) }
            case (true, "const"):
                members.append(("enum", .list([value])))
            case (true, "properties"):
                members.append(
                    (
                        member.key,
                        value.replacingMembers { _, property in openAPI30(property, isSchema: true, depth: depth + 1) }
                    ))
            case (true, "items"), (true, "additionalProperties"), (true, "not"), (true, "oneOf"), (true, "anyOf"),
                (true, "allOf"), (false, "schema"):
                members.append((member.key, openAPI30(value, isSchema: true, depth: depth + 1)))
            case (true, _), (false, "example"), (false, "examples"):
                members.append((member.key, value))
            case (false, _):
                members.append((member.key, openAPI30(value, isSchema: false, depth: depth + 1)))
            }
        }
        return .map(members)
    }
}

extension DocumentNode {
    /// The object with `member` added before the member named `key` (at the start when it has
    /// none), or replacing a member of the same name.
    func adding(_ member: (String, DocumentNode), before key: String) -> DocumentNode {
        guard let object else { return self }
        var members = object.members.map { ($0.key, $0.value) }.filter { $0.0 != member.0 }
        members.insert(member, at: members.firstIndex { $0.0 == key } ?? 0)
        return .map(members)
    }
}
