/// Reads the ``OperationPlan`` of each operation: resolves the `$ref`s of responses, parameters,
/// request bodies, headers and examples, and compiles their schemas with one compiler, so a
/// schema several operations share is compiled once.
struct PlanReader {
    let files: ContractFiles
    let compiler: SchemaCompiler
    let root: Located
    /// The security schemes of `components`, by name.
    private let schemes: [String: Located]
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
        var schemes: [String: Located] = [:]
        for (name, written) in root.member("components")?.member("securitySchemes")?.members ?? [] {
            schemes[name] = try files.resolve(written)
        }
        self.schemes = schemes
        defaultSecurity = root.member("security")
    }

    /// The plan of `operation`, declared in the path item `item`.
    mutating func plan(of operation: Located, in item: Located) throws(OpenAPIContract.Error) -> OperationPlan {
        var responses: [OperationPlan.Response] = []
        for (status, written) in operation.member("responses")?.members ?? [] {
            let response = try files.resolve(written)
            var headers: [OperationPlan.Header] = []
            for (name, declared) in response.member("headers")?.members ?? [] {
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
            let parameter = try self.parameter(declared)
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
        for (name, written) in value.member("examples")?.members ?? [] {
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
        for (type, written) in value.member("content")?.members ?? [] {
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
            media.append(
                OperationPlan.Media(
                    type: type, example: declared.node["example"], examples: examples, schema: schema))
        }
        return media
    }

    private func parameterList(of value: Located) throws(OpenAPIContract.Error) -> [Located] {
        guard let list = value.member("parameters") else { return [] }
        guard case .array(let elements) = list.node.value else {
            throw list.error("\"parameters\" is \(list.node.kind); it must be an array of parameters")
        }
        var parameters: [Located] = []
        for index in elements.indices {
            let written = Located(node: elements[index], source: list.source, pointer: list.pointer + "/\(index)")
            parameters.append(try files.resolve(written))
        }
        return parameters
    }

    private mutating func parameter(_ declared: Located) throws(OpenAPIContract.Error) -> OperationPlan.Parameter {
        guard let name = declared.node["name"]?.string else {
            throw declared.error("a parameter needs a \"name\" (a string)")
        }
        guard let place = declared.node["in"]?.string, let location = OperationPlan.Parameter.Location(rawValue: place)
        else {
            throw declared.error(
                "the parameter \"\(name)\" needs \"in\": one of \"path\", \"query\", \"header\", \"cookie\"")
        }
        let style = declared.node["style"]?.string ?? (location == .query || location == .cookie ? "form" : "simple")
        let content = try self.content(of: declared)
        let schema = try schema(of: declared)
        let example = try example(of: declared)
        return OperationPlan.Parameter(
            name: name, location: location, required: location == .path || declared.node["required"]?.bool == true,
            style: style, explode: declared.node["explode"]?.bool ?? (style == "form"),
            schema: schema ?? content.first?.schema,
            isJSON: content.first.map { $0.type.lowercased().contains("json") } ?? false,
            example: example ?? content.first?.example)
    }

    /// The security requirements `written` lists: any of them, each all of its schemes.
    private func security(_ written: Located?) throws(OpenAPIContract.Error) -> [[OperationPlan.Credential]] {
        guard let written, case .array(let requirements) = written.node.value else { return [] }
        var alternatives: [[OperationPlan.Credential]] = []
        for (index, requirement) in requirements.enumerated() {
            let located = Located(node: requirement, source: written.source, pointer: written.pointer + "/\(index)")
            var credentials: [OperationPlan.Credential] = []
            for (name, _) in located.members {
                guard let scheme = schemes[name] else {
                    throw located.error(
                        "the security scheme \"\(name)\" is not among components/securitySchemes; declare it there")
                }
                credentials.append(OperationPlan.Credential(scheme: name, kind: try kind(of: scheme, named: name)))
            }
            // `{}` makes credentials optional: a requirement with none is met by every request.
            if credentials.isEmpty { return [] }
            alternatives.append(credentials)
        }
        return alternatives
    }

    private func kind(
        of scheme: Located, named name: String
    ) throws(OpenAPIContract.Error) -> OperationPlan.Credential.Kind {
        switch scheme.node["type"]?.string {
        case "apiKey":
            guard let key = scheme.node["name"]?.string, let place = scheme.node["in"]?.string,
                let location = OperationPlan.Parameter.Location(rawValue: place), location != .path
            else {
                throw scheme.error(
                    "the apiKey scheme \"\(name)\" needs \"name\" and \"in\" (\"header\", \"query\" or \"cookie\")")
            }
            return .apiKey(name: key, location: location)
        case "http":
            switch scheme.node["scheme"]?.string?.lowercased() {
            case "basic": return .basic
            case "bearer": return .bearer
            case let other?: return .http(other)
            case nil:
                throw scheme.error("the http scheme \"\(name)\" needs \"scheme\" (such as \"basic\" or \"bearer\")")
            }
        case "oauth2", "openIdConnect": return .bearer
        case "mutualTLS": return .none
        default:
            throw scheme.error(
                "the security scheme \"\(name)\" has no known \"type\"; use apiKey, http, oauth2, openIdConnect "
                    + "or mutualTLS")
        }
    }
}
