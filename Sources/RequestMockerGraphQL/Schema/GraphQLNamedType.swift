/// One named type of a schema, with every member its kind has, in the order the schema wrote
/// them (introspection and printing keep that order).
package struct GraphQLNamedType: Sendable {
    package enum Kind: String, Sendable {
        case scalar = "SCALAR"
        case object = "OBJECT"
        case interface = "INTERFACE"
        case union = "UNION"
        case enumeration = "ENUM"
        case inputObject = "INPUT_OBJECT"

        /// How a message and SDL name the kind: `type`, `interface`, `input`.
        package var keyword: String {
            switch self {
            case .scalar: "scalar"
            case .object: "type"
            case .interface: "interface"
            case .union: "union"
            case .enumeration: "enum"
            case .inputObject: "input"
            }
        }

        /// Whether a value of this kind can be an argument or a variable.
        package var isInput: Bool { self == .scalar || self == .enumeration || self == .inputObject }
        /// Whether a field can answer a value of this kind.
        package var isOutput: Bool { self != .inputObject }
        package var isAbstract: Bool { self == .interface || self == .union }
        package var isLeaf: Bool { self == .scalar || self == .enumeration }
    }

    package var kind: Kind
    package var name: String
    package var description: String?
    /// Where the type is defined, for messages (`nil` for a built-in type).
    package var offset: Int?
    /// An object's or an interface's fields.
    package var fields: [GraphQLFieldType] = []
    /// An object's or an interface's interfaces.
    package var interfaces: [String] = []
    /// A union's members.
    package var members: [String] = []
    package var enumValues: [GraphQLEnumValue] = []
    package var inputFields: [GraphQLInputValue] = []
    /// A custom scalar's `@specifiedBy(url:)`.
    package var specifiedByURL: String?
    /// An input object marked `@oneOf`: exactly one field is given, and it isn't null.
    package var isOneOf = false
    /// The directives applied to the type's definition and extensions.
    package var directives: [GraphQLDirective] = []

    /// The field named `name`, `__typename` and the introspection fields aside.
    package func field(_ name: String) -> GraphQLFieldType? {
        fields.first { $0.name == name }
    }

    package func inputField(_ name: String) -> GraphQLInputValue? {
        inputFields.first { $0.name == name }
    }

    package func enumValue(_ name: String) -> GraphQLEnumValue? {
        enumValues.first { $0.name == name }
    }
}

/// A field of an object or an interface.
package struct GraphQLFieldType: Sendable {
    package var name: String
    package var description: String?
    package var arguments: [GraphQLInputValue]
    package var type: GraphQLTypeReference
    /// `@deprecated(reason:)`'s reason (its default, "No longer supported", when none is given).
    package var deprecationReason: String?
    package var offset: Int?

    package func argument(_ name: String) -> GraphQLInputValue? {
        arguments.first { $0.name == name }
    }
}

/// An argument of a field or a directive, or a field of an input object.
package struct GraphQLInputValue: Sendable {
    package var name: String
    package var description: String?
    package var type: GraphQLTypeReference
    package var defaultValue: GraphQLValue?
    package var deprecationReason: String?
    package var offset: Int?
}

package struct GraphQLEnumValue: Sendable {
    package var name: String
    package var description: String?
    package var deprecationReason: String?
    package var offset: Int?
}

/// A directive the schema knows: the built-in ones and those it defines.
package struct GraphQLDirectiveType: Sendable {
    package var name: String
    package var description: String?
    package var arguments: [GraphQLInputValue]
    package var locations: [String]
    package var isRepeatable: Bool
    package var offset: Int?
}

extension GraphQLTypeReference {
    /// A built-in type's reference, with no place in a document.
    static func named(_ name: String) -> GraphQLTypeReference {
        .named(GraphQLName(name, at: -1))
    }

    /// Whether the reference is non-null at its outside.
    package var isNonNull: Bool {
        if case .nonNull = self { true } else { false }
    }

    /// The reference without its outermost non-null.
    package var nullable: GraphQLTypeReference {
        if case .nonNull(let inner) = self { inner } else { self }
    }

    /// The same reference, its names' places dropped, for comparing two types.
    package var shape: String { description }
}
