import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// graphql-core, the Python port of graphql-js, as the reference for answers: its introspection
/// of a schema is ours byte for byte in meaning, and re-executing an operation over our answer
/// gives back the same data.
@Suite(.timeLimit(.minutes(5)), .hangGuard) struct GraphQLCoreExecutionTests {
    static func json(_ text: String) throws -> GraphQLJSON {
        GraphQLJSON(try DocumentNode.parseJSON(Array(text.utf8)))
    }

    @Test(arguments: [GraphQLValidatorTests.sdl, GraphQLExecutorTests.social])
    func introspectionAnswersWhatGraphQLCoreAnswers(sdl: String) async throws {
        let query = try await GraphQLCoreSchemaTests.graphqlCore("introspection-query", "")
        let expected = Self.withoutBuiltInDescriptions(
            try Self.json(try await GraphQLCoreSchemaTests.graphqlCore("introspect", sdl))["data"] ?? .null)
        let schema = try GraphQLSchema(sdl: sdl)
        let prepared = try GraphQLPreparedOperation(query: query, in: schema)
        let result = prepared.answer(in: schema).result
        #expect(result.errors.isEmpty)
        let ours = Self.withoutBuiltInDescriptions(try #require(result.data))
        // Compared type by type first, so a difference names its place.
        if case .list(let types)? = ours["__schema"]?["types"], case .list(let theirs)? = expected["__schema"]?["types"]
        {
            for (mine, reference) in zip(types, theirs) where mine != reference {
                Issue.record("type \(reference["name"] ?? .null): ours \(mine)\ngraphql-core's \(reference)")
            }
        }
        #expect(ours == expected)
        // A client that builds a schema from our introspection gets back the schema we read, but
        // for the custom directives applied to its types, which introspection doesn't carry.
        let rebuilt = try GraphQLSchema(
            introspection: GraphQLSource(String(decoding: result.serialized(), as: UTF8.self)))
        #expect(
            rebuilt.sdl == schema.sdl.replacingOccurrences(of: " @cached(seconds: 1) @cached(seconds: 2)", with: ""))
    }

    /// The introspection `data` with the built-in types' and directives' descriptions left out:
    /// ours are in our own words.
    static func withoutBuiltInDescriptions(_ data: GraphQLJSON) -> GraphQLJSON {
        func blank(_ value: GraphQLJSON) -> GraphQLJSON {
            switch value {
            case .object(let members):
                .object(members.map { ($0.key, $0.key == "description" ? .null : blank($0.value)) })
            case .list(let items): .list(items.map(blank))
            default: value
            }
        }
        func builtIn(_ element: GraphQLJSON) -> Bool {
            guard case .string(let name)? = element["name"] else { return false }
            return name.hasPrefix("__") || GraphQLBuiltIns.scalarNames.contains(name)
                || GraphQLBuiltIns.directiveNames.contains(name)
        }
        guard case .object(var schema)? = data["__schema"] else { return data }
        for index in schema.indices where schema[index].key == "types" || schema[index].key == "directives" {
            if case .list(let elements) = schema[index].value {
                schema[index].value = .list(elements.map { builtIn($0) ? blank($0) : $0 })
            }
        }
        return .object([("__schema", .object(schema))])
    }

    /// The introspection query Apollo iOS's schema downloader sends, in its shape: `args` and
    /// `inputFields` with `includeDeprecated`, eight levels of `ofType`, no `specifiedByURL`,
    /// `isRepeatable` or `isOneOf` (written here, not copied).
    static let apolloIntrospection = """
        query IntrospectionQuery {
          __schema {
            queryType { name } mutationType { name } subscriptionType { name }
            types { ...FullType }
            directives { name description locations args(includeDeprecated: true) { ...InputValue } }
          }
        }
        fragment FullType on __Type {
          kind name description
          fields(includeDeprecated: true) {
            name description args(includeDeprecated: true) { ...InputValue } type { ...TypeRef }
            isDeprecated deprecationReason
          }
          inputFields(includeDeprecated: true) { ...InputValue }
          interfaces { ...TypeRef }
          enumValues(includeDeprecated: true) { name description isDeprecated deprecationReason }
          possibleTypes { ...TypeRef }
        }
        fragment InputValue on __InputValue {
          name description type { ...TypeRef } defaultValue isDeprecated deprecationReason
        }
        fragment TypeRef on __Type {
          kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType {
            kind name ofType { kind name ofType { kind name } } } } } } }
        }
        """

    @Test func apolloIOSDownloadsTheSchemaItIsServed() async throws {
        let sdl = GraphQLValidatorTests.sdl
        let schema = try GraphQLSchema(sdl: sdl)
        let registry = MockRegistry()
        try registry.register(schema, at: "https://api.example.com/graphql")
        // As Apollo's downloader sends it: a POST with the operation's name and null variables.
        var request = URLRequest(url: try #require(URL(string: "https://api.example.com/graphql")))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let body: JSONValue = [
            "operationName": "IntrospectionQuery", "query": .string(Self.apolloIntrospection), "variables": nil,
        ]
        request.httpBody = try body.serialized()
        let (data, _) = try await registry.session.data(for: request)
        let ours = try Self.json(String(decoding: data, as: UTF8.self))
        let theirs = try Self.json(
            try await GraphQLCoreSchemaTests.graphqlCore("run", schema: sdl, Data(Self.apolloIntrospection.utf8)))
        #expect(theirs["errors"] == .list([]))
        #expect(
            Self.withoutBuiltInDescriptions(ours["data"] ?? .null)
                == Self.withoutBuiltInDescriptions(theirs["data"] ?? .null))
        // What Apollo builds from it is the schema served, but for what its query doesn't ask:
        // the schema's description, the directives applied to types, `@specifiedBy`, `repeatable`
        // and `@oneOf`.
        let rebuilt = try GraphQLSchema(introspection: GraphQLSource(String(decoding: data, as: UTF8.self)))
        var expected = schema.sdl
        for asked in [
            "\"\"\"\nThe Star Wars schema, as the specification's examples use it.\n\"\"\"\n",
            " @cached(seconds: 1) @cached(seconds: 2)",
            #" @specifiedBy(url: "https://scalars.graphql.org/andimarek/date-time")"#,
            " repeatable", " @oneOf",
        ] {
            expected = expected.replacingOccurrences(of: asked, with: "")
        }
        #expect(rebuilt.sdl == expected)
    }

    /// Operations whose answers graphql-core re-executes (every abstract selection asks for
    /// `__typename`, which graphql-core's type resolver reads).
    static let operations: [(operation: String, variables: String)] = [
        (
            "{ viewer { id name email avatarUrl joined website role tags "
                + "posts(first: 3) { id title uuid published meta views } } }",
            "{}"
        ),
        (
            "query ($n: Int) { users(first: $n) { totalCount edges { cursor node { id name } } "
                + "pageInfo { hasNextPage endCursor } } }",
            #"{"n": 4}"#
        ),
        (
            "{ feed { __typename ... on Post { title } ... on Ad { headline } ...U } } "
                + "fragment U on User { name role }",
            "{}"
        ),
        (#"{ node(id: "User-1") { __typename id ... on User { name } } nodes(ids: [1, 2]) { __typename id } }"#, "{}"),
        (
            "query ($s: Boolean!) { viewer { a: name b: name @skip(if: $s) c: email @include(if: $s) } }",
            #"{"s": true}"#
        ),
        ("{ __typename viewer { __typename posts(first: 0) { id } } }", "{}"),
    ]

    @Test func graphQLCoreReexecutingOurAnswerGivesTheSameData() async throws {
        let schema = try GraphQLSchema(sdl: GraphQLExecutorTests.social)
        var cases: [GraphQLJSON] = []
        var answers: [GraphQLJSON] = []
        for (operation, variables) in Self.operations {
            let prepared = try GraphQLPreparedOperation(
                query: operation, variables: try Self.json(variables), in: schema)
            let result = prepared.answer(in: schema).result
            #expect(result.errors.isEmpty, "\(operation): \(result.errors)")
            let data = try #require(result.data)
            answers.append(data)
            cases.append(.list([.string(operation), try Self.json(variables), data]))
        }
        let output = try await GraphQLCoreSchemaTests.graphqlCore(
            "reexecute", schema: GraphQLExecutorTests.social, Data(GraphQLJSON.list(cases).serialized()))
        guard case .list(let results) = try Self.json(output) else {
            Issue.record("graphql-core gave \(output)")
            return
        }
        #expect(results.count == answers.count)
        for (index, (result, ours)) in zip(results, answers).enumerated() {
            #expect(result["errors"] == .list([]), "\(Self.operations[index].operation)")
            #expect(result["data"] == ours, "\(Self.operations[index].operation)")
        }
    }
}
