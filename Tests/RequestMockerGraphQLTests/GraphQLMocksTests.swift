import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// A mocks file is read as JSON or YAML and checked against the schema when it is loaded; its
/// values answer wherever they apply.
@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLMocksTests {
    static let schemaText =
        GraphQLExecutorTests.social + """

            type Subscription { postAdded(by: ID): Post! }
            type Mutation { like(id: ID!): Post }
            """

    static func read(_ text: String, name: String = "mocks.yaml") throws(GraphQLMocksError) -> GraphQLMocks {
        let schema: GraphQLSchema
        do {
            schema = try GraphQLSchema(sdl: schemaText)
        } catch {
            Issue.record("schema: \(error)")
            return GraphQLMocks()
        }
        return try GraphQLMocks(Array(text.utf8), file: URL(fileURLWithPath: "/project/\(name)"), schema: schema)
    }

    static func problems(_ text: String, name: String = "mocks.yaml") -> [String] {
        do {
            _ = try read(text, name: name)
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    @Test func aGoodFileIsReadInEitherSyntax() throws {
        let yaml = try Self.read(
            """
            scalars:
              DateTime: "2026-02-03T04:05:06Z"
            types:
              User: { name: Luke, tags: [jedi], role: ADMIN }
              Node: { id: fixed }
            operations:
              Viewer:
                data: { viewer: { name: Leia, posts: [{ title: Hope }] } }
              Broken:
                data: null
                errors: [{ message: "The viewer is away.", extensions: { code: AWAY } }]
            subscriptions:
              Posts:
                - data: { postAdded: { title: First } }
                - data: { postAdded: { title: Second, views: 7 } }
            """)
        #expect(yaml.scalars["DateTime"] == .string("2026-02-03T04:05:06Z"))
        #expect(yaml.types["User"]?["role"] == .string("ADMIN"))
        #expect(yaml.operations.keys.sorted() == ["Broken", "Viewer"])
        #expect(yaml.subscriptions["Posts"]?.count == 2)
        let json = try Self.read(
            #"{"operations": {"Like": {"data": {"like": {"title": "Liked", "__typename": "Post"}}}}}"#,
            name: "mocks.json")
        #expect(json.operations["Like"]?["data"]?["like"]?["title"] == .string("Liked"))
    }

    @Test func eachMistakeSaysWhereWhatAndWhatToDo() {
        let problems = Self.problems(
            """
            scalars:
              Datetime: "x"
              Int: "seven"
            types:
              User: { name: 4, nickname: Luke, role: KING, tags: solo }
              Usr: {}
            operations:
              Viewer:
                data: { viewer: { name: null, posts: [{ title: T, author: x }] } }
                extra: 1
            subscriptions:
              Posts: { data: {} }
            other: {}
            """)
        #expect(
            problems == [
                "/project/mocks.yaml:2:13: scalars.Datetime: the schema has no scalar `Datetime`. Did you mean "
                    + #""DateTime" or "Date"?"#,
                "/project/mocks.yaml:3:8: scalars.Int: Int cannot represent non-integer value: \"seven\"; give a value "
                    + "of the scalar.",
                "/project/mocks.yaml:5:17: types.User.name: String cannot represent value: 4.",
                #"/project/mocks.yaml:5:30: types.User.nickname: `User` has no field `nickname`. Did you mean "name"?"#,
                #"/project/mocks.yaml:5:42: types.User.role: Enum "Role" cannot represent value: "KING"."#,
                "/project/mocks.yaml:5:54: types.User.tags: `[String!]!` is a list; write `[…]`.",
                "/project/mocks.yaml:6:8: types.Usr: the schema has no object or interface type `Usr`. "
                    + #"Did you mean "User"?"#,
                "/project/mocks.yaml:9:29: operations.Viewer.data.viewer.name: null, but `String!` is non-null; give a "
                    + "value.",
                "/project/mocks.yaml:9:63: operations.Viewer.data.viewer.posts[0].author: `Post` has no field "
                    + "`author`; write values under field names (a request's alias finds its field's value).",
                "/project/mocks.yaml:10:12: operations.Viewer.extra: an answer has only `data` and `errors`.",
                "/project/mocks.yaml:12:10: subscriptions.Posts: a subscription's events are a list of answers: "
                    + "`[{data: {…}}, …]`.",
                "/project/mocks.yaml:13:8: Unknown section `other`; a mocks file has `scalars`, `types`, `operations` "
                    + "and `subscriptions`.",
            ])
        #expect(
            Self.problems("{", name: "mocks.json").first?.hasPrefix("/project/mocks.json:1:2: This isn't JSON") == true)
    }

    @Test func anOperationsAnswerIsTrimmedAndCompleted() throws {
        let mocks = try Self.read(
            """
            operations:
              Viewer: { data: { viewer: { name: Leia, email: leia@example.com, posts: [{ title: Hope }] } } }
              Broken:
                data: null
                errors: [{ message: "The viewer is away.", extensions: { code: AWAY } }]
            """)
        let schema = try GraphQLSchema(sdl: Self.schemaText)
        let viewer = try GraphQLPreparedOperation(
            query: "query Viewer { viewer { me: name posts { title views } } }", in: schema)
        let answer = viewer.answer(in: schema, mocks: mocks)
        #expect(answer.answeredBy == .mocks)
        let views = try #require(answer.result.data?["viewer"]?["posts"]).description
        #expect(answer.result.data?["viewer"]?["me"] == .string("Leia"))
        #expect(views.hasPrefix(#"[{"title": "Hope", "views": "#))
        let broken = try GraphQLPreparedOperation(query: "query Broken { viewer { name } }", in: schema)
        #expect(
            String(decoding: broken.answer(in: schema, mocks: mocks).result.serialized(), as: UTF8.self)
                == #"{"errors":[{"message":"The viewer is away.","extensions":{"code":"AWAY"}}],"data":null}"#)
    }

    @Test func aSubscriptionSendsTheMocksEventsOrThreeGeneratedOnes() throws {
        let mocks = try Self.read(
            """
            subscriptions:
              Posts:
                - data: { postAdded: { title: First } }
                - data: { postAdded: { title: Second } }
            """)
        let schema = try GraphQLSchema(sdl: Self.schemaText)
        let named = try GraphQLPreparedOperation(query: "subscription Posts { postAdded { title id } }", in: schema)
        let (events, answeredBy) = named.events(in: schema, mocks: mocks)
        #expect(answeredBy == .mocks)
        #expect(events.map { $0.data?["postAdded"]?["title"] } == [.string("First"), .string("Second")])
        let other = try GraphQLPreparedOperation(query: "subscription { postAdded { id } }", in: schema)
        let generated = other.events(in: schema, mocks: mocks)
        #expect(generated.answeredBy == .generated)
        #expect(generated.events.count == 3)
        #expect(Set(generated.events.map { $0.data?["postAdded"]?["id"]?.description ?? "" }).count == 3)
    }
}
