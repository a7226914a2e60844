/// What every schema has without writing it: the five scalars, the five directives, and the
/// introspection types, written here as SDL and read by the same reader as a user's schema.
enum GraphQLBuiltIns {
    static let scalarNames = ["String", "Int", "Float", "Boolean", "ID"]
    static let directiveNames = ["include", "skip", "deprecated", "specifiedBy", "oneOf"]
    /// `@deprecated`'s reason when none is given.
    static let defaultDeprecationReason = "No longer supported"

    static let sdl = #"""
        "Text, as UTF-8."
        scalar String
        "A signed whole number from -2147483648 to 2147483647."
        scalar Int
        "A double-precision number, as IEEE 754 defines it."
        scalar Float
        "`true` or `false`."
        scalar Boolean
        "An identifier, written as a string; as an input, a string or an integer."
        scalar ID

        "Includes this field or fragment only when `if` is true."
        directive @include("Included when true." if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        "Leaves this field or fragment out when `if` is true."
        directive @skip("Left out when true." if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        "Marks an element of the schema as no longer supported."
        directive @deprecated(
          "Why, and what to use instead, in Markdown."
          reason: String = "No longer supported"
        ) on FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE
        "Links a custom scalar to the specification of its values."
        directive @specifiedBy("The specification's URL." url: String!) on SCALAR
        "An input object of which exactly one field is given, and not as null."
        directive @oneOf on INPUT_OBJECT

        "What a GraphQL server says of itself: its types, root types and directives."
        type __Schema {
          description: String
          "Every type of the schema."
          types: [__Type!]!
          "The root type of queries."
          queryType: __Type!
          "The root type of mutations, if the schema has them."
          mutationType: __Type
          "The root type of subscriptions, if the schema has them."
          subscriptionType: __Type
          "Every directive the schema knows."
          directives: [__Directive!]!
        }

        "A type of the schema, or a list or non-null wrapper of one (see `kind` and `ofType`)."
        type __Type {
          kind: __TypeKind!
          name: String
          description: String
          specifiedByURL: String
          fields(includeDeprecated: Boolean = false): [__Field!]
          interfaces: [__Type!]
          possibleTypes: [__Type!]
          enumValues(includeDeprecated: Boolean = false): [__EnumValue!]
          inputFields(includeDeprecated: Boolean = false): [__InputValue!]
          ofType: __Type
          isOneOf: Boolean
        }

        "What kind of type a `__Type` is."
        enum __TypeKind {
          "A leaf value: Int, String, or a custom scalar."
          SCALAR
          "An object with fields, and the interfaces it implements."
          OBJECT
          "An abstract type with fields, which objects and interfaces implement."
          INTERFACE
          "An abstract type, one of a list of object types."
          UNION
          "A leaf value, one of a list of names."
          ENUM
          "An input with fields, for arguments and variables."
          INPUT_OBJECT
          "A list of values of the type in `ofType`."
          LIST
          "A value of the type in `ofType` that is never null."
          NON_NULL
        }

        "A field of an object or an interface."
        type __Field {
          name: String!
          description: String
          args(includeDeprecated: Boolean = false): [__InputValue!]!
          type: __Type!
          isDeprecated: Boolean!
          deprecationReason: String
        }

        "An argument, or a field of an input object."
        type __InputValue {
          name: String!
          description: String
          type: __Type!
          "The default value, as a GraphQL literal."
          defaultValue: String
          isDeprecated: Boolean!
          deprecationReason: String
        }

        "A value of an enum."
        type __EnumValue {
          name: String!
          description: String
          isDeprecated: Boolean!
          deprecationReason: String
        }

        "A directive: where it may be used, and its arguments."
        type __Directive {
          name: String!
          description: String
          isRepeatable: Boolean!
          locations: [__DirectiveLocation!]!
          args(includeDeprecated: Boolean = false): [__InputValue!]!
        }

        "Where a directive may be used."
        enum __DirectiveLocation {
          QUERY
          MUTATION
          SUBSCRIPTION
          FIELD
          FRAGMENT_DEFINITION
          FRAGMENT_SPREAD
          INLINE_FRAGMENT
          VARIABLE_DEFINITION
          SCHEMA
          SCALAR
          OBJECT
          FIELD_DEFINITION
          ARGUMENT_DEFINITION
          INTERFACE
          UNION
          ENUM
          ENUM_VALUE
          INPUT_OBJECT
          INPUT_FIELD_DEFINITION
        }
        """#

    /// The built-in types and directives, read once.
    static let definitions: (types: [String: GraphQLNamedType], directives: [String: GraphQLDirectiveType]) = {
        // Written above, so it parses; a mistake here fails every test that reads a schema.
        guard let document = try? GraphQLParser.parse(GraphQLSource(sdl)) else { return ([:], [:]) }
        var types: [String: GraphQLNamedType] = [:]
        var directives: [String: GraphQLDirectiveType] = [:]
        for definition in document.definitions {
            switch definition {
            case .type(let type):
                var named = GraphQLSchemaBuilder.namedType(type)
                named.offset = nil
                named.fields = named.fields.map { field in
                    var field = field
                    field.offset = nil
                    return field
                }
                types[type.name.value] = named
            case .directive(let directive):
                var built = GraphQLSchemaBuilder.directiveType(directive)
                built.offset = nil
                directives[directive.name.value] = built
            default: break
            }
        }
        return (types, directives)
    }()

    /// The introspection types' names, in the order graphql-js lists them after a schema's own.
    static let introspectionTypeNames = [
        "__Schema", "__Type", "__TypeKind", "__Field", "__InputValue", "__EnumValue", "__Directive",
        "__DirectiveLocation",
    ]
}
