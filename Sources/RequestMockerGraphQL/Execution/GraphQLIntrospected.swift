/// A part of the schema's description of itself, as introspection answers it: the executor
/// completes these like any other object, their fields read from the schema.
enum GraphQLIntrospected {
    case schema
    case type(GraphQLTypeReference)
    case field(GraphQLFieldType)
    case inputValue(GraphQLInputValue)
    case enumValue(GraphQLEnumValue)
    case directive(GraphQLDirectiveType)

    /// The value of the field `name` of this part of `schema`, with the field's coerced
    /// `arguments` (`includeDeprecated`).
    func field(
        _ name: String, arguments: [(key: String, value: GraphQLJSON)], in schema: GraphQLSchema
    ) -> GraphQLMockedValue {
        let includeDeprecated = arguments.contains { $0.key == "includeDeprecated" && $0.value == .bool(true) }
        switch self {
        case .schema: return Self.schemaField(name, in: schema)
        case .type(let reference): return Self.typeField(name, of: reference, includeDeprecated, in: schema)
        case .field(let field):
            switch name {
            case "name": return Self.text(field.name)
            case "description": return Self.text(field.description)
            case "args":
                return .list(
                    field.arguments.filter { includeDeprecated || $0.deprecationReason == nil }.map {
                        .schema(.inputValue($0))
                    })
            case "type": return .schema(.type(field.type))
            default: return Self.deprecation(name, field.deprecationReason)
            }
        case .inputValue(let value):
            switch name {
            case "name": return Self.text(value.name)
            case "description": return Self.text(value.description)
            case "type": return .schema(.type(value.type))
            case "defaultValue":
                return Self.text(value.defaultValue.map { GraphQLPrinter.literal($0, as: value.type, in: schema) })
            default: return Self.deprecation(name, value.deprecationReason)
            }
        case .enumValue(let value):
            switch name {
            case "name": return Self.text(value.name)
            case "description": return Self.text(value.description)
            default: return Self.deprecation(name, value.deprecationReason)
            }
        case .directive(let directive):
            switch name {
            case "name": return Self.text(directive.name)
            case "description": return Self.text(directive.description)
            case "isRepeatable": return Self.json(.bool(directive.isRepeatable))
            case "locations": return .list(directive.locations.map { Self.text($0) })
            case "args":
                return .list(
                    directive.arguments.filter { includeDeprecated || $0.deprecationReason == nil }.map {
                        .schema(.inputValue($0))
                    })
            default: return .null
            }
        }
    }

    private static func schemaField(_ name: String, in schema: GraphQLSchema) -> GraphQLMockedValue {
        func root(_ name: String?) -> GraphQLMockedValue {
            name.map { .schema(.type(.named($0))) } ?? .null
        }
        switch name {
        case "description": return text(schema.description)
        case "types": return .list(schema.typeNames.map { .schema(.type(.named($0))) })
        case "queryType": return root(schema.queryType)
        case "mutationType": return root(schema.mutationType)
        case "subscriptionType": return root(schema.subscriptionType)
        case "directives":
            return .list(
                schema.directiveNames.map { name in schema.directives[name].map { .schema(.directive($0)) } ?? .null })
        default: return .null
        }
    }

    private static func typeField(
        _ name: String, of reference: GraphQLTypeReference, _ includeDeprecated: Bool, in schema: GraphQLSchema
    ) -> GraphQLMockedValue {
        let named: GraphQLNamedType
        switch reference {
        case .nonNull(let inner), .list(let inner):
            switch name {
            case "kind": return text(reference.isNonNull ? "NON_NULL" : "LIST")
            case "ofType": return .schema(.type(inner))
            default: return .null
            }
        case .named(let typeName):
            guard let type = schema.types[typeName.value] else { return .null }
            named = type
        }
        func current<Element>(_ elements: [Element], _ reason: (Element) -> String?) -> [Element] {
            elements.filter { includeDeprecated || reason($0) == nil }
        }
        let kind = named.kind
        switch name {
        case "kind": return text(kind.rawValue)
        case "name": return text(named.name)
        case "description": return text(named.description)
        case "specifiedByURL": return text(named.specifiedByURL)
        case "fields" where kind == .object || kind == .interface:
            return .list(current(named.fields, \.deprecationReason).map { .schema(.field($0)) })
        case "interfaces" where kind == .object || kind == .interface:
            return .list(named.interfaces.map { .schema(.type(.named($0))) })
        case "possibleTypes" where kind.isAbstract:
            return .list((schema.possibleTypes[named.name] ?? []).map { .schema(.type(.named($0))) })
        case "enumValues" where kind == .enumeration:
            return .list(current(named.enumValues, \.deprecationReason).map { .schema(.enumValue($0)) })
        case "inputFields" where kind == .inputObject:
            return .list(current(named.inputFields, \.deprecationReason).map { .schema(.inputValue($0)) })
        case "isOneOf" where kind == .inputObject:
            return json(.bool(named.isOneOf))
        default: return .null
        }
    }

    private static func deprecation(_ name: String, _ reason: String?) -> GraphQLMockedValue {
        switch name {
        case "isDeprecated": json(.bool(reason != nil))
        case "deprecationReason": text(reason)
        default: .null
        }
    }

    private static func text(_ text: String?) -> GraphQLMockedValue {
        text.map { json(.string($0)) } ?? .null
    }

    private static func json(_ value: GraphQLJSON) -> GraphQLMockedValue {
        .given(value, GraphQLOrigin(seed: .root))
    }
}
