/// A leaf value given by the mocks, made into what its type answers (the scalars' result
/// coercion, as graphql-js serializes them): an `Int` within 32 bits, an enum by one of its
/// values' names, an `ID` from an integer; a custom scalar's value as given.
enum GraphQLOutputCoercion {
    static func leaf(_ value: GraphQLJSON, as type: GraphQLNamedType) -> Result<GraphQLJSON, GraphQLExecutionMistake> {
        func refuse(_ message: String) -> Result<GraphQLJSON, GraphQLExecutionMistake> {
            .failure(GraphQLExecutionMistake(message))
        }
        if type.kind == .enumeration {
            guard case .string(let name) = value, type.enumValue(name) != nil else {
                return refuse("Enum \"\(type.name)\" cannot represent value: \(value)")
            }
            return .success(value)
        }
        switch (type.name, value) {
        case ("Int", .int(let number)):
            return Int32(exactly: number) != nil
                ? .success(value) : refuse("Int cannot represent non 32-bit signed integer value: \(value)")
        case ("Int", .float(let number)) where number.rounded() == number && abs(number) < 1e10:
            return Int32(exactly: number) != nil
                ? .success(.int(Int(number))) : refuse("Int cannot represent non 32-bit signed integer value: \(value)")
        case ("Int", _):
            return refuse("Int cannot represent non-integer value: \(value)")
        case ("Float", .int(let number)):
            return .success(.float(Double(number)))
        case ("Float", .float(let number)) where number.isFinite:
            return .success(value)
        case ("Float", _):
            return refuse("Float cannot represent non numeric value: \(value)")
        case ("String", .string), ("Boolean", .bool), ("ID", .string):
            return .success(value)
        case ("String", _):
            return refuse("String cannot represent value: \(value)")
        case ("Boolean", _):
            return refuse("Boolean cannot represent a non boolean value: \(value)")
        case ("ID", .int(let number)):
            return .success(.string(String(number)))
        case ("ID", _):
            return refuse("ID cannot represent value: \(value)")
        default:
            return .success(value)
        }
    }
}

extension GraphQLJSON {
    var isObject: Bool {
        if case .object = self { true } else { false }
    }

    var isList: Bool {
        if case .list = self { true } else { false }
    }

    /// About how many bytes the value takes as JSON, for the answer's bound (a leaf's exactly,
    /// a list's or an object's shell; their contents are counted as they are made).
    var estimatedSize: Int {
        switch self {
        case .null: 4
        case .bool: 5
        case .int, .float: 12
        case .string(let text): text.utf8.count + 2
        case .list(let items): 2 + items.count
        case .object(let members): 2 + members.reduce(0) { $0 + $1.key.utf8.count + 4 + $1.value.estimatedSize }
        }
    }
}
