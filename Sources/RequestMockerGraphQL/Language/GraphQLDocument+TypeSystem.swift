/// `schema { query: Query }`, or `extend schema …`.
package struct GraphQLSchemaDefinition: Sendable {
    package var offset: Int
    package var description: String?
    package var isExtension: Bool
    package var directives: [GraphQLDirective]
    package var operationTypes: [(kind: GraphQLOperationKind, type: GraphQLName)]
}

/// A type's definition (`type Human implements Character { … }`) or extension (`extend type …`).
package struct GraphQLTypeDefinition: Sendable {
    package enum Kind: String, Sendable {
        case scalar
        case object = "type"
        case interface, union
        case enumeration = "enum"
        case inputObject = "input"
    }

    package var offset: Int
    package var description: String?
    package var isExtension: Bool
    package var kind: Kind
    package var name: GraphQLName
    /// An object's or an interface's `implements`.
    package var interfaces: [GraphQLName] = []
    package var directives: [GraphQLDirective] = []
    /// An object's or an interface's fields.
    package var fields: [GraphQLFieldDefinition] = []
    /// A union's members.
    package var members: [GraphQLName] = []
    /// An enum's values.
    package var values: [GraphQLEnumValueDefinition] = []
    /// An input object's fields.
    package var inputFields: [GraphQLInputValueDefinition] = []
}

package struct GraphQLFieldDefinition: Sendable {
    package var offset: Int
    package var description: String?
    package var name: GraphQLName
    package var arguments: [GraphQLInputValueDefinition]
    package var type: GraphQLTypeReference
    package var directives: [GraphQLDirective]
}

/// An argument's or an input field's definition.
package struct GraphQLInputValueDefinition: Sendable {
    package var offset: Int
    package var description: String?
    package var name: GraphQLName
    package var type: GraphQLTypeReference
    package var defaultValue: GraphQLValue?
    package var directives: [GraphQLDirective]
}

package struct GraphQLEnumValueDefinition: Sendable {
    package var offset: Int
    package var description: String?
    package var name: GraphQLName
    package var directives: [GraphQLDirective]
}

/// `directive @name(…) repeatable on FIELD | …`.
package struct GraphQLDirectiveDefinition: Sendable {
    package var offset: Int
    package var description: String?
    package var name: GraphQLName
    package var arguments: [GraphQLInputValueDefinition]
    package var isRepeatable: Bool
    package var locations: [GraphQLName]
}
