/// Builds a ``GraphQLSchema`` from a document's type system definitions and extensions, and
/// checks it by the type system's rules (`GraphQLSchemaBuilder+Rules.swift`), collecting every
/// problem rather than stopping at the first.
struct GraphQLSchemaBuilder {
    let source: GraphQLSource
    var problems: [GraphQLSchemaError.Problem] = []
    /// The types as defined and extended, by name, and their names in the document's order.
    var types: [String: GraphQLNamedType] = [:]
    var typeNames: [String] = []
    var directives: [String: GraphQLDirectiveType] = [:]
    var directiveNames: [String] = []
    /// Where each use of a directive is, with the location it is used at, for the rules.
    var directiveUses: [(directive: GraphQLDirective, location: String, owner: String)] = []

    init(source: GraphQLSource) {
        self.source = source
    }

    mutating func problem(at offset: Int?, _ message: String) {
        problems.append(
            GraphQLSchemaError.Problem(
                file: source.name, location: offset.flatMap { $0 >= 0 ? source.location(of: $0) : nil },
                message: message))
    }

    /// The schema `document` defines, or `nil` when it has problems (in ``problems``).
    mutating func build(_ document: GraphQLDocument) -> GraphQLSchema? {
        var definitions: [String: GraphQLTypeDefinition] = [:]
        var order: [String] = []
        var extensions: [GraphQLTypeDefinition] = []
        var schemaDefinitions: [GraphQLSchemaDefinition] = []
        var directiveDefinitions: [GraphQLDirectiveDefinition] = []
        for definition in document.definitions {
            switch definition {
            case .type(let type) where type.isExtension:
                extensions.append(type)
            case .type(let type):
                let name = type.name.value
                if definitions[name] != nil {
                    problem(at: type.name.offset, "There can be only one type named \"\(name)\": rename or remove one.")
                } else {
                    definitions[name] = type
                    order.append(name)
                }
            case .schema(let schema):
                schemaDefinitions.append(schema)
            case .directive(let directive):
                directiveDefinitions.append(directive)
            // A schema file may hold operations too (graphql-core reads them the same way): they
            // aren't the schema, and are left for whoever sends them.
            case .operation, .fragment:
                break
            }
        }
        for extensionDefinition in extensions {
            let name = extensionDefinition.name.value
            guard var extended = definitions[name] else {
                let known = GraphQLBuiltIns.scalarNames.contains(name) ? " (a built-in scalar can't be extended)" : ""
                problem(
                    at: extensionDefinition.name.offset,
                    "Cannot extend type \"\(name)\" because it is not defined\(known): define it, or correct the name."
                        + didYouMean(suggestions(for: name, among: order)))
                continue
            }
            guard extended.kind == extensionDefinition.kind else {
                problem(
                    at: extensionDefinition.name.offset,
                    "Cannot extend non-\(extensionDefinition.kind.rawValue) type \"\(name)\": it is defined as "
                        + "\(extended.kind.rawValue); extend it with `extend \(extended.kind.rawValue) \(name)`.")
                continue
            }
            extended.interfaces += extensionDefinition.interfaces
            extended.directives += extensionDefinition.directives
            extended.fields += extensionDefinition.fields
            extended.members += extensionDefinition.members
            extended.values += extensionDefinition.values
            extended.inputFields += extensionDefinition.inputFields
            definitions[name] = extended
        }
        let builtIns = GraphQLBuiltIns.definitions
        for name in order {
            guard let definition = definitions[name] else { continue }
            // A schema may write out a built-in scalar (an introspection result always does):
            // the built-in one stands.
            if definition.kind == .scalar, let builtIn = builtIns.types[name],
                GraphQLBuiltIns.scalarNames.contains(name)
            {
                types[name] = builtIn
            } else {
                types[name] = Self.namedType(definition)
                noteUses(of: definition)
            }
            typeNames.append(name)
        }
        buildDirectives(directiveDefinitions, builtIns: builtIns.directives)
        typeNames = orderedTypeNames(builtIns: builtIns.types)
        let roots = rootTypes(schemaDefinitions)
        checkRules()
        // In the order of the file, as a compiler lists its errors (those at no place last).
        problems = problems.enumerated().sorted { first, second in
            let (a, b) = (first.element.location, second.element.location)
            return (a?.line ?? .max, a?.column ?? .max, first.offset) < (
                b?.line ?? .max, b?.column ?? .max, second.offset
            )
        }.map(\.element)
        guard problems.isEmpty, let roots else { return nil }
        var description: String?
        for schema in schemaDefinitions where !schema.isExtension { description = schema.description }
        return GraphQLSchema(
            description: description, types: types, typeNames: typeNames, roots: roots, directives: directives,
            directiveNames: directiveNames, source: source)
    }

