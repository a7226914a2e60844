/// A GraphQL schema that answers a stubs file's GraphQL stubs: a stub whose request names an
/// operation (`"graphql": {"operationName": "HeroName"}`) and whose response is a `json` answer
/// (`{"data": …}`) without a status, headers or a template of its own.
///
/// The core reads stubs without knowing GraphQL; `GraphQLSchema` (in `RequestMockerGraphQL`)
/// conforms, and whoever reads stubs passes the schema in. The answer is checked against the
/// schema when the stub is read (a value that doesn't fit is refused, naming its path), then
/// trimmed to what each request selects and completed from the schema where it selects more.
/// Without a schema, such a stub answers as written.
///
/// ```swift
/// import RequestMockerGraphQL
///
/// let schema = try GraphQLSchema(contentsOf: URL(fileURLWithPath: "schema.graphqls"))
/// let stubs = try Stub.stubs(contentsOf: URL(fileURLWithPath: "stubs.json"), graphQL: schema)
/// ```
public protocol StubGraphQLSchema: Sendable {
    /// The response a GraphQL stub answers with, made from its `json` answer.
    ///
    /// - Throws: what in `answer` doesn't fit the schema, each problem naming the path of its
    ///   value (`data.hero.name: String cannot represent value: 4.`).
    func stubResponse(answering answer: JSONValue) throws -> MockResponse
}

extension MockRegistry {
    /// The first GraphQL schema the registry serves: what a GraphQL stub arriving through the
    /// admin API is checked against and shaped by.
    package var stubGraphQLSchema: (any StubGraphQLSchema)? {
        state.withLock { state in state.index.ordered.lazy.compactMap { $0.source as? any StubGraphQLSchema }.first }
    }
}

extension StubReader {
    /// A GraphQL stub's answer, checked against the schema and shaped by it.
    func graphQLAnswer(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> MockResponse {
        guard let graphQL else { throw invalid(steps, "a GraphQL answer needs the schema it answers for") }
        do {
            return try graphQL.stubResponse(answering: value)
        } catch {
            let problems = "\(error)".split(separator: "\n").map { $0.hasSuffix(".") ? $0.dropLast() : $0 }
                .joined(separator: "; ")
            throw invalid(steps, "the answer doesn't fit the GraphQL schema: \(problems)")
        }
    }
}
