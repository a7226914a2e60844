import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMockerGraphQL

/// The schema reader against graphql-core, the Python port of graphql-js: the same verdict on
/// the same SDL, and the same schema back from what we print and from an introspection result.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct GraphQLCoreSchemaTests {
    static let script = Bundle.module.url(forResource: "graphql_core", withExtension: "py", subdirectory: "Fixtures")

    /// What graphql-core prints for `command` given `input`.
    static func graphqlCore(_ command: String, _ input: String) async throws -> String {
        try await Tool.graphqlCore.require()
        let script = try #require(Self.script)
        let result = try await ExternalProcess.run(
            "python3", [script.path, command], input: Data(input.utf8), timeout: .seconds(60))
        #expect(result.status == 0, "graphql-core: \(result.error)")
        return result.output
    }

    /// What graphql-core prints for `command` given `input` (JSON), with `schema` (SDL) in a
    /// file of its own, named after the command.
    static func graphqlCore(_ command: String, schema: String, _ input: Data) async throws -> String {
        try await Tool.graphqlCore.require()
        let script = try #require(Self.script)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-graphql-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let schemaFile = folder.appendingPathComponent("schema.graphql")
        try Data(schema.utf8).write(to: schemaFile)
        let result = try await ExternalProcess.run(
            "python3", [script.path, command, schemaFile.path], input: input, timeout: .seconds(60))
        #expect(result.status == 0, "graphql-core: \(result.error)")
        return result.output
    }

    @Test func whatWePrintGraphQLCoreReadsAsTheSameSchema() async throws {
        let schema = try GraphQLSchema(sdl: GraphQLSchemaTests.starWars)
        let original = try await Self.graphqlCore("print", GraphQLSchemaTests.starWars)
        let ours = try await Self.graphqlCore("print", schema.sdl)
        #expect(ours == original)
        #expect(original.contains("type Droid implements Character & Node"))
    }

    @Test func anIntrospectionResultGivesBackTheSchema() async throws {
        let introspection = try await Self.graphqlCore("introspect", GraphQLSchemaTests.starWars)
        let schema = try GraphQLSchema(introspection: GraphQLSource(introspection, name: "schema.json"))
        #expect(schema.queryType == "Root")
        #expect(schema.types["Episode"]?.enumValue("JEDI")?.deprecationReason == "Use RETURN.")
        #expect(schema.types["DateTime"]?.specifiedByURL == "https://scalars.graphql.org/andimarek/date-time")
        #expect(
            schema.types["Character"]?.field("friends")?.argument("first")?.defaultValue.map {
                GraphQLPrinter.value($0)
            }
                == "2")
        let original = try await Self.graphqlCore("print", GraphQLSchemaTests.starWars)
        let ours = try await Self.graphqlCore("print", schema.sdl)
        #expect(ours == original)
        // Apollo iOS keeps the result without its `data` envelope.
        let bare = try #require(introspection.range(of: "\"__schema\"")).lowerBound
        let unwrapped = "{" + introspection[bare...].dropLast(2)
        #expect(try GraphQLSchema(introspection: GraphQLSource(String(unwrapped))).typeNames == schema.typeNames)
    }

    /// SDL that graphql-core and we must both accept, or both refuse at the same place.
    static let verdictCases = [
        "type Query { a: Int }",
        "type Query { a: Foo }",
        "type Query { a: Int } type Query { b: Int }",
        "type Foo { a: Int }",
        "schema { query: In } input In { a: Int }",
        "type Query { a(i: Query): Int }",
        "type Query { a: In } input In { a: Int }",
        "type Query implements I { b: Int } interface I { a: Int }",
        "type Query implements I { a: String } interface I { a: Int }",
        "type Query implements I { a: Int! } interface I { a: Int }",
        "type Query implements I { a(x: Int!): Int } interface I { a: Int }",
        "type Query implements I { a(x: Int): Int } interface I { a: Int }",
        "type Query implements I { a: Int } interface I { a(x: Int): Int }",
        "type Query implements J & I { a: Int } interface I { a: Int } interface J implements I { a: Int }",
        "type Query implements J { a: Int } interface I { a: Int } interface J implements I { a: Int }",
        "type Query { u: U } union U = Query | I interface I { a: Int }",
        "type Query { u: U } union U = Query | Query",
        "type Query { a(i: A): Int } input A { b: B! } input B { a: A! }",
        "type Query { a(i: A): Int } input A { b: B } input B { a: A! }",
        "type Query { a(i: A): Int } input A { b: [A!]! }",
        "type Query { __a: Int }",
        "type Query { a(x: Int! @deprecated): Int }",
        "type Query { a(x: Int! = 1 @deprecated): Int }",
        "type Query { a: Int @deprecated @deprecated }",
        "type Query { a: Int @unknown }",
        "type Query { a: Int @skip(if: true) }",
        "type Query { a: Int } extend type Nope { b: Int }",
        "type Query { a: Int } extend union Query = Query",
        "type Query { a: Int, a: String }",
        "type Query { a: Int } enum E { A A }",
        "type Query { a: Int } directive @d on FIELD directive @d on FIELD",
        "type Query { a: Int } scalar S @specifiedBy",
        "type Query { a: Int } scalar S @specifiedBy(url: \"https://x\")",
        "type Query { a: Int } directive @d repeatable on OBJECT type T @d @d { a: Int }",
        "schema { query: Q } extend schema { mutation: M } type Q { a: Int } type M { b: Int }",
        "schema { query: Q } schema { query: Q } type Q { a: Int }",
        "schema { query: Q query: Q } type Q { a: Int }",
        "type Query { a: Int } interface I implements I { a: Int }",
        "type Query { a: E } enum E",
        "type Query { a: Int } type T",
        "type Query { a: Int } input I",
        "type Query { a: Int } union U",
        "type Query { a: Int",
        "type Query { a: Int } \"description\" extend type Query @a",
        "type Query { a(b: Int = \"x\"): Int }",
    ]

    @Test func graphQLCoreAndWeGiveTheSameVerdict() async throws {
        let json = try JSONSerialization.data(withJSONObject: Self.verdictCases)
        let output = try await Self.graphqlCore("verdicts", String(decoding: json, as: UTF8.self))
        let verdicts = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[Any]])
        try #require(verdicts.count == Self.verdictCases.count)
        for (sdl, reference) in zip(Self.verdictCases, verdicts) {
            let accepted = reference[0] as? Bool ?? false
            let problems = GraphQLSchemaTests.problems(sdl)
            #expect(
                problems.isEmpty == accepted,
                "\(sdl): graphql-core \(accepted ? "accepts" : "refuses"); ours: \(problems)")
        }
    }
}
