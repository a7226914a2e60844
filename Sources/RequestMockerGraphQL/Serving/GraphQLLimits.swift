/// How much a GraphQL request may ask: each bound refused with a request error.
///
/// ```swift
/// var limits = GraphQLLimits()
/// limits.depth = 12
/// try registry.register(schema, at: "/graphql", limits: limits)
/// ```
public struct GraphQLLimits: Sendable, Hashable {
    /// The most bytes a query's text may take (1 MiB).
    public var queryBytes = 1 << 20
    /// The most bytes an answer may take (16 MiB); past it the answer is one error.
    public var answerBytes = 16 << 20
    /// How deep an operation's selections may nest once its fragments are spread (32; the
    /// introspection query graphql-js sends nests 15).
    public var depth = 32
    /// How many fields an operation may ask for once its fragments are spread (10,000), counted
    /// in the document, before any list multiplies them.
    public var fields = 10_000
    /// How many aliased fields an operation may have once its fragments are spread (1,000).
    public var aliases = 1_000

    /// The default bounds.
    ///
    /// ```swift
    /// GraphQLLimits().fields  // 10_000
    /// ```
    public init() {}
}
