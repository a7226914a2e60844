/// The values a schema's answers take where the generator shouldn't choose: a value for every
/// field of a scalar type, field values for a type wherever it is answered, whole answers for
/// named operations (trimmed to what each request selects, and completed where it selects more),
/// and the events of named subscriptions.
///
/// ```swift
/// let mocks = try GraphQLMocks(
///     scalars: ["DateTime": "2026-02-03T04:05:06Z"],
///     types: ["Human": ["name": "Luke"]],
///     operations: ["HeroName": ["data": ["hero": ["__typename": "Droid", "name": "R2-D2"]]]],
///     checkedAgainst: schema)
/// // or: try GraphQLMocks(contentsOf: URL(fileURLWithPath: "mocks.yaml"), schema: schema)
/// ```
public struct GraphQLMocks: Sendable {
    /// A value for every field of the scalar named by the key.
    package var scalars: [String: GraphQLJSON] = [:]
    /// Field values (an object) of the object or interface type named by the key.
    package var types: [String: GraphQLJSON] = [:]
    /// The answer (`{"data": …}`, and `errors` if it has any) of the operation named by the key.
    package var operations: [String: GraphQLJSON] = [:]
    /// The events (answers, as for operations) of the subscription named by the key.
    package var subscriptions: [String: [GraphQLJSON]] = [:]

    /// No mocks: every answer is generated.
    ///
    /// ```swift
    /// try registry.register(schema, at: "/graphql", mocks: GraphQLMocks())
    /// ```
    public init() {}

    /// The value the mocks give the field `name` of `type`: the type's own, else the first of
    /// its interfaces' that has one.
    func value(of name: String, on type: GraphQLNamedType) -> GraphQLJSON? {
        guard !types.isEmpty else { return nil }
        if let value = types[type.name]?[name] { return value }
        for interface in type.interfaces {
            if let value = types[interface]?[name] { return value }
        }
        return nil
    }
}
