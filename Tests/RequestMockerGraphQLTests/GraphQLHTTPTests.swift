import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// GraphQL over HTTP through `URLSession`: POST and GET, the two media types and their status
/// codes, persisted queries, and what isn't a GraphQL request.
@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLHTTPTests {
    static let endpoint = "https://api.example.com/graphql"

    struct Answer {
        var status: Int
        var contentType: String?
        var answeredBy: String?
        var allow: String?
        var body: String
    }

    static func registry() throws -> MockRegistry {
        let registry = MockRegistry()
        let schema = try GraphQLSchema(sdl: GraphQLMocksTests.schemaText)
        var mocks = GraphQLMocks()
        mocks.types["User"] = .object([("name", .string("Luke"))])
        mocks.operations["Viewer"] = .object([("data", .object([("viewer", .object([("email", .string("l@e.com"))]))]))]
        )
        try registry.register(schema, at: endpoint, mocks: mocks)
        return registry
    }

    static func send(
        _ registry: MockRegistry, method: String = "POST", body: String? = nil, query: [URLQueryItem] = [],
        contentType: String? = "application/json", accept: String? = nil
    ) async throws -> Answer {
        var components = try #require(URLComponents(string: endpoint))
        if !query.isEmpty { components.queryItems = query }
        var request = URLRequest(url: try #require(components.url))
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
        let (data, response) = try await registry.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return Answer(
            status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type"),
            answeredBy: http.value(forHTTPHeaderField: "RequestMocker-GraphQL"),
            allow: http.value(forHTTPHeaderField: "Allow"), body: String(decoding: data, as: UTF8.self))
    }

    @Test func aPostIsAnsweredFromTheSchemaAndItsMocks() async throws {
        let registry = try Self.registry()
        let generated = try await Self.send(registry, body: #"{"query": "query Me { viewer { name role } }"}"#)
        #expect(generated.status == 200)
        #expect(generated.contentType == "application/json")
        #expect(generated.answeredBy == "Me generated")
        #expect(generated.body.hasPrefix(#"{"data":{"viewer":{"name":"Luke","role":""#))
        let mocked = try await Self.send(
            registry,
            body: #"{"query": "query Viewer { viewer { email } }", "operationName": "Viewer", "variables": null}"#)
        #expect(mocked.answeredBy == "Viewer mocks")
        #expect(mocked.body == #"{"data":{"viewer":{"email":"l@e.com"}}}"#)
        // The same answer by GET.
        let get = try await Self.send(
            registry, method: "GET", query: [URLQueryItem(name: "query", value: "query Viewer { viewer { email } }")],
            contentType: nil)
        #expect(get.status == 200)
        #expect(get.body == mocked.body)
    }

    @Test func requestErrorsAre200InJSONAnd400InTheGraphQLMediaType() async throws {
        let registry = try Self.registry()
        let body = #"{"query": "{ viewer { nam } }"}"#
        let legacy = try await Self.send(registry, body: body)
        #expect(legacy.status == 200)
        #expect(legacy.contentType == "application/json")
        #expect(
            legacy.body
                == #"{"errors":[{"message":"Cannot query field \"nam\" on type \"User\". Did you mean \"name\"?","#
                + #""locations":[{"line":1,"column":12}]}]}"#)
        let modern = try await Self.send(
            registry, body: body, accept: "application/graphql-response+json, application/json;q=0.9")
        #expect(modern.status == 400)
        #expect(modern.contentType == "application/graphql-response+json")
        #expect(modern.body == legacy.body)
        #expect(modern.answeredBy == "- refused")
        // A field error has data: a 200 in either media type.
        let deferred = try await Self.send(
            registry, body: #"{"query": "{ viewer { id } }"}"#,
            accept: "multipart/mixed;deferSpec=20220824,application/json")
        #expect(deferred.status == 200)
        #expect(deferred.contentType == "application/json")
    }

    @Test func whatIsntAGraphQLRequestIsRefusedWithItsStatus() async throws {
        let registry = try Self.registry()
        let notJSON = try await Self.send(registry, body: "query { viewer { id } }")
        #expect(notJSON.status == 400)
        #expect(notJSON.body.contains("The body isn't a JSON object"))
        let noQuery = try await Self.send(registry, body: #"{"variables": {}}"#)
        #expect(noQuery.status == 400)
        #expect(
            noQuery.body == #"{"errors":[{"message":"The request has no query; send its GraphQL text in `query`."}]}"#)
        let form = try await Self.send(registry, body: "query=x", contentType: "application/x-www-form-urlencoded")
        #expect(form.status == 415)
        let put = try await Self.send(registry, method: "PUT", body: #"{"query": "{ viewer { id } }"}"#)
        #expect(put.status == 405)
        #expect(put.allow == "GET, POST")
        let mutation = try await Self.send(
            registry, method: "GET", query: [URLQueryItem(name: "query", value: #"mutation { like(id: 1) { id } }"#)],
            contentType: nil)
        #expect(mutation.status == 405)
        #expect(mutation.allow == "POST")
        #expect(mutation.answeredBy == "mutation refused")
        let badVariables = try await Self.send(
            registry, method: "GET",
            query: [
                URLQueryItem(name: "query", value: "{ viewer { id } }"), URLQueryItem(name: "variables", value: "{"),
            ],
            contentType: nil)
        #expect(badVariables.status == 400)
    }

    @Test func apolloPersistedQueriesAreRegisteredOnceThenSentByHash() async throws {
        let registry = try Self.registry()
        let query = "query Viewer { viewer { email } }"
        let hash = SHA256.hex(query.utf8)
        let extensions = #"{"persistedQuery": {"version": 1, "sha256Hash": "\#(hash)"}}"#
        let byHash = [URLQueryItem(name: "extensions", value: extensions)]
        let unknown = try await Self.send(registry, method: "GET", query: byHash, contentType: nil)
        #expect(unknown.status == 200)
        #expect(
            unknown.body == #"{"errors":[{"message":"PersistedQueryNotFound","#
                + #""extensions":{"code":"PERSISTED_QUERY_NOT_FOUND"}}]}"#)
        #expect(unknown.answeredBy == "- persisted-query-not-found")
        let registered = try await Self.send(
            registry, body: #"{"query": "\#(query)", "extensions": \#(extensions)}"#)
        #expect(registered.body == #"{"data":{"viewer":{"email":"l@e.com"}}}"#)
        let known = try await Self.send(registry, method: "GET", query: byHash, contentType: nil)
        #expect(known.body == registered.body)
        let knownByPost = try await Self.send(registry, body: #"{"extensions": \#(extensions)}"#)
        #expect(knownByPost.body == registered.body)
        let wrong = try await Self.send(
            registry, body: #"{"query": "{ viewer { id } }", "extensions": \#(extensions)}"#,
            accept: "application/graphql-response+json")
        #expect(wrong.status == 400)
        #expect(wrong.body.contains("INVALID_PERSISTED_QUERY_HASH"))
    }

    @Test func aStubAnswersOneOperationTrimmedAndCompletedFromTheSchema() async throws {
        let registry = try Self.registry()
        let schema = try GraphQLSchema(sdl: GraphQLMocksTests.schemaText)
        registry.register(
            .graphQL("/graphql", operationName: "Named", variables: ["n": 2]),
            respond: try .graphQL(["data": ["viewer": ["name": "Stubbed", "email": "s@e.com"]]], in: schema),
            at: .first)
        let query = "query Named($n: Int) { viewer { name role posts(first: $n) { id } } }"
        let stubbed = try await Self.send(registry, body: #"{"query": "\#(query)", "variables": {"n": 2}}"#)
        #expect(stubbed.answeredBy == "Named stub")
        #expect(stubbed.body.hasPrefix(#"{"data":{"viewer":{"name":"Stubbed","role":""#))
        // The name comes from the query when the request doesn't send it; other variables go on
        // to the schema's own answer.
        let other = try await Self.send(registry, body: #"{"query": "\#(query)", "variables": {"n": 3}}"#)
        #expect(other.answeredBy == "Named generated")
        #expect(
            throws: GraphQLMocksError(problems: [
                GraphQLSchemaError.Problem(
                    file: nil, location: nil,
                    message: "data.viewer.nope: `User` has no field `nope`; write values under field "
                        + #"names (a request's alias finds its field's value). Did you mean "name" or "role"?"#)
            ])
        ) { try MockResponse.graphQL(["data": ["viewer": ["nope": 1]]], in: schema) }
    }

    /// A stubs file's GraphQL stub, read with the schema: checked when read, then trimmed and
    /// completed as `MockResponse.graphQL` is; read without one, it answers as written.
    @Test func aStubsFilesGraphQLStubIsCheckedTrimmedAndCompletedByTheSchema() async throws {
        let registry = try Self.registry()
        let schema = try GraphQLSchema(sdl: GraphQLMocksTests.schemaText)
        let stub: JSONValue = [
            "request": ["method": "POST", "path": "/graphql", "graphql": ["operationName": "Named"]],
            "response": ["json": ["data": ["viewer": ["name": "Stubbed", "email": "s@e.com"]]]],
        ]
        registry.register(try Stub(json: stub, graphQL: schema).filter, at: .first)
        let query = "query Named { viewer { name role } }"
        let shaped = try await Self.send(registry, body: #"{"query": "\#(query)"}"#)
        #expect(shaped.answeredBy == "Named stub")
        #expect(shaped.body.hasPrefix(#"{"data":{"viewer":{"name":"Stubbed","role":""#))
        #expect(!shaped.body.contains("email"))
        let asWritten = MockRegistry()
        asWritten.register(try Stub(json: stub).filter)
        let written = try await Self.send(asWritten, body: #"{"query": "\#(query)"}"#)
        #expect(written.answeredBy == nil)
        #expect(written.body == #"{"data":{"viewer":{"email":"s@e.com","name":"Stubbed"}}}"#)
        let wrong: JSONValue = [
            "request": ["graphql": ["operationName": "Named"]],
            "response": ["json": ["data": ["viewer": ["nope": 1]]]],
        ]
        do {
            _ = try Stub(json: wrong, graphQL: schema)
            Issue.record("a stub whose answer doesn't fit the schema was read")
        } catch {
            #expect(
                error.description
                    == "at response.json: the answer doesn't fit the GraphQL schema: data.viewer.nope: `User` has no "
                    + "field `nope`; write values under field names (a request's alias finds its field's value). Did "
                    + #"you mean "name" or "role"?"#)
        }
    }

    @Test func aGraphQLFilterSaysWhyARequestMissedIt() async throws {
        let registry = MockRegistry()
        registry.register(.graphQL(operationName: "HeroName", variables: ["id": "1"]), respond: .json(["data": nil]))
        let filter = try #require(registry.filters.first)
        #expect(filter.description.hasPrefix(#"ANY /graphql graphql HeroName variables {"id":"1"} ("#))
        /// What the registry's report of an unmatched request says, or "answered".
        func miss(_ body: String) async throws -> String {
            var request = URLRequest(url: try #require(URL(string: Self.endpoint)))
            request.httpMethod = "POST"
            request.httpBody = Data(body.utf8)
            do {
                _ = try await registry.session.data(for: request)
                return "answered"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            try await miss(#"{"query": "query Other { a }"}"#)
                .contains("GraphQL operation is Other, filter wants HeroName"))
        #expect(
            try await miss(#"{"query": "{ a }"}"#).contains("GraphQL operation is anonymous, filter wants HeroName"))
        #expect(
            try await miss(#"{"query": "query HeroName { a }", "variables": {"id": 2}}"#)
                .contains(#"GraphQL variable id is 2, filter wants "1""#))
        #expect(
            try await miss(##"{"query": "# a comment\n query HeroName($id: ID) { a }", "variables": {"id": "1"}}"##)
                == "answered")
        #expect(try await miss("not json").contains("request is not GraphQL"))
        let stub = try Stub(describing: .graphQL("/graphql", operationName: "HeroName", variables: ["id": "1"]))
        #expect(stub.json["request"]?["graphql"] == ["operationName": "HeroName", "variables": ["id": "1"]])
        let read = try Stub(
            json: [
                "request": ["path": "/graphql", "graphql": ["operationName": "HeroName"]], "response": ["status": 204],
            ])
        #expect(read.filter.description.hasPrefix("ANY /graphql graphql HeroName ("))
    }

    @Test func anEndpointIsAURLWithAHostOrAPath() throws {
        let schema = try GraphQLSchema(sdl: "type Query { a: Int }")
        #expect(throws: GraphQLEndpointError(endpoint: "graphql")) {
            try MockRegistry().register(schema, at: "graphql")
        }
        #expect(throws: GraphQLEndpointError(endpoint: "https:///graphql")) {
            try MockRegistry().register(schema, at: "https:///graphql")
        }
    }
}