    /// The order graphql-js gives a schema's types (which introspection lists them in): each of
    /// the schema's own types in the document's order, each followed by the built-in scalars it
    /// is the first to refer to; then those the directives' arguments refer to; then the
    /// introspection types.
    private mutating func orderedTypeNames(builtIns: [String: GraphQLNamedType]) -> [String] {
        var ordered: [String] = []
        var present = Set(typeNames)
        func note(_ reference: GraphQLTypeReference) {
            let name = reference.namedType.value
            guard !present.contains(name), GraphQLBuiltIns.scalarNames.contains(name), let builtIn = builtIns[name]
            else { return }
            present.insert(name)
            types[name] = builtIn
            ordered.append(name)
        }
        for name in typeNames {
            ordered.append(name)
            guard let type = types[name] else { continue }
            for field in type.fields {
                note(field.type)
                for argument in field.arguments { note(argument.type) }
            }
            for field in type.inputFields { note(field.type) }
        }
        for name in directiveNames {
            for argument in directives[name]?.arguments ?? [] { note(argument.type) }
        }
        for name in GraphQLBuiltIns.introspectionTypeNames {
            guard let builtIn = builtIns[name] else { continue }
            if types[name] == nil { ordered.append(name) }
            types[name] = builtIn
        }
        return ordered
    }

    private mutating func buildDirectives(
        _ definitions: [GraphQLDirectiveDefinition], builtIns: [String: GraphQLDirectiveType]
    ) {
        var defined: [String: GraphQLDirectiveType] = [:]
        var order: [String] = []
        for definition in definitions {
            let name = definition.name.value
            if defined[name] != nil {
                problem(
                    at: definition.name.offset,
                    "There can be only one directive named \"@\(name)\": rename or remove one.")
                continue
            }
            defined[name] = Self.directiveType(definition)
            order.append(name)
            for argument in definition.arguments {
                for use in argument.directives {
                    directiveUses.append((use, "ARGUMENT_DEFINITION", "@\(name)(\(argument.name.value):)"))
                }
            }
        }
        // The schema's own in the document's order (its definition of a built-in one standing
        // for it), then the built-in ones it doesn't define, as graphql-js lists them.
        for name in order {
            directives[name] = defined[name]
            directiveNames.append(name)
        }
        for name in GraphQLBuiltIns.directiveNames where defined[name] == nil {
            directives[name] = builtIns[name]
            directiveNames.append(name)
        }
    }

    /// The root types: the schema definition's (with its extensions'), or the types named
    /// `Query`, `Mutation` and `Subscription`.
    private mutating func rootTypes(
        _ schemas: [GraphQLSchemaDefinition]
    ) -> (query: String, mutation: String?, subscription: String?)? {
        let definitions = schemas.filter { !$0.isExtension }
        for extra in definitions.dropFirst() {
            problem(at: extra.offset, "Must provide only one schema definition: merge them into one.")
        }
        if definitions.isEmpty, let extensionDefinition = schemas.first {
            problem(
                at: extensionDefinition.offset,
                "Cannot extend the schema: it has no schema definition to extend; write `schema { … }` instead.")
        }
        for schema in schemas {
            for use in schema.directives { directiveUses.append((use, "SCHEMA", "schema")) }
        }
        var named: [GraphQLOperationKind: GraphQLName] = [:]
        for (kind, type) in schemas.flatMap(\.operationTypes) {
            guard named[kind] == nil else {
                problem(at: type.offset, "There can be only one \(kind.rawValue) type in schema: remove one.")
                continue
            }
            named[kind] = type
        }
        if schemas.isEmpty {
            for kind in GraphQLOperationKind.allCases {
                let name = kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
                if types[name] != nil { named[kind] = GraphQLName(name, at: types[name]?.offset ?? -1) }
            }
        }
        for (kind, name) in named {
            guard let type = types[name.value] else {
                problem(
                    at: name.offset,
                    "Unknown type \"\(name.value)\" for the \(kind.rawValue) root: define it, or name another."
                        + didYouMean(suggestions(for: name.value, among: typeNames)))
                continue
            }
            if type.kind != .object {
                let rootName = kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
                problem(
                    at: name.offset,
                    "\(rootName) root type must be Object type, it cannot be \(name.value): name an object type.")
            }
        }
        guard let query = named[.query] else {
            problem(
                at: schemas.first?.offset ?? 0,
                "Query root type must be provided: define `type Query { … }`, or name the query root in "
                    + "`schema { query: … }`.")
            return nil
        }
        return (query.value, named[.mutation]?.value, named[.subscription]?.value)
    }

