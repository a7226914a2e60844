import Foundation

/// A GraphQL schema, read from SDL or from an introspection result and checked by the type
/// system's own rules: the types by name, the root types, the directives, and the possible
/// types of every abstract type, built once.
///
/// ```swift
/// let schema = try GraphQLSchema(sdl: "type Query { hero: String }")
/// schema.queryType  // "Query"
/// ```
public final class GraphQLSchema: Sendable {
    /// The schema definition's description, if it has one.
    public let description: String?
    /// Every named type, the built-in scalars and the introspection types included.
    package let types: [String: GraphQLNamedType]
    /// The types' names in the schema's own order: its definitions first, then the built-in
    /// scalars it didn't define, as graphql-js lists them.
    public let typeNames: [String]
    /// The name of the root type of queries.
    public let queryType: String
    /// The name of the root type of mutations, if the schema has one.
    public let mutationType: String?
    /// The name of the root type of subscriptions, if the schema has one.
    public let subscriptionType: String?
    package let directives: [String: GraphQLDirectiveType]
    /// The directives' names: the built-in ones, then the schema's, in its order.
    package let directiveNames: [String]
    /// For each interface and union, the object types that may stand for it, in the schema's order.
    package let possibleTypes: [String: [String]]
    /// For each interface, the interfaces that implement it.
    package let implementingInterfaces: [String: [String]]
    /// The document the schema was read from (SDL, or the introspection result's JSON).
    package let source: GraphQLSource

    init(
        description: String?, types: [String: GraphQLNamedType], typeNames: [String],
        roots: (query: String, mutation: String?, subscription: String?),
        directives: [String: GraphQLDirectiveType], directiveNames: [String], source: GraphQLSource
    ) {
        self.description = description
        self.types = types
        self.typeNames = typeNames
        queryType = roots.query
        mutationType = roots.mutation
        subscriptionType = roots.subscription
        self.directives = directives
        self.directiveNames = directiveNames
        self.source = source
        var possible: [String: [String]] = [:]
        var implementing: [String: [String]] = [:]
        for name in typeNames {
            guard let type = types[name] else { continue }
            switch type.kind {
            case .object:
                for interface in type.interfaces { possible[interface, default: []].append(name) }
            case .interface:
                for interface in type.interfaces { implementing[interface, default: []].append(name) }
            case .union:
                possible[name] = type.members
            default: break
            }
        }
        possibleTypes = possible
        implementingInterfaces = implementing
    }

    /// The root type of `kind`'s operations, if the schema has one.
    package func rootType(for kind: GraphQLOperationKind) -> GraphQLNamedType? {
        switch kind {
        case .query: types[queryType]
        case .mutation: mutationType.flatMap { types[$0] }
        case .subscription: subscriptionType.flatMap { types[$0] }
        }
    }

    /// Whether `object` may stand for `abstract` (or is it).
    package func isPossibleType(_ object: String, of abstract: String) -> Bool {
        object == abstract || possibleTypes[abstract]?.contains(object) == true
    }

    /// Whether a value of `sub` may be answered where `sup` is declared: the specification's
    /// IsValidImplementationFieldType (non-null may stand for nullable, an object for an
    /// interface or a union it belongs to, an interface for an interface it implements).
    package func isSubtype(_ sub: GraphQLTypeReference, of sup: GraphQLTypeReference) -> Bool {
        switch (sub, sup) {
        case (.nonNull(let subInner), .nonNull(let supInner)): isSubtype(subInner, of: supInner)
        case (.nonNull(let subInner), _): isSubtype(subInner, of: sup)
        case (_, .nonNull): false
        case (.list(let subInner), .list(let supInner)): isSubtype(subInner, of: supInner)
        case (.list, _), (_, .list): false
        case (.named(let subName), .named(let supName)):
            subName.value == supName.value || isPossibleType(subName.value, of: supName.value)
                || implementingInterfaces[supName.value]?.contains(subName.value) == true
        }
    }

    /// The field `name` of `parent` as the schema defines it, the meta fields included.
    package func fieldDefinition(_ name: String, on parent: GraphQLNamedType) -> GraphQLFieldType? {
        switch name {
        case "__typename":
            return GraphQLFieldType(name: name, arguments: [], type: .nonNull(.named("String")))
        case "__schema" where parent.name == queryType:
            return GraphQLFieldType(name: name, arguments: [], type: .nonNull(.named("__Schema")))
        case "__type" where parent.name == queryType:
            return GraphQLFieldType(
                name: name,
                arguments: [GraphQLInputValue(name: "name", type: .nonNull(.named("String")))],
                type: .named("__Type"))
        default:
            return parent.field(name)
        }
    }
}
