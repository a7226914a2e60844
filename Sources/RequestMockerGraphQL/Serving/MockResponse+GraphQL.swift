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
        let stub = try GraphQLMocks.checkedAnswer(answer, against: schema)
        let file = URL(fileURLWithPath: schema.source.name ?? "schema.graphql")
        return .block { request, _ in
            let endpoint = GraphQLEndpoint(schema: schema, mocks: mocks, file: file, host: nil, path: request.path)
            return endpoint.reply(to: request, revision: endpoint.revision, stub: stub).response
        }
    }
}

extension GraphQLMocks {
    /// One operation's answer, checked against `schema` as a mocks file's operations are; each
    /// problem names its value's path from the answer (`data.hero.name: …`).
    package static func checkedAnswer(
        _ answer: JSONValue, against schema: GraphQLSchema
    ) throws(GraphQLMocksError) -> GraphQLJSON {
        let section = "operations.answer"
        do {
            return try GraphQLMocks(operations: ["answer": answer], checkedAgainst: schema).operations["answer"]
                ?? .object([])
        } catch {
            // `operations.answer.data.hero` is `data.hero`; `operations.answer` itself is `answer`.
            var error = error
            for index in error.problems.indices where error.problems[index].message.hasPrefix(section) {
                let rest = error.problems[index].message.dropFirst(section.count)
                error.problems[index].message = rest.hasPrefix(".") ? String(rest.dropFirst()) : "answer" + rest
            }
            throw error
        }
    }
}

extension GraphQLSchema: StubGraphQLSchema {
    /// A stubs file's GraphQL stub answers as `MockResponse.graphQL(_:in:mocks:)` does: its
    /// answer checked against the schema here, then trimmed to each request's selection and
    /// completed from the schema.
    ///
    /// ```swift
    /// let stubs = try Stub.stubs(contentsOf: URL(fileURLWithPath: "stubs.json"), graphQL: schema)
    /// ```
    public func stubResponse(answering answer: JSONValue) throws -> MockResponse {
        try MockResponse.graphQL(answer, in: self)
    }
}

extension GraphQLEndpoint: StubGraphQLSchema {
    /// A stubs file's GraphQL stub, answered by the endpoint `serve --graphql` keeps: its answer
    /// checked against the schema served when the stub is read, and each request's answer made
    /// from the schema and mocks served at the time (an edited schema applies to it too), its
    /// persisted queries the endpoint's own.
    package func stubResponse(answering answer: JSONValue) throws -> MockResponse {
        let stub = try GraphQLMocks.checkedAnswer(answer, against: revision.schema)
        return .block { [self] request, _ in
            reply(to: request, revision: revision, stub: stub).response
        }
    }
}
