import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// What a request may ask for is bounded before anything is expanded, and the deepest answer
/// allowed fits the smallest thread stack the server uses.
@Suite(.timeLimit(.minutes(2)), .hangGuard) struct GraphQLBoundsTests {
    static let recursive = """
        type Query {
          human(id: ID): Human, node: Node, nodes: [[[[[[[[Node]]]]]]]], walls: [[[[[[[[Wall!]!]!]!]!]!]!]!]!
        }
        type Human { name: String, friends: [Human] }
        type Node { child: Node, children: [[[[[[[[Node]]]]]]]], name: String }
        type Wall { wall: [[[[[[[[Wall!]!]!]!]!]!]!]!]!, name: String }
        """

    static func refusal(_ query: String, limits: GraphQLLimits = GraphQLLimits()) throws -> [String] {
        let schema = try GraphQLSchema(sdl: recursive)
        do {
            _ = try GraphQLPreparedOperation(query: query, in: schema, limits: limits)
            return []
        } catch {
            return error.errors.map(\.description)
        }
    }

    /// `{ <first> { <field> { … name } } }`, `levels` selection sets deep.
    static func nested(_ first: String, _ field: String, levels: Int) -> String {
        "{ \(first) " + String(repeating: "{ \(field) ", count: levels - 2) + "{ name"
            + String(repeating: " }", count: levels)
    }

    @Test func aFragmentDoubledFortyLevelsDeepIsRefusedBeforeItIsExpanded() throws {
        var fragments = ["fragment F0 on Human { name }"]
        for level in 1...40 { fragments.append("fragment F\(level) on Human { ...F\(level - 1) ...F\(level - 1) }") }
        let query = "{ human(id: 1) { ...F40 } } " + fragments.joined(separator: " ")
        #expect(
            try Self.refusal(query) == [
                "1:1: The operation asks for 1099511627777 fields once its fragments are spread; at most 10000 are "
                    + "answered. Ask for less at once."
            ])
        // Ten levels (1,025 fields) are within the bound, and answered.
        let ten = "{ human(id: 1) { ...F10 } } " + fragments.prefix(11).joined(separator: " ")
        #expect(try Self.refusal(ten) == [])
    }

    @Test func depthFieldsAndAliasesEachHaveABound() throws {
        #expect(try Self.refusal(Self.nested("node", "child", levels: 32)) == [])
        #expect(
            try Self.refusal(Self.nested("node", "child", levels: 33)) == [
                "1:1: The operation nests 33 levels deep; at most 32 are answered. Ask for less at once."
            ])
        // Through fragments too.
        #expect(
            try Self.refusal(
                "query Deep { node { ...A } } fragment A on Node { child { ...B } } fragment B on Node { name }",
                limits: {
                    var limits = GraphQLLimits()
                    limits.depth = 2
                    return limits
                }()) == [
                    #"1:1: The operation "Deep" nests 3 levels deep; at most 2 are answered. Ask for less at once."#
                ])
        let aliases = "{ " + (1...1001).map { "a\($0): human(id: \($0)) { name }" }.joined(separator: " ") + " }"
        #expect(
            try Self.refusal(aliases) == [
                "1:1: The operation uses 1001 aliases once its fragments are spread; at most 1000 are answered."
            ])
        var small = GraphQLLimits()
        small.queryBytes = 10
        #expect(
            try Self.refusal("{ node { name } }", limits: small) == [
                "The query is larger than 10 bytes; send a smaller one."
            ])
    }

    @Test func anAnswerPastItsBoundIsOneError() throws {
        let schema = try GraphQLSchema(sdl: Self.recursive)
        let prepared = try GraphQLPreparedOperation(query: "{ nodes { name children { name } } }", in: schema)
        let result = prepared.answer(in: schema, answerLimit: 100_000).result
        #expect(result.data == .null)
        #expect(
            result.errors.map(\.message) == [
                "The answer would take more than 100000 bytes; ask for fewer fields or smaller lists "
                    + "(`first`, `limit`)."
            ])
    }

    @Test(arguments: [
        ("nodes", "children", 28, "more than 65536 bytes"), ("nodes", "children", 32, "nest more than 256"),
        ("walls", "wall", 32, "nest more than 256"),
    ])
    func theDeepestAnswersFitASmallStack(first: String, field: String, levels: Int, refusal: String) async throws {
        // Levels each through eight lists (and eight non-null types for walls), on the 512 KiB
        // stack of the server's connection threads. Completion goes depth first, so the deepest
        // path is walked before two items per list take the answer past its size (28 levels,
        // 252 completions deep), or before it goes past the nesting bound.
        let schema = try GraphQLSchema(sdl: Self.recursive)
        let prepared = try GraphQLPreparedOperation(query: Self.nested(first, field, levels: levels), in: schema)
        let messages = try await withDeadline(60, waitingFor: "the deepest answer", onThreadOfSize: 512 * 1024) {
            // A small answer bound: the deepest path is walked first, then the bound stops it.
            prepared.answer(in: schema, answerLimit: 64 << 10).result.errors.map(\.message)
        }
        #expect(messages.count == 1)
        #expect(messages.first?.contains(refusal) == true, "\(messages)")
    }

    @Test func requestJSONNestsAtMost64DeepAndThatFitsASmallStack() async throws {
        // As deep as a request's JSON may nest, as a custom scalar's value (taken as given) and
        // as a list variable (coerced level by level, its mistake's message writing it out); then
        // 500 levels, about as deep as a JSON document may nest, refused before it is read.
        let schema = try GraphQLSchema(sdl: "scalar JSON type Query { echo(value: JSON, list: [[[Int]]]): Int }")
        @Sendable func body(_ levels: Int) -> String {
            let deep = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
            return #"{"query": "query ($value: JSON, $list: [[[Int]]]) { echo(value: $value, list: $list) }", "#
                + #""variables": {"value": \#(deep), "list": \#(deep)}}"#
        }
        let replies = try await withDeadline(60, waitingFor: "deep variables", onThreadOfSize: 512 * 1024) {
            [61, 500].map { levels in
                // A literal URL: it parses.
                var request = URLRequest(
                    url: URL(string: "https://api.example.com/graphql") ?? URL(fileURLWithPath: "/"))
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body(levels).utf8)
                let endpoint = GraphQLEndpoint(
                    schema: schema, mocks: GraphQLMocks(), file: URL(fileURLWithPath: "/schema.graphql"), host: nil,
                    path: "/graphql")
                let reply = endpoint.reply(to: MockRequest(request), revision: endpoint.revision)
                return (reply.status, reply.result.errors.first?.message ?? "")
            }
        }
        #expect(replies[0].0 == 200)
        #expect(replies[0].1.hasPrefix(#"Variable "$list" got invalid value"#), "\(replies[0].1.prefix(80))")
        #expect(replies[1].0 == 400)
        #expect(replies[1].1.hasPrefix("The body isn't a JSON object (nested at most 64 deep)"))
    }
}
