import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// Recorded answers checked against the operations that asked for them: what the check finds,
/// and that every answer the executor makes passes it.
@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLCheckTests {
    static let schema = Result { try GraphQLSchema(sdl: GraphQLMocksTests.schemaText) }

    /// The problems of `answer` (the `data` member's JSON) for `query`, as `kind pointer: message`.
    static func problems(_ query: String, variables: GraphQLJSON? = nil, _ answer: String) throws -> [String] {
        let schema = try Self.schema.get()
        let prepared = try GraphQLPreparedOperation(query: query, variables: variables, in: schema)
        let data = try DocumentNode.parseJSON(Array(answer.utf8))
        return GraphQLAnswerCheck(schema: schema, prepared: prepared).problems(of: data).map {
            "\($0.kind) \($0.pointer): \($0.message)"
        }
    }

    @Test func everyAnswerTheExecutorMakesPassesTheCheck() throws {
        let schema = try Self.schema.get()
        let operations: [(String, GraphQLJSON?)] = [
            ("{ viewer { id name tags role posts(first: 3) { id title meta views } } }", nil),
            ("{ me: viewer { handle: name } them: user(id: \"7\") { name email } }", nil),
            ("{ feed { __typename ... on Post { title } ... on Ad { headline } ... on User { name } } }", nil),
            ("{ feed { ... on Node { id } } }", nil),
            (
                "{ users(first: 3) { edges { cursor node { name } } pageInfo { hasNextPage endCursor } totalCount } }",
                nil
            ),
            (
                "query Q($s: Boolean!) { viewer { name @skip(if: $s) role @include(if: $s) } }",
                .object([("s", .bool(true))])
            ),
            (
                "fragment U on User { name posts(first: 1) { title } } "
                    + "{ nodes(ids: [\"a\", \"b\"]) { ...U ... on Post { id } } }",
                nil
            ),
            ("{ __schema { queryType { name } types { name kind fields { name } } } }", nil),
            ("{ __type(name: \"User\") { name fields { name type { name kind ofType { name } } } } }", nil),
        ]
        for (query, variables) in operations {
            let prepared = try GraphQLPreparedOperation(query: query, variables: variables, in: schema)
            let (result, _) = prepared.answer(in: schema, mocks: GraphQLMocks())
            let data = try DocumentNode.parseJSON(Array(result.serialized()))
            let problems = GraphQLAnswerCheck(schema: schema, prepared: prepared).problems(
                of: try #require(data["data"]))
            #expect(problems.isEmpty, "\(query): \(problems)")
        }
    }

    @Test func eachKindOfDriftIsFoundWhereItIs() throws {
        let drifted = try Self.problems(
            "{ viewer { name role tags } }", #"{"viewer": {"name": null, "role": "KING", "tags": "x", "age": 3}}"#)
        #expect(
            drifted == [
                "unselected /viewer/age: `age` is in the answer, but the operation doesn't select it on `User`",
                "schema /viewer/name: null, but `String!` is non-null",
                #"schema /viewer/role: Enum "Role" cannot represent value: "KING""#,
                #"schema /viewer/tags: `[String!]!` is a list, but the answer has "x""#,
            ])
        // Aliases are what the answer holds; the field's name isn't.
        #expect(
            try Self.problems("{ me: viewer { handle: name } }", #"{"viewer": {"name": "x"}}"#) == [
                "unselected /viewer: `viewer` is in the answer, but the operation doesn't select it on `Query`",
                "missing /me: the operation selects `me` on `Query`, but the answer lacks it",
            ])
        // @skip with the request's variables: a skipped field must not be there.
        let skipping = GraphQLJSON.object([("s", .bool(true))])
        #expect(
            try Self.problems(
                "query Q($s: Boolean!) { viewer { name @skip(if: $s) role } }", variables: skipping,
                #"{"viewer": {"name": "x", "role": "ADMIN"}}"#) == [
                    "unselected /viewer/name: `name` is in the answer, but the operation doesn't select it on `User`"
                ])
        // A list's items in order; a leaf given a container.
        #expect(
            try Self.problems("{ posts { title } }", #"{"posts": [{"title": "a"}, {"title": ["b"]}, null]}"#) == [
                "schema /posts/1/title: `String` is a leaf type, but the answer has a list",
                "schema /posts/2: null, but `Post!` is non-null",
            ])
    }

    @Test func anAbstractAnswerIsCheckedAsTheTypeItNames() throws {
        let query = "{ feed { ... on Post { title } ... on Ad { headline } } }"
        // Without __typename, any of the union's types: only what all of them select is required,
        // and a member any of them selects may be there.
        #expect(try Self.problems(query, #"{"feed": [{"title": "a"}, {"headline": "b"}, {}]}"#) == [])
        #expect(
            try Self.problems(query, #"{"feed": [{"bogus": 1}]}"#) == [
                "unselected /feed/0/bogus: `bogus` is in the answer, but the operation doesn't select it on `FeedItem`"
            ])
        // With it, that type's selection.
        #expect(
            try Self.problems("{ feed { __typename ... on Post { title } } }", #"{"feed": [{"__typename": "Post"}]}"#)
                == ["missing /feed/0/title: the operation selects `title` on `Post`, but the answer lacks it"])
        #expect(
            try Self.problems("{ feed { __typename } }", #"{"feed": [{"__typename": "Cat"}]}"#) == [
                #"schema /feed/0/__typename: `__typename` "Cat" is not a type of `FeedItem` (Post, Ad, User)"#
            ])
    }

    @Test func withoutTypenameAnAnswerMayBeAnyTypeThatSelectsItsMembers() throws {
        let schema = try GraphQLSchema(
            sdl: """
                type Query { node: Node }
                interface Node { id: ID }
                type User implements Node { id: ID, owner: Person }
                type Org implements Node { id: ID, owner: Person }
                type Person { name: String, email: String }
                """)
        let query = "{ node { ... on User { owner { name } } ... on Org { owner { email } } } }"
        let prepared = try GraphQLPreparedOperation(query: query, in: schema)
        let check = GraphQLAnswerCheck(schema: schema, prepared: prepared)
        // An Org's owner, without `__typename`: either selection may have asked for it.
        for answer in [#"{"node": {"owner": {"email": "x"}}}"#, #"{"node": {"owner": {"name": "y"}}}"#] {
            #expect(check.problems(of: try DocumentNode.parseJSON(Array(answer.utf8))).isEmpty, "\(answer)")
        }
        // With `__typename`, the type it names: an unselected member is named on that type.
        #expect(
            try Self.problems(
                "{ feed { __typename ... on Post { title } } }", #"{"feed": [{"__typename": "Ad", "title": "x"}]}"#)
                == ["unselected /feed/0/title: `title` is in the answer, but the operation doesn't select it on `Ad`"])
    }

    @Test func anOperationOnARootTypeTheSchemaLacksIsRefused() throws {
        var check = GraphQLCheck(try GraphQLSchema(sdl: "type Query { a: String }"))
        let url = try #require(URL(string: "https://api.example.com/graphql"))
        var headers = HTTPHeaders()
        headers.add(.contentType, "application/json")
        let request = MockRequest(
            method: .post, url: url, headers: headers, body: Data(#"{"query": "mutation { a }"}"#.utf8))
        let answer = RecordedResponse(status: HTTPStatus(200), body: Data(#"{"data":{"a":"x"}}"#.utf8))
        let findings = check.check(request, answeredWith: answer, at: "session.har:2")
        #expect(
            findings?.map(\.description) == [
                "session.har:2: error: anonymous mutation: the schema has no mutation type, so it can't answer this "
                    + "operation"
            ])
        #expect(GraphQLCheck.looksLikeGraphQL("# generated\r\nquery Q { a }"))
    }

    @Test func anAnswerNestedAsDeepAsJSONAllowsIsWalkedWithoutRecursion() async throws {
        // 500 levels of lists where a leaf is expected: one problem, found on a small stack.
        let deep = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
        let found = try await withDeadline(60, waitingFor: "the deep answer's check", onThreadOfSize: 512 * 1024) {
            (try? Self.problems("{ viewer { tags } }", #"{"viewer": {"tags": [\#(deep)]}}"#)) ?? ["not checked"]
        }
        #expect(found == ["schema /viewer/tags/0: `String` is a leaf type, but the answer has a list"])
    }

    @Test func aGETExchangeIsCheckedAndOtherTrafficIsCounted() throws {
        var check = GraphQLCheck(try Self.schema.get())
        var components = URLComponents(string: "https://api.example.com/graphql")
        components?.queryItems = [URLQueryItem(name: "query", value: "query Me { viewer { name } }")]
        let url = try #require(components?.url)
        let get = MockRequest(method: .get, url: url)
        let answer = RecordedResponse(status: HTTPStatus(200), body: Data(#"{"data":{"viewer":{"name":7}}}"#.utf8))
        let checked = check.check(get, answeredWith: answer, at: "session.har:3")
        let findings = try #require(checked)
        #expect(
            findings.map(\.description) == [
                "session.har:3: error: Me: /data/viewer/name: String cannot represent value: 7"
            ])
        #expect(findings.map(\.operation) == ["Me"])
        let health = try #require(URL(string: "https://api.example.com/health"))
        let other = MockRequest(method: .get, url: health)
        #expect(check.check(other, answeredWith: answer, at: "session.har:4") == nil)
        // A search API's `query` parameter isn't a GraphQL document.
        let search = try #require(URL(string: "https://api.example.com/search?query=shoes"))
        #expect(check.check(MockRequest(method: .get, url: search), answeredWith: answer, at: "session.har:5") == nil)
        #expect(check.notGraphQL == 2)
        #expect(GraphQLCheck.looksLikeGraphQL("  # a comment\n query Q { a }"))
        #expect(GraphQLCheck.looksLikeGraphQL("{ a }"))
        #expect(!GraphQLCheck.looksLikeGraphQL("queryable"))
        #expect(!GraphQLCheck.looksLikeGraphQL(""))
        let report = check.report(findings)
        #expect(report.coverageLines.first == "coverage: 1 of 9 root fields")
    }
}
