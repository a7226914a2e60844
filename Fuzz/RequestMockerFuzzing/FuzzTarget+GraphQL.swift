import Foundation
import RequestMocker
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

    /// The schema operations are validated against: every kind of type, an interface that
    /// implements another, a union, an input object and arguments of each kind.
    static let graphQLSchemaForOperations = try? GraphQLSchema(
        sdl: """
            type Query { hero(episode: Episode): Character, search(text: String!): [Result!]!, node(id: ID!): Node }
            type Mutation { like(id: ID!, input: In): Character }
            type Subscription { reviewAdded: Int, other: Int }
            interface Node { id: ID! }
            interface Character implements Node { id: ID!, name: String, friends(first: Int = 2): [Character] }
            type Human implements Node & Character {
              id: ID!, name: String, friends(first: Int = 2): [Character], height: Float
            }
            type Droid implements Node & Character {
              id: ID!, name: String, friends(first: Int = 2): [Human!], primaryFunction: String
            }
            union Result = Human | Droid
            enum Episode { NEWHOPE EMPIRE JEDI }
            input In { text: String!, limit: Int = 10, nested: In, list: [Episode!] }
            """)

    /// GraphQL operations: the executable grammar, nesting bounded, then every validation rule
    /// against a small schema.
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
            guard let document = try? GraphQLParser.parse(GraphQLSource(bytes: Array(input))),
                let schema = graphQLSchemaForOperations
            else { return }
            _ = GraphQLValidator.validate(document, against: schema)
        })

    /// GraphQL operations answered from the small schema: whatever prepares (within the bounds,
    /// valid, its variables coerced) answers with data, the same twice, and its JSON reads back.
    static let graphQLExecution = FuzzTarget(
        name: "graphql-execution",
        seeds: [
            #"""
            query Hero($episode: Episode = JEDI, $first: Int = 3) {
              hero(episode: $episode) {
                __typename name ...F ... on Droid { primaryFunction friends(first: $first) { id } }
              }
              search(text: "r") { ... on Human { height } ... on Droid { name } }
              node(id: "Human-1") { id ... on Character { friends { name } } }
            }
            fragment F on Character { a: name b: friends(first: 5) { ... on Human { height } } }
            """#,
            "{ __schema { types { name fields(includeDeprecated: true) { name type { ofType { name } } } } } }",
            "mutation { like(id: 4, input: {text: \"x\", list: [JEDI]}) { name } }",
        ].map { Data($0.utf8) },
        tokens: [
            "{", "}", "(", ")", "...", "on ", "hero", "friends", "first: ", "search", "node", "Human", "Droid",
            "name", "__typename", "__type(name: \"Human\")", "@skip(if: true)", "fragment F on Character ", "...F",
        ].map { Data($0.utf8) },
        run: { input in
            guard let schema = graphQLSchemaForOperations,
                let text = String(bytes: input, encoding: .utf8),
                let prepared = try? GraphQLPreparedOperation(query: text, in: schema)
            else { return }
            let first = prepared.answer(in: schema, answerLimit: 256 << 10).result
            let again = prepared.answer(in: schema, answerLimit: 256 << 10).result
            precondition(first == again, "the same operation answered differently twice")
            precondition(first.data != nil, "an operation that prepared was answered without data")
            let bytes = first.serialized()
            precondition((try? DocumentNode.parseJSON(bytes)) != nil, "an answer isn't JSON")
        })
}
