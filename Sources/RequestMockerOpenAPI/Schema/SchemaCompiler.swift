import Foundation
import RequestMocker

/// Compiles a contract's schemas into linked ``Schema`` objects: each place in a file once, its
/// `$ref`s followed, without recursion (a work list), so a long chain of schemas that refer to
/// the next one costs no stack.
package final class SchemaCompiler: Sendable {
    private struct State {
        var compiled: [String: Schema] = [:]
        var notices: [String] = []
        var problems: [ContractProblem] = []
    }

    private let files: ContractFiles
    private let state = LockedState(State())

    init(files: ContractFiles) {
        self.files = files
    }

    /// Compiles the schema document at `url` (a test's or a tool's schema file).
    package static func compile(fileAt url: URL) throws(OpenAPIContract.Error) -> Schema {
        let files = ContractFiles()
        let source = try files.source(at: url)
        return try SchemaCompiler(files: files).schema(for: Located(node: source.root, source: source, pointer: "#"))
    }

    /// Compiles the schema at `pointer` in the JSON document `bytes` (held in memory as if it
    /// were the file at `url`; `$ref`s to other files are read from beside it).
    package static func compile(
        json bytes: [UInt8], at pointer: String = "#", as url: URL
    ) throws(OpenAPIContract.Error) -> Schema {
        let root: DocumentNode
        do {
            root = try DocumentNode.parseJSON(bytes)
        } catch {
            throw OpenAPIContract.Error(
                file: url, pointer: "#" + error.pointer, reason: "invalid JSON: " + error.reason)
        }
        let files = ContractFiles()
        let source = DocumentSource(url: url, bytes: bytes, root: root)
        files.add(source)
        return try SchemaCompiler(files: files).schema(for: .reference(pointer, in: source, at: 0, pointer: "#"))
    }

    /// What the compiler read without refusing: patterns it can't check, and why.
    package var notices: [String] { state.withLock { $0.notices } }

    /// The schemas' examples (errors) and defaults (warnings) that break them, where they are written.
    var problems: [ContractProblem] { state.withLock { $0.problems } }

    /// The schema `written` is (or names), compiled with every schema it reaches.
    func schema(for written: Located) throws(OpenAPIContract.Error) -> Schema {
        var pending: [(Schema, Located)] = []
        let schema = try shell(for: written, pending: &pending)
        var filled: [Schema] = []
        while let (next, located) = pending.popLast() {
            try fill(next, from: located, pending: &pending)
            filled.append(next)
        }
        checkWrittenValues(of: filled)
        return schema
    }

    /// Checks each schema's `example` and `default` against it, now that every schema they may
    /// need is filled, and notes those that break it: a generated value leaves them out.
    private func checkWrittenValues(of schemas: [Schema]) {
        var notices: [String] = []
        var problems: [ContractProblem] = []
        for schema in schemas {
            for (keyword, node) in [("example", schema.exampleNode), ("default", schema.defaultNode)] {
                guard let node else { continue }
                // Valid when it suits either direction: a request's example leaves out what
                // the server adds (readOnly), a response's what the client sends (writeOnly).
                let value = node.jsonValue
                let violations = SchemaValidator.violations(of: value, against: schema, direction: .response)
                let isValid =
                    violations.isEmpty
                    || SchemaValidator.violations(of: value, against: schema, direction: .request).isEmpty
                if keyword == "example" { schema.exampleIsValid = isValid } else { schema.defaultIsValid = isValid }
                if !isValid, let first = violations.first {
                    notices.append(
                        "\(schema.source.lastPathComponent)\(schema.pointer): its \(keyword) breaks the schema "
                            + "(\(first)); generated values leave it out")
                    problems += violations.map { violation in
                        ContractProblem(
                            file: schema.source, line: nil, offset: node.offset,
                            pointer: schema.pointer + "/" + keyword,
                            message: "\(violation)", isError: keyword == "example")
                    }
                }
            }
        }
        if !notices.isEmpty {
            state.withLock { ($0.notices, $0.problems) = ($0.notices + notices, $0.problems + problems) }
        }
    }

    /// Keys beside a `$ref` that change nothing a value is checked against.
    private static let annotations: Set<String> = [
        "$ref", "description", "title", "summary", "$comment", "deprecated", "externalDocs",
    ]

    /// The schema for `written`, new and queued for filling, or the one compiled before.
    ///
    /// A `$ref` with keywords beside it (3.1 allows them; real 3.0 contracts write `nullable`
    /// there) is a schema of its own at that place: its keywords, and what the `$ref` names as
    /// one of its `allOf`.
    private func shell(
        for written: Located, pending: inout [(Schema, Located)], ignoringSiblings: Bool = false
    ) throws(OpenAPIContract.Error) -> Schema {
        // A chain of `$ref`s ends where one has keywords beside it: that one is a schema of its own.
        let resolved =
            !ignoringSiblings && Self.hasSiblings(written.node)
            ? written : try files.resolve(written, stoppingAt: { Self.hasSiblings($0.node) })
        let keepsSiblings = resolved.node["$ref"]?.string != nil
        let key = resolved.source.url.path + resolved.pointer + (keepsSiblings ? " with its siblings" : "")
        return state.withLock { state in
            if let known = state.compiled[key] { return known }
            let schema = Schema(source: resolved.source.url, pointer: resolved.pointer)
            state.compiled[key] = schema
            pending.append((schema, resolved))
            return schema
        }
    }

    /// Whether `node` is a `$ref` with keywords beside it that change what a value is checked
    /// against (not only annotations).
    private static func hasSiblings(_ node: DocumentNode) -> Bool {
        node["$ref"]?.string != nil
            && node.object?.members.contains { !annotations.contains($0.key) && !$0.key.hasPrefix("x-") } == true
    }

    private func fill(
        _ schema: Schema, from located: Located, pending: inout [(Schema, Located)]
    ) throws(OpenAPIContract.Error) {
        switch located.node.value {
        case .bool(true): return
        case .bool(false):
            schema.types = []
            return
        case .object: break
        default:
            files.note(
                located, "a schema is an object (or true or false); this is \(located.node.kind)",
                assumed: "a schema that is neither an object nor a Boolean allows any value")
            return
        }
        func child(_ key: String) throws(OpenAPIContract.Error) -> Schema? {
            guard let member = located.member(key) else { return nil }
            return try shell(for: member, pending: &pending)
        }
        func list(_ key: String) throws(OpenAPIContract.Error) -> [Schema] {
            var schemas: [Schema] = []
            for item in try files.elements(of: located.member(key), key) {
                schemas.append(try shell(for: item, pending: &pending))
            }
            return schemas
        }
        let node = located.node
        if node["$ref"]?.string != nil {
            schema.allOf.append(try shell(for: located, pending: &pending, ignoringSiblings: true))
        }
        switch node["type"]?.value {
        case .string(let type): schema.types = [type]
        case .array(let types): schema.types = Set(types.compactMap(\.string))
        default: break
        }
        if node["nullable"]?.bool == true { schema.acceptsNull = true }
        if schema.types?.contains("null") == true { schema.acceptsNull = true }
        if case .array(let values) = node["enum"]?.value {
            schema.enumNodes = values
            schema.enumeration = values.map(\.jsonValue)
        }
        schema.constantNode = node["const"]
        schema.constant = node["const"]?.jsonValue
        schema.hasExactValues = ((schema.enumNodes ?? []) + [schema.constantNode].compactMap { $0 }).contains {
            if case .exactNumber = $0.value { true } else { false }
        }
        schema.format = node["format"]?.string
        if case .array(let names) = node["required"]?.value {
            for name in names.compactMap(\.string) where !schema.required.contains(name) {
                schema.required.append(name)
            }
        }
        for (name, member) in try files.members(of: located.member("properties"), "properties") {
            let property = try shell(for: member, pending: &pending)
            schema.properties.append((name, property))
            if schema.propertyIndex[name] == nil { schema.propertyIndex[name] = property }
        }
        switch node["additionalProperties"]?.value {
        case .bool(false): schema.additionalProperties = .forbidden
        case .object: if let extra = try child("additionalProperties") { schema.additionalProperties = .schema(extra) }
        default: break
        }
        schema.minProperties = node["minProperties"]?.count
        schema.maxProperties = node["maxProperties"]?.count
        if node["items"]?.object != nil { schema.items = try child("items") }
        schema.minItems = node["minItems"]?.count
        schema.maxItems = node["maxItems"]?.count
        schema.uniqueItems = node["uniqueItems"]?.bool == true
        schema.minLength = node["minLength"]?.count
        schema.maxLength = node["maxLength"]?.count
        if let pattern = node["pattern"]?.string {
            do {
                schema.pattern = try SchemaPattern(pattern)
            } catch {
                schema.unreadPattern = (pattern, error.reason)
                let place = located.source.url.lastPathComponent + located.pointer + "/pattern"
                state.withLock { $0.notices.append("\(place): not checked: \(error.reason) (column \(error.column))") }
            }
        }
        readBounds(of: node, into: schema)
        schema.allOf += try list("allOf")
        schema.anyOf = try list("anyOf")
        schema.oneOf = try list("oneOf")
        schema.not = try child("not")
        if let discriminator = located.member("discriminator"),
            let property = discriminator.node["propertyName"]?.string
        {
            var mapping: [String: Schema] = [:]
            var order: [String] = []
            for (value, target) in try files.members(of: discriminator.member("mapping"), "discriminator mapping") {
                guard let reference = target.node.string else { continue }
                // A mapping names a schema by `$ref` or by its name under components/schemas.
                let isReference =
                    reference.contains("/") || reference.contains("#")
                    || [".json", ".yaml", ".yml"].contains { reference.lowercased().hasSuffix($0) }
                let text = isReference ? reference : "#/components/schemas/\(reference)"
                let written = Located.reference(
                    text, in: target.source, at: target.node.offset, pointer: target.pointer)
                mapping[value] = try shell(for: written, pending: &pending)
                order.append(value)
            }
            schema.discriminator = (property, mapping, order)
        }
        schema.readOnly = node["readOnly"]?.bool == true
        schema.writeOnly = node["writeOnly"]?.bool == true
        if let example = node["example"] {
            schema.exampleNode = example
        } else if case .array(let examples) = node["examples"]?.value, let first = examples.first {
            schema.exampleNode = first
        }
        schema.defaultNode = node["default"]
    }

    /// `minimum`, `maximum`, their exclusive forms (3.0's Booleans and 3.1's numbers), `multipleOf`.
    private func readBounds(of node: DocumentNode, into schema: Schema) {
        schema.minimum = node["minimum"]?.number
        schema.maximum = node["maximum"]?.number
        switch node["exclusiveMinimum"]?.value {
        case .bool(true): (schema.exclusiveMinimum, schema.minimum) = (schema.minimum, nil)
        case .int, .double, .exactNumber: schema.exclusiveMinimum = node["exclusiveMinimum"]?.number
        default: break
        }
        switch node["exclusiveMaximum"]?.value {
        case .bool(true): (schema.exclusiveMaximum, schema.maximum) = (schema.maximum, nil)
        case .int, .double, .exactNumber: schema.exclusiveMaximum = node["exclusiveMaximum"]?.number
        default: break
        }
        if let multiple = node["multipleOf"]?.number, multiple > 0 { schema.multipleOf = multiple }
        // A bound no Double holds exactly is compared as written.
        // (3.0's `exclusiveMinimum: true` makes `minimum` the exclusive bound.)
        let places = [
            ("minimum", node["exclusiveMinimum"]?.bool == true ? "exclusiveMinimum" : "minimum"),
            ("maximum", node["exclusiveMaximum"]?.bool == true ? "exclusiveMaximum" : "maximum"),
            ("exclusiveMinimum", "exclusiveMinimum"), ("exclusiveMaximum", "exclusiveMaximum"),
            ("multipleOf", "multipleOf"),
        ]
        for (keyword, bound) in places {
            switch node[keyword]?.value {
            case .exactNumber(let exact): schema.exactBounds[bound] = exact
            // An integer past 2^53 is no Double either (`maximum: 9223372036854775807`).
            case .int(let int) where Int(exactly: Double(int)) != int:
                schema.exactBounds[bound] = ExactNumber(int)
            default: break
            }
        }
        // A step of zero or less divides nothing (as `multipleOf` read as a Double above).
        if let step = schema.exactBounds["multipleOf"], step.isNegative || step.double <= 0 {
            schema.exactBounds["multipleOf"] = nil
        }
    }
}
