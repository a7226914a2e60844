/// A request's variables coerced by its operation's definitions, as the specification's
/// CoerceVariableValues() says: a default where none is given, a single value into a list, an
/// enum from its name, an `ID` from an integer, an input object's fields by its definition
/// (their defaults too, `@oneOf`'s one field), every mistake a request error naming the variable
/// and the place in its value.
///
/// ```swift
/// let given: GraphQLJSON = .object([("episode", .string("JEDI"))])
/// let (values, errors) = GraphQLVariables.coerce(given, for: operation, in: schema, source: source)
/// ```
package enum GraphQLVariables {
    /// A mistake at a place in a variable's value: `x.items[2]`.
    struct Mistake: Error {
        var path: String
        var value: GraphQLJSON
        var message: String
    }

    /// The coerced values by variable name, or the request errors that refuse them (every one
    /// found; a variable that isn't given and has no default is left out of the values).
    package static func coerce(
        _ given: GraphQLJSON?, for operation: GraphQLOperation, in schema: GraphQLSchema, source: GraphQLSource
    ) -> (values: [String: GraphQLJSON], errors: [GraphQLError]) {
        var provided: [(key: String, value: GraphQLJSON)] = []
        switch given {
        case .object(let members): provided = members
        case nil, .null: break
        default:
            return ([:], [GraphQLError("Variables must be provided as an Object where keys are variable names.")])
        }
        var coerced: [String: GraphQLJSON] = [:]
        var errors: [GraphQLError] = []
        for variable in operation.variables {
            let name = variable.name.value
            let place = [source.location(of: variable.offset)]
            guard let named = schema.types[variable.type.namedType.value], named.kind.isInput else {
                errors.append(
                    GraphQLError(
                        "Variable \"$\(name)\" expected value of type \"\(variable.type)\" which cannot be used as an "
                            + "input type.",
                        at: place))
                continue
            }
            let value = provided.first { $0.key == name }?.value
            if value == nil, let defaultValue = variable.defaultValue {
                coerced[name] = literal(defaultValue, as: variable.type, in: schema)
                continue
            }
            if variable.type.isNonNull, value == nil || value == .null {
                let message =
                    value == nil
                    ? "Variable \"$\(name)\" of required type \"\(variable.type)\" was not provided."
                    : "Variable \"$\(name)\" of non-null type \"\(variable.type)\" must not be null."
                errors.append(GraphQLError(message, at: place))
                continue
            }
            guard let value else { continue }
            do {
                coerced[name] = try input(value, as: variable.type, at: "", in: schema)
            } catch {
                let at = error.path.isEmpty ? "" : " at \"\(name)\(error.path)\""
                errors.append(
                    GraphQLError(
                        "Variable \"$\(name)\" got invalid value \(error.value)\(at); \(error.message)", at: place))
            }
        }
        return errors.isEmpty ? (coerced, []) : ([:], errors)
    }

    /// A value given as JSON, coerced to `type` (CoerceInputValue): as deep as the JSON nests,
    /// which its reader bounds.
    static func input(
        _ value: GraphQLJSON, as type: GraphQLTypeReference, at path: String, in schema: GraphQLSchema
    ) throws(Mistake) -> GraphQLJSON {
        if case .nonNull(let inner) = type {
            guard value != .null else {
                throw Mistake(
                    path: path, value: value, message: "Expected non-nullable type \"\(type)\" not to be null.")
            }
            return try input(value, as: inner, at: path, in: schema)
        }
        if value == .null { return .null }
        if case .list(let item) = type {
            guard case .list(let items) = value else {
                return .list([try input(value, as: item, at: path, in: schema)])
            }
            var coerced: [GraphQLJSON] = []
            for (index, element) in items.enumerated() {
                coerced.append(try input(element, as: item, at: path + "[\(index)]", in: schema))
            }
            return .list(coerced)
        }
        guard let named = schema.types[type.namedType.value] else { return value }
        switch named.kind {
        case .inputObject:
            return try inputObject(value, of: named, at: path, in: schema)
        case .enumeration:
            guard case .string(let name) = value, named.enumValue(name) != nil else {
                throw Mistake(
                    path: path, value: value,
                    message: "Value \(value) does not exist in \"\(named.name)\" enum."
                        + didYouMean(suggestions(for: "\(value)", among: named.enumValues.map(\.name))))
            }
            return value
        default:
            return try scalar(value, named.name, at: path)
        }
    }

    private static func inputObject(
        _ value: GraphQLJSON, of type: GraphQLNamedType, at path: String, in schema: GraphQLSchema
    ) throws(Mistake) -> GraphQLJSON {
        guard case .object(let members) = value else {
            throw Mistake(path: path, value: value, message: "Expected type \"\(type.name)\" to be an object.")
        }
        for member in members where type.inputField(member.key) == nil {
            throw Mistake(
                path: path, value: value,
                message: "Field \"\(member.key)\" is not defined by type \"\(type.name)\"."
                    + didYouMean(suggestions(for: member.key, among: type.inputFields.map(\.name))))
        }
        var coerced: [(key: String, value: GraphQLJSON)] = []
        for field in type.inputFields {
            guard let given = members.first(where: { $0.key == field.name })?.value else {
                if let defaultValue = field.defaultValue {
                    coerced.append((field.name, literal(defaultValue, as: field.type, in: schema)))
                } else if field.type.isNonNull {
                    throw Mistake(
                        path: path, value: value,
                        message: "Field \"\(field.name)\" of required type \"\(field.type)\" was not provided.")
                }
                continue
            }
            coerced.append((field.name, try input(given, as: field.type, at: path + ".\(field.name)", in: schema)))
        }
        if type.isOneOf {
            guard members.count == 1 else {
                throw Mistake(
                    path: path, value: value,
                    message: "Exactly one key must be specified for OneOf type \"\(type.name)\".")
            }
            if members[0].value == .null {
                throw Mistake(
                    path: path, value: value, message: "Field \"\(members[0].key)\" must be non-null.")
            }
        }
        return .object(coerced)
    }

    /// A built-in scalar's value read as GraphQL reads it from JSON; a custom scalar's as given.
    private static func scalar(_ value: GraphQLJSON, _ name: String, at path: String) throws(Mistake) -> GraphQLJSON {
        func refuse(_ message: String) -> Mistake { Mistake(path: path, value: value, message: message) }
        switch name {
        case "Int":
            let integer: Int? =
                switch value {
                case .int(let number): number
                case .float(let number) where number.rounded() == number && abs(number) < 1e18: Int(number)
                default: nil
                }
            guard let integer else { throw refuse("Int cannot represent non-integer value: \(value)") }
            guard Int32(exactly: integer) != nil else {
                throw refuse("Int cannot represent non 32-bit signed integer value: \(value)")
            }
            return .int(integer)
        case "Float":
            switch value {
            case .int(let number): return .float(Double(number))
            case .float(let number) where number.isFinite: return .float(number)
            default: throw refuse("Float cannot represent non numeric value: \(value)")
            }
        case "String":
            guard case .string = value else { throw refuse("String cannot represent a non string value: \(value)") }
            return value
        case "Boolean":
            guard case .bool = value else { throw refuse("Boolean cannot represent a non boolean value: \(value)") }
            return value
        case "ID":
            switch value {
            case .string: return value
            case .int(let number): return .string(String(number))
            default: throw refuse("ID cannot represent value: \(value)")
            }
        default:
            return value
        }
    }

    /// A literal (a default, or an argument as written) as the value it stands for: an enum value
    /// by its name, an input object with its fields' defaults, a variable by its coerced value
    /// (an input field whose variable wasn't given is left out). Literals are checked by
    /// validation, so what doesn't fit is carried as written.
    static func literal(
        _ value: GraphQLValue, as type: GraphQLTypeReference, in schema: GraphQLSchema,
        variables: [String: GraphQLJSON] = [:]
    ) -> GraphQLJSON {
        let nullable = type.nullable
        if case .list(let item) = nullable {
            guard case .list(let items) = value.kind else {
                if case .variable(let name) = value.kind { return variables[name] ?? .null }
                return value.kind.isNull ? .null : .list([literal(value, as: item, in: schema, variables: variables)])
            }
            return .list(items.map { literal($0, as: item, in: schema, variables: variables) })
        }
        let named = schema.types[nullable.namedType.value]
        switch value.kind {
        case .null: return .null
        case .variable(let name): return variables[name] ?? .null
        case .boolean(let flag): return .bool(flag)
        case .string(let text, _): return .string(text)
        case .enumValue(let name): return .string(name)
        case .int(let text):
            if named?.name == "Float" { return .float(Double(text) ?? 0) }
            if named?.name == "ID" { return .string(text) }
            return Int(text).map(GraphQLJSON.int) ?? .float(Double(text) ?? 0)
        case .float(let text): return .float(Double(text) ?? 0)
        case .list(let items):
            return .list(items.map { literal($0, as: .named("String"), in: schema, variables: variables) })
        case .object(let fields):
            guard let named, named.kind == .inputObject else {
                return .object(
                    fields.map {
                        ($0.name.value, literal($0.value, as: .named("String"), in: schema, variables: variables))
                    })
            }
            var coerced: [(key: String, value: GraphQLJSON)] = []
            for field in named.inputFields {
                if let given = fields.first(where: { $0.name.value == field.name }),
                    !given.value.isUnsetVariable(in: variables)
                {
                    coerced.append((field.name, literal(given.value, as: field.type, in: schema, variables: variables)))
                } else if let defaultValue = field.defaultValue {
                    coerced.append((field.name, literal(defaultValue, as: field.type, in: schema)))
                }
            }
            return .object(coerced)
        }
    }
}

extension GraphQLValue {
    /// Whether this is a variable the request didn't give.
    func isUnsetVariable(in variables: [String: GraphQLJSON]) -> Bool {
        if case .variable(let name) = kind { variables[name] == nil } else { false }
    }
}

extension GraphQLValue.Kind {
    var isNull: Bool {
        if case .null = self { true } else { false }
    }
}