    /// Notes the directives a type's definition and its members use, for the rules.
    private mutating func noteUses(of definition: GraphQLTypeDefinition) {
        let name = definition.name.value
        let location =
            switch definition.kind {
            case .scalar: "SCALAR"
            case .object: "OBJECT"
            case .interface: "INTERFACE"
            case .union: "UNION"
            case .enumeration: "ENUM"
            case .inputObject: "INPUT_OBJECT"
            }
        for use in definition.directives { directiveUses.append((use, location, name)) }
        for field in definition.fields {
            for use in field.directives {
                directiveUses.append((use, "FIELD_DEFINITION", "\(name).\(field.name.value)"))
            }
            for argument in field.arguments {
                for use in argument.directives {
                    directiveUses.append(
                        (use, "ARGUMENT_DEFINITION", "\(name).\(field.name.value)(\(argument.name.value):)"))
                }
            }
        }
        for value in definition.values {
            for use in value.directives { directiveUses.append((use, "ENUM_VALUE", "\(name).\(value.name.value)")) }
        }
        for field in definition.inputFields {
            for use in field.directives {
                directiveUses.append((use, "INPUT_FIELD_DEFINITION", "\(name).\(field.name.value)"))
            }
        }
    }

    // MARK: Definitions into types

    static func namedType(_ definition: GraphQLTypeDefinition) -> GraphQLNamedType {
        let kind: GraphQLNamedType.Kind =
            switch definition.kind {
            case .scalar: .scalar
            case .object: .object
            case .interface: .interface
            case .union: .union
            case .enumeration: .enumeration
            case .inputObject: .inputObject
            }
        var type = GraphQLNamedType(
            kind: kind, name: definition.name.value, description: definition.description, offset: definition.offset)
        type.directives = definition.directives
        type.interfaces = definition.interfaces.map(\.value)
        type.members = definition.members.map(\.value)
        type.fields = definition.fields.map { field in
            GraphQLFieldType(
                name: field.name.value, description: field.description, arguments: field.arguments.map(inputValue),
                type: field.type, deprecationReason: deprecationReason(field.directives), offset: field.name.offset)
        }
        type.enumValues = definition.values.map { value in
            GraphQLEnumValue(
                name: value.name.value, description: value.description,
                deprecationReason: deprecationReason(value.directives), offset: value.name.offset)
        }
        type.inputFields = definition.inputFields.map(inputValue)
        type.isOneOf = definition.directives.contains { $0.name.value == "oneOf" }
        if let url = definition.directives.first(where: { $0.name.value == "specifiedBy" })?.arguments.first(where: {
            $0.name.value == "url"
        }), case .string(let text, _) = url.value.kind {
            type.specifiedByURL = text
        }
        return type
    }

    static func directiveType(_ definition: GraphQLDirectiveDefinition) -> GraphQLDirectiveType {
        GraphQLDirectiveType(
            name: definition.name.value, description: definition.description,
            arguments: definition.arguments.map(inputValue), locations: definition.locations.map(\.value),
            isRepeatable: definition.isRepeatable, offset: definition.name.offset)
    }

    static func inputValue(_ definition: GraphQLInputValueDefinition) -> GraphQLInputValue {
        GraphQLInputValue(
            name: definition.name.value, description: definition.description, type: definition.type,
            defaultValue: definition.defaultValue, deprecationReason: deprecationReason(definition.directives),
            offset: definition.name.offset)
    }

    /// `@deprecated`'s reason, its default when it gives none, or `nil` when it isn't there.
    static func deprecationReason(_ directives: [GraphQLDirective]) -> String? {
        guard let deprecated = directives.first(where: { $0.name.value == "deprecated" }) else { return nil }
        guard let reason = deprecated.arguments.first(where: { $0.name.value == "reason" }) else {
            return GraphQLBuiltIns.defaultDeprecationReason
        }
        if case .string(let text, _) = reason.value.kind { return text }
        return GraphQLBuiltIns.defaultDeprecationReason
    }
}
