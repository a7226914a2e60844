import Foundation
import RequestMockerGraphQL

extension FuzzTarget {
    /// GraphQL schemas (SDL): whatever builds must print SDL that builds again and prints the same.
    static let graphQLSchema = FuzzTarget(
        name: "graphql-sdl",
        seeds: [
            #"""
            "The schema" schema { query: Q mutation: M }
            """
            Block "quoted" \""" description
              indented
            """
            type Q implements Node & Named @cached(s: 1) {
              id: ID!, name(upper: Boolean = false "why" x: [Int!] = [1, 2]): String @deprecated(reason: "old")
            }
            interface Node { id: ID! }
            interface Named { name(upper: Boolean = false, x: [Int!]): String }
            type M { like(input: In!): U }
            union U = Q | M
            input In @oneOf { a: Int, b: E }
            enum E { A B @deprecated }
            scalar DateTime @specifiedBy(url: "https://example.com")
            directive @cached(s: Int!) repeatable on OBJECT | FIELD_DEFINITION
            extend type M { other: [[E!]]! }
            """#,
            "type Query { a: Int } extend type Query { b(c: String = \"\\u00e9\\n\"): Float }",
        ].map { Data($0.utf8) },
        tokens: [
            "type ", "interface ", "union ", "enum ", "input ", "scalar ", "extend ", "schema ", "directive @",
            "implements ", "{", "}", "(", ")", "[", "]", "!", ":", "=", "|", "&", "@", "\"\"\"", "\"", "\\u{",
            "Query", "Int", " on FIELD", "@deprecated", "@oneOf", "\n", "#",
        ].map { Data($0.utf8) },
        run: { input in
            guard let schema = try? GraphQLSchema(sdl: GraphQLSource(bytes: Array(input))) else { return }
            let printed = schema.sdl
            guard let again = try? GraphQLSchema(sdl: printed) else {
                preconditionFailure("a schema's SDL did not build again:\n\(printed)")
            }
            precondition(again.sdl == printed, "a schema's SDL printed differently once read back:\n\(printed)")
        })

    /// GraphQL operations: the executable grammar, nesting bounded.
    static let graphQLOperation = FuzzTarget(
        name: "graphql-operation",
        seeds: [
            #"""
            query Hero($episode: Episode = JEDI, $first: Int! = 2) @live {
              hero(episode: $episode) { __typename name ...F @include(if: true) ... on Droid { primaryFunction }
                friends(first: $first, filter: {names: ["a", """b"""], on: true, n: -1.5e2, none: null}) { id } }
            }
            fragment F on Character { name }
            """#,
            "{ a }", "subscription S { s }", "mutation { m(x: [[1], [2]]) }",
        ].map { Data($0.utf8) },
        tokens: [
            "{", "}", "(", ")", "[", "]", "...", "on ", "$", ":", "=", "@", "\"", "\"\"\"", "query ", "fragment ",
            "{ a ", "[[[[", "{a:{a:{a:", "1.5e", "-0", "\\u", "#", ",",
        ].map { Data($0.utf8) },
        run: { input in
            _ = try? GraphQLParser.parse(GraphQLSource(bytes: Array(input)))
        })
}
