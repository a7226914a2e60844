import RequestMocker

/// Reads the ``OperationPlan`` of each operation: resolves the `$ref`s of responses, parameters,
/// request bodies, headers and examples, and compiles their schemas with one compiler, so a
/// schema several operations share is compiled once.
struct PlanReader {
    let files: ContractFiles
    let compiler: SchemaCompiler
    let root: Located
    /// The security schemes of `components`, by name: the credential each asks for, or `nil` for
    /// one the contract declares too loosely to check (noted once).
    private let schemes: [String: OperationPlan.Credential.Kind?]
    /// The contract's own `security`, for operations without their own.
    private let defaultSecurity: Located?
    private(set) var notices: [String] = []
    /// The examples that break their schemas, where they are written.
    private(set) var brokenExamples: [ContractProblem] = []
    private var externalValues = 0

    init(files: ContractFiles, root: Located) throws(OpenAPIContract.Error) {
        self.files = files
        self.root = root
        compiler = SchemaCompiler(files: files)
        var schemes: [String: OperationPlan.Credential.Kind?] = [:]
        let declared = try files.members(
            of: root.member("components")?.member("securitySchemes"), "components/securitySchemes")
        for (name, written) in declared {
            schemes[name] = Self.kind(of: try files.resolve(written), named: name, files: files)
        }
        self.schemes = schemes
        defaultSecurity = root.member("security")
    }

    /// The plan of `operation`, declared in the path item `item`.
    mutating func plan(of operation: Located, in item: Located) throws(OpenAPIContract.Error) -> OperationPlan {
        var responses: [OperationPlan.Response] = []
        for (status, written) in try files.members(of: operation.member("responses"), "responses") {
            let response = try files.resolve(written)
            var headers: [OperationPlan.Header] = []
            for (name, declared) in try files.members(of: response.member("headers"), "headers") {
                let header = try files.resolve(declared)
                let content = try content(of: header)
                headers.append(
                    OperationPlan.Header(
                        name: name, required: header.node["required"]?.bool == true,
                        schema: try schema(of: header) ?? content.first?.schema,
                        example: try example(of: header) ?? content.first?.example))
            }
            responses.append(
                OperationPlan.Response(
                    status: status, pointer: response.pointer, headers: headers, content: try content(of: response)))
        }
        var parameters: [OperationPlan.Parameter] = []
        // The operation's parameters replace the path item's of the same name and place.
        for declared in try parameterList(of: operation) + parameterList(of: item) {
            guard let parameter = try self.parameter(declared) else { continue }
            if !parameters.contains(where: { $0.name == parameter.name && $0.location == parameter.location }) {
                parameters.append(parameter)
            }
        }
        var body: OperationPlan.Body?
        if let written = operation.member("requestBody") {
            let requestBody = try files.resolve(written)
            body = OperationPlan.Body(
                required: requestBody.node["required"]?.bool == true,
                content: try content(of: requestBody, direction: .request))
        }
        return OperationPlan(
            responses: responses, parameters: parameters, body: body,
            security: try security(operation.member("security") ?? defaultSecurity))
    }

    /// The examples and defaults that break their schemas: those of media types read here, and
    /// those of the schemas the compiler read.
    var problems: [ContractProblem] {
        brokenExamples + compiler.problems
    }

    /// What the reader noticed, including what the schema compiler did.
    var allNotices: [String] {
        notices + compiler.notices
            + (externalValues == 0
                ? []
                : [
                    "\(externalValues) example\(externalValues == 1 ? " gives" : "s give") only an externalValue, "
                        + "which is not read (the mock reads no other files for examples): not served"
                ])
    }

    private func schema(of value: Located) throws(OpenAPIContract.Error) -> Schema? {
        guard let written = value.member("schema") else { return nil }
        return try compiler.schema(for: written)
    }

    /// `example`, else the value of the first of `examples`.
    private mutating func example(of value: Located) throws(OpenAPIContract.Error) -> DocumentNode? {
        if let example = value.node["example"] { return example }
        return try examples(of: value).first?.value
    }

    private mutating func examples(
        of value: Located
    ) throws(OpenAPIContract.Error) -> [(name: String, value: DocumentNode)] {
        var examples: [(name: String, value: DocumentNode)] = []
        for (name, written) in try files.members(of: value.member("examples"), "examples") {
            let example = try files.resolve(written)
            if let node = example.node["value"] {
                examples.append((name, node))
            } else if example.node["externalValue"] != nil {
                externalValues += 1
            }
        }
        return examples
    }

