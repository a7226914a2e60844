/// The type system's grammar: `schema`, the six kinds of type, `directive`, and their `extend`
/// forms.
extension GraphQLParser {
    /// The directive locations the grammar knows, executable and type system.
    static let directiveLocations: Set<String> = [
        "QUERY", "MUTATION", "SUBSCRIPTION", "FIELD", "FRAGMENT_DEFINITION", "FRAGMENT_SPREAD", "INLINE_FRAGMENT",
        "VARIABLE_DEFINITION", "SCHEMA", "SCALAR", "OBJECT", "FIELD_DEFINITION", "ARGUMENT_DEFINITION", "INTERFACE",
        "UNION", "ENUM", "ENUM_VALUE", "INPUT_OBJECT", "INPUT_FIELD_DEFINITION",
    ]

    /// A definition of the type system at the keyword under look-ahead, or `nil` when the keyword
    /// starts none.
    mutating func parseTypeSystemDefinition(
        at offset: Int, description: String?
    ) throws(GraphQLSyntaxError) -> GraphQLDocument.Definition? {
        switch token.value {
        case "schema":
            try advance()
            let directives = try parseDirectives(isConst: true)
            return .schema(
                GraphQLSchemaDefinition(
                    offset: offset, description: description, isExtension: false, directives: directives,
                    operationTypes: try parseOperationTypes()))
        case "directive":
            return .directive(try parseDirectiveDefinition(at: offset, description: description))
        default:
            guard let kind = Self.typeKind(token.value) else { return nil }
            try advance()
            return .type(try parseTypeBody(kind, at: offset, description: description, isExtension: false))
        }
    }

    private static func typeKind(_ keyword: String) -> GraphQLTypeDefinition.Kind? {
        switch keyword {
        case "scalar": .scalar
        case "type": .object
        case "interface": .interface
        case "union": .union
        case "enum": .enumeration
        case "input": .inputObject
        default: nil
        }
    }

    /// `extend schema …` or `extend type …` (any kind): each must add something.
    mutating func parseExtension() throws(GraphQLSyntaxError) -> GraphQLDocument.Definition {
        let offset = token.start
        try expect(keyword: "extend")
        guard token.kind == .name else { throw unexpected() }
        if try skip(keyword: "schema") {
            let directives = try parseDirectives(isConst: true)
            let operationTypes = token.kind == .braceLeft ? try parseOperationTypes() : []
            guard !directives.isEmpty || !operationTypes.isEmpty else { throw unexpected() }
            return .schema(
                GraphQLSchemaDefinition(
                    offset: offset, description: nil, isExtension: true, directives: directives,
                    operationTypes: operationTypes))
        }
        guard let kind = Self.typeKind(token.value) else { throw unexpected() }
        try advance()
        let type = try parseTypeBody(kind, at: offset, description: nil, isExtension: true)
        guard
            !type.interfaces.isEmpty || !type.directives.isEmpty || !type.fields.isEmpty || !type.members.isEmpty
                || !type.values.isEmpty || !type.inputFields.isEmpty
        else { throw unexpected() }
        return .type(type)
    }

    private mutating func parseOperationTypes() throws(GraphQLSyntaxError) -> [(
        kind: GraphQLOperationKind, type: GraphQLName
    )] {
        try many(.braceLeft, .braceRight) { parser throws(GraphQLSyntaxError) in
            let start = parser.token.start
            guard parser.token.kind == .name, let kind = GraphQLOperationKind(rawValue: parser.token.value) else {
                throw GraphQLSyntaxError(
                    at: start, "Expected \"query\", \"mutation\" or \"subscription\", found \(parser.token.described).")
            }
            try parser.advance()
            try parser.expect(.colon)
            return (kind, try parser.parseName())
        }
    }

