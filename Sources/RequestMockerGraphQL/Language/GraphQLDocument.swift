/// A parsed GraphQL document: operations and fragments (what a client sends), type system
/// definitions and extensions (a schema's SDL), or both. Every node keeps the byte offset it
/// starts at; ``GraphQLSource/location(of:)`` turns one into a line and a column.
package struct GraphQLDocument: Sendable {
    package var source: GraphQLSource
    package var definitions: [Definition]

    package enum Definition: Sendable {
        case operation(GraphQLOperation)
        case fragment(GraphQLFragment)
        case schema(GraphQLSchemaDefinition)
        case type(GraphQLTypeDefinition)
        case directive(GraphQLDirectiveDefinition)

        /// Where the definition starts.
        package var offset: Int {
            switch self {
            case .operation(let operation): operation.offset
            case .fragment(let fragment): fragment.offset
            case .schema(let schema): schema.offset
            case .type(let type): type.offset
            case .directive(let directive): directive.offset
            }
        }
    }

    package var operations: [GraphQLOperation] {
        definitions.compactMap { if case .operation(let operation) = $0 { operation } else { nil } }
    }

    package var fragments: [GraphQLFragment] {
        definitions.compactMap { if case .fragment(let fragment) = $0 { fragment } else { nil } }
    }
}

/// A name as written, with where it is written.
package struct GraphQLName: Sendable, Hashable {
    package var value: String
    package var offset: Int

    package init(_ value: String, at offset: Int) {
        self.value = value
        self.offset = offset
    }
}

/// `query`, `mutation` or `subscription`.
package enum GraphQLOperationKind: String, Sendable, CaseIterable {
    case query, mutation, subscription
}

package struct GraphQLOperation: Sendable {
    package var offset: Int
    package var description: String?
    package var kind: GraphQLOperationKind
    /// `nil` for an anonymous operation (`{ hero { name } }` or `query { … }`).
    package var name: GraphQLName?
    package var variables: [GraphQLVariableDefinition]
    package var directives: [GraphQLDirective]
    package var selections: [GraphQLSelection]
}

package struct GraphQLVariableDefinition: Sendable {
    package var offset: Int
    package var description: String?
    package var name: GraphQLName
    package var type: GraphQLTypeReference
    /// Where the type is written (its first `[` for a list).
    package var typeOffset: Int
    package var defaultValue: GraphQLValue?
    package var directives: [GraphQLDirective]
}

package struct GraphQLFragment: Sendable {
    package var offset: Int
    package var description: String?
    package var name: GraphQLName
    package var typeCondition: GraphQLName
    package var directives: [GraphQLDirective]
    package var selections: [GraphQLSelection]
}

package enum GraphQLSelection: Sendable {
    case field(GraphQLField)
    case fragmentSpread(GraphQLFragmentSpread)
    case inlineFragment(GraphQLInlineFragment)

    package var offset: Int {
        switch self {
        case .field(let field): field.offset
        case .fragmentSpread(let spread): spread.offset
        case .inlineFragment(let fragment): fragment.offset
        }
    }

    package var directives: [GraphQLDirective] {
        switch self {
        case .field(let field): field.directives
        case .fragmentSpread(let spread): spread.directives
        case .inlineFragment(let fragment): fragment.directives
        }
    }
}

package struct GraphQLField: Sendable {
    package var offset: Int
    package var alias: GraphQLName?
    package var name: GraphQLName
    package var arguments: [GraphQLArgument]
    package var directives: [GraphQLDirective]
    /// Empty for a leaf field: the grammar has no empty selection set.
    package var selections: [GraphQLSelection]
    /// Where the selection set's `{` is, when the field has one.
    package var selectionSetOffset: Int?

    /// The key of the field in the response: its alias, or its name.
    package var responseKey: String { alias?.value ?? name.value }
}

package struct GraphQLFragmentSpread: Sendable {
    package var offset: Int
    package var name: GraphQLName
    package var directives: [GraphQLDirective]
}

package struct GraphQLInlineFragment: Sendable {
    package var offset: Int
    package var typeCondition: GraphQLName?
    package var directives: [GraphQLDirective]
    package var selections: [GraphQLSelection]
}

package struct GraphQLArgument: Sendable {
    package var name: GraphQLName
    package var value: GraphQLValue
}

package struct GraphQLDirective: Sendable {
    package var offset: Int
    package var name: GraphQLName
    package var arguments: [GraphQLArgument]
}

/// A type as written: `Int`, `[String!]!`.
package indirect enum GraphQLTypeReference: Sendable, Hashable, CustomStringConvertible {
    case named(GraphQLName)
    case list(GraphQLTypeReference)
    case nonNull(GraphQLTypeReference)

    /// The named type inside the wrappers.
    package var namedType: GraphQLName {
        switch self {
        case .named(let name): name
        case .list(let inner), .nonNull(let inner): inner.namedType
        }
    }

    package var description: String {
        switch self {
        case .named(let name): name.value
        case .list(let inner): "[\(inner)]"
        case .nonNull(let inner): "\(inner)!"
        }
    }
}

/// A value as written in a document: a literal, a variable, a list or an input object.
package struct GraphQLValue: Sendable {
    package indirect enum Kind: Sendable {
        case variable(String)
        /// An integer as written; coercion decides whether it fits.
        case int(String)
        case float(String)
        case string(String, block: Bool)
        case boolean(Bool)
        case null
        case enumValue(String)
        case list([GraphQLValue])
        case object([GraphQLObjectField])
    }

    package var kind: Kind
    package var offset: Int
}

package struct GraphQLObjectField: Sendable {
    package var name: GraphQLName
    package var value: GraphQLValue
}
