import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// Variables are coerced by the input rules, as graphql-core coerces them.
@Suite(.timeLimit(.minutes(5)), .hangGuard) struct GraphQLVariablesTests {
    static let sdl =
        GraphQLValidatorTests.sdl + """

            input Review { stars: Int!, note: String = "none", tags: [String!], when: DateTime }
            input Pick @oneOf { byId: ID, byName: String }
            extend type Changes { review(input: Review, pick: Pick, scores: [[Float]], id: ID): Int }
            """

    /// An operation and the variables sent with it, as JSON.
    static let cases: [(operation: String, variables: String)] = [
        ("query ($e: Episode, $n: Int = 2) { hero(episode: $e) { name } }", #"{"e": "JEDI"}"#),
        ("query ($e: Episode, $n: Int = 2) { hero(episode: $e) { name } }", #"{"e": "JEDII"}"#),
        ("query ($e: Episode, $n: Int = 2) { hero(episode: $e) { name } }", #"{"n": 3000000000}"#),
        ("query ($e: Episode, $n: Int = 2) { hero(episode: $e) { name } }", #"{"n": 2.5}"#),
        ("query ($e: Episode, $n: Int = 2) { hero(episode: $e) { name } }", #"{"n": 4.0, "e": null}"#),
        ("query ($id: ID!) { human(id: $id) { name } }", #"{"id": 4}"#),
        ("query ($id: ID!) { human(id: $id) { name } }", #"{"id": "4"}"#),
        ("query ($id: ID!) { human(id: $id) { name } }", #"{}"#),
        ("query ($id: ID!) { human(id: $id) { name } }", #"{"id": null}"#),
        ("query ($id: ID!) { human(id: $id) { name } }", #"{"id": true}"#),
        ("mutation ($r: Review) { review(input: $r) }", #"{"r": {"stars": 5}}"#),
        ("mutation ($r: Review) { review(input: $r) }", #"{"r": {"stars": 5, "tags": "solo", "when": {"any": [1]}}}"#),
        ("mutation ($r: Review) { review(input: $r) }", #"{"r": {"note": "x"}}"#),
        ("mutation ($r: Review) { review(input: $r) }", #"{"r": {"stars": 5, "star": 1}}"#),
        ("mutation ($r: Review) { review(input: $r) }", #"{"r": [{"stars": 5}]}"#),
        ("mutation ($r: Review = {stars: 4, tags: \"a\"}) { review(input: $r) }", #"{}"#),
        ("mutation ($p: Pick) { review(pick: $p) }", #"{"p": {"byName": "Luke"}}"#),
        ("mutation ($p: Pick) { review(pick: $p) }", #"{"p": {"byName": "Luke", "byId": 4}}"#),
        ("mutation ($p: Pick) { review(pick: $p) }", #"{"p": {"byId": null}}"#),
        ("mutation ($s: [[Float]]) { review(scores: $s) }", #"{"s": 1}"#),
        ("mutation ($s: [[Float]]) { review(scores: $s) }", #"{"s": [[1, 2.5], null, [null]]}"#),
        ("mutation ($s: [[Float]]) { review(scores: $s) }", #"{"s": [[1, "x"]]}"#),
    ]

    static func coerce(_ operation: String, _ variables: String) throws -> (values: String, errors: [GraphQLError]) {
        let schema = try GraphQLSchema(sdl: sdl)
        let document = try GraphQLParser.parse(GraphQLSource(operation))
        let definition = try #require(document.operations.first)
        let given = GraphQLJSON(try DocumentNode.parseJSON(Array(variables.utf8)))
        let (values, errors) = GraphQLVariables.coerce(given, for: definition, in: schema, source: document.source)
        let ordered = definition.variables.compactMap { variable in
            values[variable.name.value].map { "\"\(variable.name.value)\": \($0)" }
        }
        return ("{" + ordered.joined(separator: ", ") + "}", errors)
    }

    @Test func valuesAreCoercedByTheInputRules() throws {
        #expect(try Self.coerce(Self.cases[0].operation, #"{"e": "JEDI"}"#).values == #"{"e": "JEDI", "n": 2}"#)
        #expect(try Self.coerce(Self.cases[5].operation, #"{"id": 4}"#).values == #"{"id": "4"}"#)
        #expect(
            try Self.coerce(Self.cases[11].operation, Self.cases[11].variables).values
                == #"{"r": {"stars": 5, "note": "none", "tags": ["solo"], "when": {"any": [1]}}}"#)
        #expect(
            try Self.coerce(Self.cases[15].operation, "{}").values
                == #"{"r": {"stars": 4, "note": "none", "tags": ["a"]}}"#)
        #expect(try Self.coerce(Self.cases[19].operation, #"{"s": 1}"#).values == #"{"s": [[1.0]]}"#)
    }

    @Test func mistakesNameTheVariableAndThePlaceInItsValue() throws {
        func messages(_ index: Int) throws -> [String] {
            try Self.coerce(Self.cases[index].operation, Self.cases[index].variables).errors.map(\.description)
        }
        #expect(
            try messages(1) == [
                #"1:8: Variable "$e" got invalid value "JEDII"; Value "JEDII" "#
                    + #"does not exist in "Episode" enum. Did you mean "JEDI"?"#
            ])
        #expect(try messages(7) == [#"1:8: Variable "$id" of required type "ID!" was not provided."#])
        #expect(try messages(8) == [#"1:8: Variable "$id" of non-null type "ID!" must not be null."#])
        #expect(
            try messages(21) == [
                #"1:11: Variable "$s" got invalid value "x" at "s[0][1]"; Float "#
                    + #"cannot represent non numeric value: "x""#
            ])
    }

    @Test func graphQLCoreCoercesTheSameValuesAndRefusesTheSameOnes() async throws {
        let input = try JSONSerialization.data(
            withJSONObject: try Self.cases.map {
                [$0.operation, try JSONSerialization.jsonObject(with: Data($0.variables.utf8))]
            })
        let output = try await GraphQLCoreSchemaTests.graphqlCore("variables", schema: Self.sdl, input)
        let reference = try #require(
            try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        try #require(reference.count == Self.cases.count)
        for ((operation, variables), theirs) in zip(Self.cases, reference) {
            let ours = try Self.coerce(operation, variables)
            if let count = theirs["errors"] as? Int {
                #expect(ours.errors.count == count, "\(operation) with \(variables): \(ours.errors)")
            } else {
                #expect(ours.errors == [], "\(operation) with \(variables)")
                #expect(ours.values == theirs["values"] as? String, "\(operation) with \(variables)")
            }
        }
    }
}