    /// The media types of `value`'s `content`; their examples are checked against their schemas
    /// as sent in `direction`, and those that break them noted (they are still served).
    private mutating func content(
        of value: Located, direction: SchemaValidator.Direction = .response
    ) throws(OpenAPIContract.Error) -> [OperationPlan.Media] {
        var media: [OperationPlan.Media] = []
        for (type, written) in try files.members(of: value.member("content"), "content") {
            let declared = try files.resolve(written)
            let examples = try examples(of: declared)
            let schema = try schema(of: declared)
            if let schema {
                var written = declared.node["example"].map { [(declared.pointer + "/example", $0)] } ?? []
                written += examples.map { (declared.pointer + "/examples/" + Located.escaped($0.name), $0.value) }
                for (pointer, example) in written {
                    let violations = SchemaValidator.violations(
                        of: example.jsonValue, against: schema, direction: direction)
                    guard let first = violations.first else { continue }
                    notices.append(
                        "\(declared.source.url.lastPathComponent)\(pointer) breaks its schema (\(first)); "
                            + "served as written")
                    brokenExamples += violations.map { violation in
                        ContractProblem(
                            file: declared.source.url, line: nil, offset: example.offset, pointer: pointer,
                            message: "\(violation)", isError: true)
                    }
                }
            }
            var encoding: [String: OperationPlan.Encoding] = [:]
            for (name, written) in try files.members(of: declared.member("encoding"), "encoding") {
                let style = written.node["style"]?.string ?? "form"
                encoding[name] = OperationPlan.Encoding(
                    contentType: written.node["contentType"]?.string, style: style,
                    explode: written.node["explode"]?.bool ?? (style == "form"))
            }
            media.append(
                OperationPlan.Media(
                    type: type, example: declared.node["example"], examples: examples, schema: schema,
                    encoding: encoding))
        }
        return media
    }

    private func parameterList(of value: Located) throws(OpenAPIContract.Error) -> [Located] {
        var parameters: [Located] = []
        for written in try files.elements(of: value.member("parameters"), "parameters") {
            parameters.append(try files.resolve(written))
        }
        return parameters
    }

    /// The parameter `declared`, or `nil` (noted) for one without a name or a place, which no
    /// request can be checked against.
    private mutating func parameter(_ declared: Located) throws(OpenAPIContract.Error) -> OperationPlan.Parameter? {
        guard let name = declared.node["name"]?.string else {
            files.note(
                declared, "the parameter has no \"name\"", assumed: "a parameter without a name or \"in\" is left out")
            return nil
        }
        guard let place = declared.node["in"]?.string, let location = OperationPlan.Parameter.Location(rawValue: place)
        else {
            files.note(
                declared, "the parameter \"\(name)\" has no \"in\" of path, query, header or cookie",
                assumed: "a parameter without a name or \"in\" is left out")
            return nil
        }
        let style = declared.node["style"]?.string ?? (location == .query || location == .cookie ? "form" : "simple")
        let content = try self.content(of: declared)
        let example = try example(of: declared)
        let isJSON = content.first.map { $0.type.lowercased().contains("json") } ?? false
        var schema = try schema(of: declared) ?? content.first?.schema
        var required = location == .path || declared.node["required"]?.bool == true
        let explode = declared.node["explode"]?.bool ?? (style == "form")
        // Every member of an exploded object is a query name of its own, carried or not.
        let memberNames =
            location == .query && explode && style == "form" && !isJSON
                && schema?.lookup.types?.contains("object") == true
            ? schema?.lookup.declaredNames ?? [] : []
        if !isJSON, let declaredSchema = schema, let carried = Self.carried(declaredSchema) {
            // What the style can't carry is not checked (a form object whose members are lists
            // of objects): a required one no client could send would refuse every request.
            files.note(
                declared,
                "the \(location.rawValue) parameter \"\(name)\" declares \(carried.uncarried) "
                    + "that its style (\(style)) can't carry as text",
                assumed: "what a parameter's style can't carry is not checked")
            schema = carried.schema
            required = required && (carried.schema.map { !$0.required.isEmpty } ?? true)
        }
        return OperationPlan.Parameter(
            name: name, location: location, required: required, style: style, explode: explode,
            schema: schema, isJSON: isJSON, example: example ?? content.first?.example, memberNames: memberNames)
    }

