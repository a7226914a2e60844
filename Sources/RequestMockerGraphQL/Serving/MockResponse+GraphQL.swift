import Foundation
import RequestMocker

extension MockResponse {
    /// A hand-written answer to a GraphQL operation, served as the schema serves its own: the
    /// request is validated against `schema`, and `answer` (`{"data": …}`, with `errors` if it
    /// has any) is trimmed to what the request selects and completed from the schema where it
    /// selects more. The answer is checked against the schema here.
    ///
    /// ```swift
    /// try registry.register(schema, at: "https://api.example.com/graphql")
    /// registry.register(
    ///     .graphQL("/graphql", operationName: "HeroName"),
    ///     respond: try .graphQL(["data": ["hero": ["__typename": "Droid", "name": "R2-D2"]]], in: schema),
    ///     at: .first)
    /// ```
    ///
    /// Each answer says `RequestMocker-GraphQL: <operation> stub`.
    ///
    /// - Parameters:
    ///   - answer: the operation's answer, `{"data": …}`.
    ///   - schema: the schema the request is validated against and the answer completed from.
    ///   - mocks: values the completed parts take where the mocks have them.
    /// - Throws: ``GraphQLMocksError`` when `answer` doesn't fit the schema (each problem names
    ///   the path of its value).
    public static func graphQL(
        _ answer: JSONValue, in schema: GraphQLSchema, mocks: GraphQLMocks = GraphQLMocks()
    ) throws(GraphQLMocksError) -> MockResponse {
        let checked = try GraphQLMocks(operations: ["answer": answer], checkedAgainst: schema)
        let stub = checked.operations["answer"] ?? .object([])
        let file = URL(fileURLWithPath: schema.source.name ?? "schema.graphql")
        return .block { request, _ in
            let endpoint = GraphQLEndpoint(schema: schema, mocks: mocks, file: file, host: nil, path: request.path)
            return endpoint.reply(to: request, revision: endpoint.revision, stub: stub).response
        }
    }
}