    /// What follows a type's keyword: its name and the members its kind has.
    private mutating func parseTypeBody(
        _ kind: GraphQLTypeDefinition.Kind, at offset: Int, description: String?, isExtension: Bool
    ) throws(GraphQLSyntaxError) -> GraphQLTypeDefinition {
        var type = GraphQLTypeDefinition(
            offset: offset, description: description, isExtension: isExtension, kind: kind, name: try parseName())
        switch kind {
        case .scalar:
            type.directives = try parseDirectives(isConst: true)
        case .object, .interface:
            if try skip(keyword: "implements") {
                _ = try skip(.ampersand)
                repeat {
                    type.interfaces.append(try parseName())
                } while try skip(.ampersand)
            }
            type.directives = try parseDirectives(isConst: true)
            if token.kind == .braceLeft {
                type.fields = try many(.braceLeft, .braceRight) { parser throws(GraphQLSyntaxError) in
                    try parser.parseFieldDefinition()
                }
            }
        case .union:
            type.directives = try parseDirectives(isConst: true)
            if try skip(.equals) {
                _ = try skip(.pipe)
                repeat {
                    type.members.append(try parseName())
                } while try skip(.pipe)
            }
        case .enumeration:
            type.directives = try parseDirectives(isConst: true)
            if token.kind == .braceLeft {
                type.values = try many(.braceLeft, .braceRight) { parser throws(GraphQLSyntaxError) in
                    let offset = parser.token.start
                    let description = try parser.parseDescription()
                    if ["true", "false", "null"].contains(parser.token.value) {
                        throw GraphQLSyntaxError(
                            at: parser.token.start,
                            "\(parser.token.described) is reserved and cannot be used for an enum value.")
                    }
                    let name = try parser.parseName()
                    return GraphQLEnumValueDefinition(
                        offset: offset, description: description, name: name,
                        directives: try parser.parseDirectives(isConst: true))
                }
            }
        case .inputObject:
            type.directives = try parseDirectives(isConst: true)
            if token.kind == .braceLeft {
                type.inputFields = try many(.braceLeft, .braceRight) { parser throws(GraphQLSyntaxError) in
                    try parser.parseInputValueDefinition()
                }
            }
        }
        return type
    }

    private mutating func parseFieldDefinition() throws(GraphQLSyntaxError) -> GraphQLFieldDefinition {
        let offset = token.start
        let description = try parseDescription()
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        try expect(.colon)
        let type = try parseType()
        return GraphQLFieldDefinition(
            offset: offset, description: description, name: name, arguments: arguments, type: type,
            directives: try parseDirectives(isConst: true))
    }

    private mutating func parseArgumentDefinitions() throws(GraphQLSyntaxError) -> [GraphQLInputValueDefinition] {
        guard token.kind == .parenLeft else { return [] }
        return try many(.parenLeft, .parenRight) { parser throws(GraphQLSyntaxError) in
            try parser.parseInputValueDefinition()
        }
    }

    private mutating func parseInputValueDefinition() throws(GraphQLSyntaxError) -> GraphQLInputValueDefinition {
        let offset = token.start
        let description = try parseDescription()
        let name = try parseName()
        try expect(.colon)
        let type = try parseType()
        let defaultValue = try skip(.equals) ? try parseValue(isConst: true) : nil
        return GraphQLInputValueDefinition(
            offset: offset, description: description, name: name, type: type, defaultValue: defaultValue,
            directives: try parseDirectives(isConst: true))
    }

    private mutating func parseDirectiveDefinition(
        at offset: Int, description: String?
    ) throws(GraphQLSyntaxError) -> GraphQLDirectiveDefinition {
        try expect(keyword: "directive")
        try expect(.at)
        let name = try parseName()
        let arguments = try parseArgumentDefinitions()
        let isRepeatable = try skip(keyword: "repeatable")
        try expect(keyword: "on")
        _ = try skip(.pipe)
        var locations: [GraphQLName] = []
        repeat {
            let location = try parseName()
            guard Self.directiveLocations.contains(location.value) else {
                throw GraphQLSyntaxError(
                    at: location.offset,
                    "Unexpected Name \"\(location.value)\": a directive location is one of "
                        + Self.directiveLocations.sorted().joined(separator: ", ") + ".")
            }
            locations.append(location)
        } while try skip(.pipe)
        return GraphQLDirectiveDefinition(
            offset: offset, description: description, name: name, arguments: arguments, isRepeatable: isRepeatable,
            locations: locations)
    }
}