    /// The part of a parameter's schema its style carries, when the style can't carry all of
    /// it (styles carry text: a list of scalars, or an object of scalar members): an object
    /// without the members it can't carry, or no schema for a list of objects or lists; `nil`
    /// when the style carries the whole schema.
    private static func carried(_ schema: Schema) -> (schema: Schema?, uncarried: String)? {
        let lookup = schema.lookup
        guard let types = lookup.types else { return nil }
        if types.contains("array") {
            guard let items = lookup.items, !isScalar(items) else { return nil }
            return (nil, "a list of objects or lists")
        }
        guard types.contains("object") else { return nil }
        let properties = lookup.properties
        let uncarried = properties.filter { !isScalar($0.schema) }.map(\.name)
        guard !uncarried.isEmpty else { return nil }
        let kept = Schema(source: schema.source, pointer: schema.pointer)
        kept.types = ["object"]
        for (name, property) in properties where isScalar(property) {
            kept.properties.append((name, property))
            kept.propertyIndex[name] = property
        }
        kept.required = lookup.required.filter { kept.propertyIndex[$0] != nil }
        let shown =
            uncarried.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + (uncarried.count > 5 ? ", …" : "")
        return (kept, "members \(shown) that are objects or lists")
    }

    /// Whether a value of `schema` may be a scalar (text, a number, a Boolean): what a
    /// parameter's style carries.
    private static func isScalar(_ schema: Schema) -> Bool {
        guard let types = schema.lookup.types else { return true }
        return !types.isDisjoint(with: ["string", "number", "integer", "boolean", "null"])
    }

    /// The security requirements `written` lists: any of them, each all of its schemes. A
    /// requirement that names a scheme `components/securitySchemes` lacks, or one declared too
    /// loosely to check, can't be checked: it is taken as met, so the operation's credentials
    /// are not checked (noted).
    private func security(_ written: Located?) throws(OpenAPIContract.Error) -> [[OperationPlan.Credential]] {
        guard let written, case .array(let requirements) = written.node.value else { return [] }
        var alternatives: [[OperationPlan.Credential]] = []
        for (index, requirement) in requirements.enumerated() {
            let located = Located(node: requirement, source: written.source, pointer: written.pointer + "/\(index)")
            var credentials: [OperationPlan.Credential] = []
            for (name, _) in located.members {
                guard let declared = schemes[name] else {
                    files.note(
                        located, "the security scheme \"\(name)\" is not among components/securitySchemes",
                        assumed: "a security requirement naming an undeclared scheme is not checked")
                    return []
                }
                // Declared too loosely to check: noted once, where it is declared.
                guard let kind = declared else { return [] }
                credentials.append(OperationPlan.Credential(scheme: name, kind: kind))
            }
            // `{}` makes credentials optional: a requirement with none is met by every request.
            if credentials.isEmpty { return [] }
            alternatives.append(credentials)
        }
        return alternatives
    }

    /// The credential `scheme` asks for, or `nil` (noted) when it doesn't say enough to check one.
    private static func kind(
        of scheme: Located, named name: String, files: ContractFiles
    ) -> OperationPlan.Credential.Kind? {
        let assumed = "a security scheme that doesn't say what to check is not checked"
        switch scheme.node["type"]?.string {
        case "apiKey":
            guard let key = scheme.node["name"]?.string, let place = scheme.node["in"]?.string,
                let location = OperationPlan.Parameter.Location(rawValue: place), location != .path
            else {
                files.note(
                    scheme, "the apiKey scheme \"\(name)\" lacks \"name\" or \"in\" (header, query or cookie)",
                    assumed: assumed)
                return nil
            }
            return .apiKey(name: key, location: location)
        case "http":
            switch scheme.node["scheme"]?.string?.lowercased() {
            case "basic": return .basic
            case "bearer": return .bearer
            case let other?: return .http(other)
            case nil:
                files.note(scheme, "the http scheme \"\(name)\" lacks \"scheme\"", assumed: assumed)
                return nil
            }
        case "oauth2", "openIdConnect": return .bearer
        case "mutualTLS": return OperationPlan.Credential.Kind.none
        default:
            files.note(
                scheme,
                "the security scheme \"\(name)\" has no \"type\" of apiKey, http, oauth2, openIdConnect or mutualTLS",
                assumed: assumed)
            return nil
        }
    }
}
