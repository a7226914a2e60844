import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// Operations are answered from the schema as the specification's execution rules say, with
/// generated values that are the same in every run, and graphql-core agrees with each answer.
@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLExecutorTests {
    /// A schema in the shape real APIs have: Relay connections, nodes by id, custom scalars.
    static let social = """
        type Query {
          node(id: ID!): Node
          nodes(ids: [ID!]!): [Node]!
          user(id: ID!): User
          users(first: Int, after: String, last: Int, before: String): UserConnection!
          posts(limit: Int, offset: Int): [Post!]!
          feed: [FeedItem!]!
          viewer: User!
        }
        interface Node { id: ID! }
        type User implements Node {
          id: ID!
          name: String!
          email: String
          avatarUrl: String
          joined: DateTime
          website: URL
          tags: [String!]!
          role: Role!
          posts(first: Int): [Post!]!
        }
        type Post implements Node { id: ID!, title: String!, uuid: UUID, published: Date, meta: JSON, views: Long }
        type Ad { headline: String! }
        union FeedItem = Post | Ad | User
        enum Role { ADMIN, MEMBER, GUEST @deprecated }
        type UserConnection { edges: [UserEdge!]!, nodes: [User!]!, pageInfo: PageInfo!, totalCount: Int! }
        type UserEdge { cursor: String!, node: User! }
        type PageInfo { hasNextPage: Boolean!, hasPreviousPage: Boolean!, startCursor: String, endCursor: String }
        scalar DateTime
        scalar URL
        scalar UUID
        scalar Date
        scalar JSON
        scalar Long
        """

    static func answer(
        _ query: String, _ sdl: String = social, variables: String? = nil, mocks: GraphQLMocks = GraphQLMocks()
    ) throws -> GraphQLResult {
        let schema = try GraphQLSchema(sdl: sdl)
        let given = try variables.map { GraphQLJSON(try DocumentNode.parseJSON(Array($0.utf8))) }
        let prepared = try GraphQLPreparedOperation(query: query, variables: given, in: schema)
        return prepared.answer(in: schema, mocks: mocks).result
    }

    static func text(_ result: GraphQLResult) -> String {
        String(decoding: result.serialized(), as: UTF8.self)
    }

    static func data(_ query: String, _ sdl: String = social, variables: String? = nil) throws -> GraphQLJSON {
        let result = try answer(query, sdl, variables: variables)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return try #require(result.data)
    }

    @Test func theSameOperationGivesTheSameBytesInEveryRun() throws {
        let query = """
            { viewer { id name email avatarUrl joined website role tags
              posts(first: 1) { uuid published meta views } } }
            """
        // Pinned: the generator draws from FNV-1a and SplitMix64, not from `Hasher`, so these
        // bytes are the same in every process and on every platform.
        let expected =
            #"{"data":{"viewer":{"id":"User-20ae236b","name":"name 412","email":"user628@example.com","#
            + #""avatarUrl":"https://example.com/avatarUrl/444","joined":"2026-03-17T20:24:21Z","#
            + #""website":"https://example.com/website/260","role":"ADMIN","tags":["tags 3","tags 14"],"#
            + #""posts":[{"uuid":"fff4faf0-0754-403d-a6f3-4696f4d14011","published":"2026-12-09","meta":{},"#
            + #""views":951}]}}}"#
        #expect(Self.text(try Self.answer(query)) == expected)
    }

    @Test func anObjectFetchedByItsIdAgainHasTheSameValues() throws {
        let listed = try Self.data("{ users(first: 3) { nodes { id name email role } } }")
        guard case .list(let users)? = listed["users"]?["nodes"] else {
            Issue.record("no users in \(listed)")
            return
        }
        #expect(users.count == 3)
        for user in users {
            guard case .string(let id)? = user["id"] else {
                Issue.record("no id in \(user)")
                continue
            }
            let fetched = try Self.data(#"{ user(id: "\#(id)") { id name email role } }"#)
            #expect(fetched["user"] == user)
            let asNode = try Self.data(#"{ node(id: "\#(id)") { __typename ... on User { id name email role } } }"#)
            #expect(asNode["node"]?["__typename"] == .string("User"))
            #expect(asNode["node"]?["name"] == user["name"])
        }
        // An id the generator never made is an identity too, in every place it is fetched.
        let first = try Self.data(#"{ user(id: "42") { name posts { id } } }"#)
        let again = try Self.data(#"{ a: user(id: 42) { name } b: nodes(ids: ["42"]) { ... on User { name } } }"#)
        #expect(first["user"]?["name"] == again["a"]?["name"])
        #expect(again["b"] == .list([.object([("name", first["user"]?["name"] ?? .null)])]))
    }

    @Test func listsHoldTwoItemsOrTheCountTheirArgumentsAskFor() throws {
        func count(_ query: String, _ path: [String]) throws -> Int? {
            var value: GraphQLJSON? = try Self.data(query)
            for key in path { value = value?[key] }
            if case .list(let items)? = value { return items.count }
            return nil
        }
        #expect(try count("{ posts { id } }", ["posts"]) == 2)
        #expect(try count("{ posts(limit: 7) { id } }", ["posts"]) == 7)
        #expect(try count("{ posts(limit: 1000) { id } }", ["posts"]) == 100)
        #expect(try count("{ posts(limit: 0) { id } }", ["posts"]) == 0)
        #expect(try count("{ viewer { posts(first: 5) { id } } }", ["viewer", "posts"]) == 5)
        #expect(try count(#"{ nodes(ids: ["a", "b", "c"]) { id } }"#, ["nodes"]) == 3)
        // The second page of a list continues the first.
        let pages = try Self.data("{ a: posts(limit: 4) { id } b: posts(limit: 2, offset: 2) { id } }")
        guard case .list(let all)? = pages["a"], case .list(let second)? = pages["b"] else {
            Issue.record("no pages in \(pages)")
            return
        }
        #expect(Array(all.suffix(2)) == second)
    }

    @Test func aConnectionPagesConsistently() throws {
        let query = """
            query ($after: String) {
              users(first: 3, after: $after) {
                totalCount
                edges { cursor node { id } }
                nodes { id }
                pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
              }
            }
            """
        let first = try #require(try Self.data(query)["users"])
        guard case .list(let edges)? = first["edges"] else {
            Issue.record("no edges in \(first)")
            return
        }
        #expect(edges.count == 3)
        #expect(first["nodes"] == .list(edges.map { $0["node"] ?? .null }))
        #expect(first["totalCount"] == .int(6))
        #expect(first["pageInfo"]?["hasNextPage"] == .bool(true))
        #expect(first["pageInfo"]?["hasPreviousPage"] == .bool(false))
        #expect(first["pageInfo"]?["startCursor"] == edges.first?["cursor"])
        #expect(first["pageInfo"]?["endCursor"] == edges.last?["cursor"])
        let endCursor = try #require(first["pageInfo"]?["endCursor"])
        let second = try #require(try Self.data(query, variables: #"{"after": \#(endCursor)}"#)["users"])
        #expect(second["pageInfo"]?["hasNextPage"] == .bool(false))
        #expect(second["pageInfo"]?["hasPreviousPage"] == .bool(true))
        guard case .list(let more)? = second["nodes"] else {
            Issue.record("no nodes in \(second)")
            return
        }
        #expect(more.count == 3)
        #expect(Set(more.map(\.description)).isDisjoint(with: edges.map { $0["node"]?.description ?? "" }))
        // The last items, before the end.
        let last = try #require(
            try Self.data("{ users(last: 2) { nodes { id } pageInfo { hasNextPage hasPreviousPage } } }")["users"])
        #expect(last["pageInfo"]?["hasNextPage"] == .bool(false))
        #expect(last["pageInfo"]?["hasPreviousPage"] == .bool(true))
    }

    @Test func anAbstractTypeIsOneOfTheTypesTheFragmentsAskFor() throws {
        let asked = try Self.data("{ feed { __typename ... on Post { title } ... on Ad { headline } } }")
        guard case .list(let items)? = asked["feed"] else {
            Issue.record("no feed in \(asked)")
            return
        }
        // A list's items take turns among the types asked for, so each fragment is exercised.
        #expect(Set(items.compactMap { $0["__typename"]?.description }) == [#""Post""#, #""Ad""#])
        let unasked = try Self.data("{ feed { __typename } node(id: \"Post-1\") { __typename } }")
        #expect(unasked["node"]?["__typename"] == .string("Post"))
    }

    @Test func directivesAndAliasesShapeTheAnswer() throws {
        let query = """
            query ($skip: Boolean!) {
              viewer { me: name name @skip(if: $skip) ... @include(if: $skip) { role } id @include(if: false) }
            }
            """
        let skipped = try Self.data(query, variables: #"{"skip": true}"#)
        #expect(skipped["viewer"].map { Self.keys($0) } == ["me", "role"])
        #expect(skipped["viewer"]?["me"] == (try Self.data(query, variables: #"{"skip": false}"#))["viewer"]?["name"])
    }

    @Test func aNullInANonNullPlaceNullsItsNearestNullableParent() throws {
        var mocks = GraphQLMocks()
        mocks.types["User"] = .object([("name", .null)])
        let nested = try Self.answer("{ viewer { email } users(first: 2) { nodes { email name } } }", mocks: mocks)
        // `name: String!` in `[User!]!` in `UserConnection!`: the null climbs to `data`, and the
        // answer stops at the first error, as graphql-js's does.
        #expect(nested.data == .null)
        #expect(
            nested.errors == [
                GraphQLError(
                    "Cannot return null for non-nullable field User.name.",
                    at: [GraphQLLocation(line: 1, column: 52)],
                    path: [.key("users"), .key("nodes"), .index(0), .key("name")])
            ])
        let nullable = try Self.answer("{ node(id: \"User-1\") { ... on User { email name } } }", mocks: mocks)
        #expect(nullable.data == .object([("node", .null)]))
        #expect(nullable.errors.map(\.path) == [[.key("node"), .key("name")]])
        #expect(
            Self.text(nullable) == #"{"errors":[{"message":"Cannot return null for non-nullable field User.name.","#
                + #""locations":[{"line":1,"column":44}],"path":["node","name"]}],"data":{"node":null}}"#)
    }

    @Test func theMocksGiveValuesWhereTheyHaveThem() throws {
        var mocks = GraphQLMocks()
        mocks.scalars["DateTime"] = .string("2026-02-03T04:05:06Z")
        mocks.types["Node"] = .object([("id", .string("fixed"))])
        mocks.types["User"] = .object([("name", .string("Luke")), ("tags", .list([.string("jedi")]))])
        mocks.operations["Viewer"] = .object([
            ("data", .object([("viewer", .object([("email", .string("luke@example.com")), ("extra", .int(1))]))]))
        ])
        let schema = try GraphQLSchema(sdl: Self.social)
        let prepared = try GraphQLPreparedOperation(
            query: "query Viewer { viewer { name email joined tags id } }", in: schema)
        let (result, answeredBy) = prepared.answer(in: schema, mocks: mocks)
        #expect(answeredBy == .mocks)
        // The operation's answer, trimmed to what is asked and completed with the type's values.
        #expect(
            Self.text(result) == #"{"data":{"viewer":{"name":"Luke","email":"luke@example.com","#
                + #""joined":"2026-02-03T04:05:06Z","tags":["jedi"],"id":"fixed"}}}"#)
        let other = try GraphQLPreparedOperation(query: "query Other { viewer { name } }", in: schema)
        #expect(other.answer(in: schema, mocks: mocks).answeredBy == .generated)
        #expect(other.answer(in: schema, mocks: mocks).result.data?["viewer"]?["name"] == .string("Luke"))
    }

    @Test func aMockedValueOfTheWrongTypeIsAFieldError() throws {
        var mocks = GraphQLMocks()
        mocks.types["User"] = .object([("role", .string("KING")), ("tags", .string("solo")), ("email", .int(4))])
        let result = try Self.answer("{ viewer { email role tags } }", mocks: mocks)
        #expect(
            result.errors.map(\.message) == [
                "String cannot represent value: 4", #"Enum "Role" cannot represent value: "KING""#,
            ])
        #expect(result.data == .null)
    }

    @Test func requestErrorsHaveNoData() throws {
        func refusal(_ query: String, name: String? = nil, variables: String? = nil) throws -> [String] {
            let schema = try GraphQLSchema(sdl: Self.social)
            let given = try variables.map { GraphQLJSON(try DocumentNode.parseJSON(Array($0.utf8))) }
            do {
                _ = try GraphQLPreparedOperation(query: query, operationName: name, variables: given, in: schema)
                return []
            } catch {
                #expect(error.result.data == nil)
                #expect(!error.result.json.description.contains("\"data\""))
                return error.errors.map(\.description)
            }
        }
        #expect(try refusal("{ viewer { name }") == ["1:18: Syntax Error: Expected Name, found <EOF>."])
        #expect(
            try refusal("{ viewer { nam } }") == [
                #"1:12: Cannot query field "nam" on type "User". Did you mean "name"?"#
            ])
        #expect(
            try refusal("query A { viewer { id } } query B { viewer { id } }") == [
                "Must provide operation name if query contains multiple operations."
            ])
        #expect(try refusal("query A { viewer { id } }", name: "B") == [#"Unknown operation named "B"."#])
        #expect(
            try refusal("fragment F on User { id }") == [
                #"1:1: Fragment "F" is never used: spread it (...F) or remove it."#
            ])
        #expect(try refusal("") == ["1:1: Syntax Error: Unexpected <EOF>."])
        #expect(
            try refusal("query ($n: Int!) { posts(limit: $n) { id } }", variables: "{}") == [
                #"1:8: Variable "$n" of required type "Int!" was not provided."#
            ])
        #expect(try refusal("query A { viewer { id } } query B { viewer { id } }", name: "B").isEmpty)
    }

    static func keys(_ value: GraphQLJSON) -> [String] {
        if case .object(let members) = value { members.map(\.key) } else { [] }
    }
}
