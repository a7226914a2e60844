import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// The validation rules, each with what it must refuse and what it must let pass, and the same
/// verdicts and error places as graphql-core on every case.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct GraphQLValidatorTests {
    static let sdl =
        GraphQLSchemaTests.starWars + """

            type Events { reviewAdded(episode: Episode): Int, other: Int }
            extend schema { subscription: Events }
            input Filter { text: String!, limit: Int = 10, episodes: [Episode!] }
            extend type Root { find(filter: Filter, near: [Int!]!): [SearchResult] }
            """

    static let schema = Result { try GraphQLSchema(sdl: sdl) }

    /// `line:column` of each error's first place, for `operation`.
    static func places(_ operation: String) throws -> [String] {
        let schema = try schema.get()
        let document: GraphQLDocument
        do {
            document = try GraphQLParser.parse(GraphQLSource(operation))
        } catch {
            return ["\(GraphQLSource(operation).location(of: error.offset))"]
        }
        return GraphQLValidator.validate(document, against: schema).map { error in
            error.locations.first.map(\.description) ?? "-"
        }
    }

    /// Operations each rule must let pass: the tricky valid ones.
    static let valid = [
        "{ hero { name name } }",
        "{ hero { a: name b: name } human(id: 1) { name } }",
        "{ hero { ... on Human { height } ... on Droid { primaryFunction } __typename } }",
        "{ search(text: \"r\") { ... on Character { name } ... on Human { id } } }",
        "query ($e: Episode, $n: Int = 2) { hero(episode: $e) { ...F } "
            + "} fragment F on Character { friends(first: $n) { name } }",
        "{ hero { name @skip(if: true) name @include(if: false) } }",
        "{ __schema { types { name } } __type(name: \"Human\") { name } __typename }",
        "subscription Reviews { reviewAdded }",
        "subscription { ... on Events { reviewAdded } }",
        "query A { hero { name } } query B { hero { id } }",
        "mutation { like(id: 4) { name } }",
        "fragment F on Node { id } { hero { ...F } }",
        "{ hero { ... { name } } }",
        "query ($e: Episode = JEDI) { hero(episode: $e) { name } }",
        "query ($id: ID!) { human(id: $id) { name } }",
        "query ($n: Int) { hero { friends(first: $n) { name } } }",
        "mutation { like(id: \"4\") { name } }",
        "{ find(filter: {text: \"r\", episodes: JEDI}, near: 1) { __typename } }",
        "query ($t: String!, $l: Int) { find(filter: {text: $t, limit: $l}, near: [1, 2]) { __typename } }",
        "query ($n: Int = 3) { find(near: [$n]) { __typename } }",
        "{ hero { ... on Human { id: name } ... on Droid { id: primaryFunction } } }",
        "fragment A on Human { name } fragment B on Human { name } { human(id: 1) { ...A ...B name } }",
        "{ hero { friends(first: 1) { name } friends(first: 1) { id } } }",
    ]

    /// One case or more per rule, each breaking it.
    static let invalid = [
        "{ hero { name } } type Extra { a: Int }",
        "query A { hero { name } } query A { hero { id } }",
        "{ hero { name } } query B { hero { id } }",
        "subscription S { reviewAdded other }",
        "subscription S { __typename }",
        "query ($e: Episod) { hero(episode: $e) { name } } fragment F on Nothing { a } { ...F }",
        "{ hero { ... on Episode { name } } }",
        "query ($h: Human) { hero { name } }",
        "{ hero }",
        "{ hero { name { first } } }",
        "{ hero { nam } }",
        "{ search(text: \"a\") { name } }",
        "fragment F on Human { id } fragment F on Human { name } { hero { ...F } }",
        "{ hero { ...Missing } }",
        "fragment Unused on Human { id } { hero { name } }",
        "{ hero { ... on Changes { like(id: 1) { name } } } }",
        "fragment A on Human { ...B } fragment B on Human { ...A } { human(id: 1) { ...A } }",
        "query ($a: Int, $a: Int) { hero(episode: JEDI) { name } }",
        "query Q { hero(episode: $e) { name } }",
        "query Q($e: Episode) { hero { name } }",
        "{ hero @unknown { name } }",
        "{ hero @skip(if: true) @skip(if: false) { name } }",
        "query @include(if: true) { hero { name } }",
        "{ hero(episod: JEDI) { name } }",
        "{ hero { name @skip(iff: true) } }",
        "{ hero(episode: JEDI, episode: EMPIRE) { name } }",
        "{ human { name } }",
        "{ hero { name @include } }",
        "mutation { like(id: 1, input: {a: 1, a: 2}) { name } }",
        "{ hero(episode: JEDII) { name } }",
        "{ hero(episode: \"JEDI\") { name } }",
        "{ human(id: 1.5) { name } }",
        "{ human(id: null) { name } }",
        "{ hero { friends(first: 3000000000) { name } } }",
        "query ($id: ID) { human(id: $id) { name } }",
        "query ($e: Int) { hero(episode: $e) { name } }",
        "query ($n: Int = \"x\") { hero { friends(first: $n) { name } } }",
        "{ find(filter: {limit: 1}, near: []) { __typename } }",
        "{ find(filter: {text: \"a\", limt: 1}, near: []) { __typename } }",
        "{ find(filter: {text: \"a\", episodes: [JEDI, null]}, near: []) { __typename } }",
        "{ find(filter: [{text: \"a\"}], near: []) { __typename } }",
        "query ($n: Int) { find(near: [$n]) { __typename } }",
        "{ hero { x: name x: id } }",
        "{ hero { friends(first: 1) { name } friends(first: 2) { name } } }",
        "{ hero { ... on Human { x: height } ... on Droid { x: name } } }",
        "{ hero { friends { x: name } friends { x: id } } }",
        "fragment A on Character { x: name } { hero { ...A x: id } }",
        "fragment A on Character { x: name } fragment B on Character { x: id } { hero { ...A ...B } }",
        "{ hero { ... on Human { friends { x: name } } ... on Droid { friends { x: id } } } }",
    ]

    @Test func eachRuleLetsItsTrickyValidCasesPass() throws {
        for operation in Self.valid {
            #expect(try Self.places(operation) == [], "\(operation)")
        }
    }

    @Test func eachRuleRefusesItsCases() throws {
        for operation in Self.invalid {
            #expect(try !Self.places(operation).isEmpty, "\(operation)")
        }
    }

    @Test func messagesSayWhatIsWrong() throws {
        let schema = try Self.schema.get()
        func messages(_ operation: String) throws -> [String] {
            GraphQLValidator.validate(try GraphQLParser.parse(GraphQLSource(operation)), against: schema).map(
                \.description)
        }
        #expect(
            try messages("{ hero { nam } }") == [
                "1:10: Cannot query field \"nam\" on type \"Character\". Did you mean \"name\"?"
            ])
        #expect(
            try messages("{ search(text: \"a\") { name } }") == [
                "1:23: Cannot query field \"name\" on type \"SearchResult\". Did you mean to use an inline fragment "
                    + "on \"Character\", \"Droid\", or \"Human\"?"
            ])
        #expect(
            try messages("fragment A on Human { ...B } fragment B on Human { ...A } { human(id: 1) { ...A } }") == [
                "1:23: Cannot spread fragment \"A\" within itself via \"B\"."
            ])
        #expect(
            try messages("query Q { hero(episode: $e) { name } }") == [
                "1:25: Variable \"$e\" is not defined by operation \"Q\": declare it among the operation's variables."
            ])
        #expect(
            try messages("{ hero }") == [
                "1:3: Field \"hero\" of type \"Character\" must have a selection of subfields. Did you mean "
                    + "\"hero { ... }\"?"
            ])
    }

    /// Each fragment spreads the next twice, 40 deep: expanded, 2^40 fields. The rules gather
    /// each fragment's fields once and compare each pair of fragments once, so this is as quick
    /// as a small document (a rule that expanded it would run past the suite's time limit).
    @Test func fragmentsSpreadTwiceFortyDeepAreValidatedWithoutExpandingThem() throws {
        let schema = try Self.schema.get()
        var text = "{ hero { ...F0 } }\n"
        for level in 0..<40 {
            text +=
                "fragment F\(level) on Character { friends { ...F\(level + 1) } more: friends { ...F\(level + 1) } }\n"
        }
        text += "fragment F40 on Character { name }\n"
        let document = try GraphQLParser.parse(GraphQLSource(text))
        #expect(GraphQLValidator.validate(document, against: schema).isEmpty)
        let conflicting = text.replacingOccurrences(
            of: "fragment F40 on Character { name }", with: "fragment F40 on Character { name name: id }")
        let errors = GraphQLValidator.validate(try GraphQLParser.parse(GraphQLSource(conflicting)), against: schema)
        #expect(
            errors.map(\.message) == [
                "Fields \"name\" conflict because \"name\" and \"id\" are "
                    + "different fields. Use different aliases on the "
                    + "fields to fetch both if this was intentional."
            ])
    }

    /// Two selections nested alike, differing at the bottom: compared level by level, to the
    /// rule's bound, on the smallest stack the library runs on; nested as deep as a document may
    /// be, they are compared to the bound and no further, without exhausting that stack.
    @Test func theDeepestComparisonFitsTheSmallestStack() async throws {
        let schema = try Self.schema.get()
        func document(depth: Int) throws -> GraphQLDocument {
            func nested(_ leaf: String) -> String {
                "hero { " + String(repeating: "friends { ", count: depth - 2) + leaf
                    + String(repeating: " }", count: depth - 1)
            }
            return try GraphQLParser.parse(GraphQLSource("{ " + nested("x: name") + " " + nested("x: id") + " }"))
        }
        let atBound = try document(depth: OverlappingFieldsRule.maximumDepth)
        let deepest = try document(depth: GraphQLParser.maximumDepth - 1)
        // A list value as deep as a document may nest, where a list of Int goes.
        let lists = GraphQLParser.maximumDepth - 2
        let deepValue = try GraphQLParser.parse(
            GraphQLSource(
                "{ find(near: " + String(repeating: "[", count: lists) + "1" + String(repeating: "]", count: lists)
                    + ") { __typename } }"))
        let messages = try await onThread {
            (
                GraphQLValidator.validate(atBound, against: schema).map(\.message),
                GraphQLValidator.validate(deepest, against: schema).map(\.message),
                GraphQLValidator.validate(deepValue, against: schema).count
            )
        }
        #expect(messages.0.count == 1)
        #expect(messages.0.first?.hasPrefix("Fields \"hero\" conflict because subfields \"friends\" conflict") == true)
        #expect(messages.1 == [])
        #expect(messages.2 == 1)
    }

    /// graphql-core gives the same errors at the same places.
    @Test func graphQLCoreFindsTheSameErrorsAtTheSamePlaces() async throws {
        let cases = Self.valid + Self.invalid
        let output = try await GraphQLCoreSchemaTests.graphqlCore(
            "validate", schema: Self.sdl, try JSONSerialization.data(withJSONObject: cases))
        let reference = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[[String]]])
        try #require(reference.count == cases.count)
        for (operation, errors) in zip(cases, reference) {
            let theirs = errors.map { $0.first ?? "-" }.sorted()
            #expect(try Self.places(operation).sorted() == theirs, "\(operation)")
        }
    }
}
