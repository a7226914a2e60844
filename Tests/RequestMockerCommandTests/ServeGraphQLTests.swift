import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `request-mocker serve --graphql`, driven with curl: its summary, its log lines, the mocks
/// file, reloading an edited schema, and its exit codes.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ServeGraphQLTests {
    static let schema = """
        type Query { hero(episode: Episode): Character, human(id: ID!): Human }
        enum Episode { NEWHOPE EMPIRE JEDI }
        interface Character { id: ID!, name: String! }
        type Human implements Character { id: ID!, name: String!, homePlanet: String }
        type Droid implements Character { id: ID!, name: String!, primaryFunction: String }
        type Mutation { rename(id: ID!, name: String!): Character }
        """

    func waitForLog(_ serving: BackgroundProcess, line: String) async throws {
        try await waitUntil(60, waitingFor: "the server to print \(line)") {
            serving.log.contains("\n" + line + "\n")
        }
    }

    @Test func aSchemaIsServedWithItsSummaryMocksAndALogLinePerRequest() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphqls", Self.schema)
        let mocks = try folder.write(
            "mocks.yaml",
            """
            types:
              Human: { name: Luke }
            operations:
              HeroName: { data: { hero: { __typename: Droid, name: R2-D2 } } }
            """)
        let (serving, base) = try await serving(["--graphql", schema.path, "--graphql-mocks", mocks.path])
        let url = base.absoluteString + "/graphql"
        let named = try await ExternalProcess.curl([
            "--include", "-H", "Content-Type: application/json", "--data-binary",
            #"{"query": "query HeroName { hero { name ... on Droid { primaryFunction } } }"}"#, url,
        ])
        #expect(named.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(named.output.contains("\r\nRequestMocker-GraphQL: HeroName mocks\r\n"))
        #expect(named.output.contains("\r\nContent-Type: application/json\r\n"))
        #expect(named.output.hasSuffix(#"{"data":{"hero":{"name":"R2-D2","primaryFunction":"primaryFunction 448"}}}"#))
        let human = try await ExternalProcess.curl([
            "--get", "--data-urlencode", #"query={ human(id: "1000") { id name } }"#, url,
        ])
        #expect(human.output == #"{"data":{"human":{"id":"1000","name":"Luke"}}}"#)
        _ = try await ExternalProcess.curl([
            "-H", "Content-Type: application/json", "-d", #"{"query": "{ hero { nam } }"}"#, url,
        ])
        #expect(await serving.interrupt() == 0)
        let lines = serving.log.split(separator: "\n").map { line in
            line.replacing(/\d+\.\d ms\)/, with: "X ms)")
        }
        #expect(
            lines == [
                "schema.graphqls: GraphQL, query Query (2 fields), mutation Mutation (1 field); 6 types, at /graphql "
                    + "(subscriptions over graphql-transport-ws)",
                "    mocks from mocks.yaml: 0 scalars, 1 type, 1 operation, 0 subscriptions",
                "Serving \(schema.path) at \(base) (Ctrl-C to stop)",
                "POST /graphql -> 200 from graphql HeroName (mocks, X ms)",
                #"GET /graphql?query=%7b+human%28id%3a+%221000%22%29+%7b+id+name+%7d+%7d -> 200 "#
                    + "from graphql query (generated, X ms)",
                "POST /graphql -> 200 from graphql - (refused, X ms)",
                #"    Cannot query field "nam" on type "Character". Did you mean "name"?"#,
                "Stopped.",
            ])
    }

    @Test func anEditedSchemaIsReloadedAndABrokenEditKeepsTheLastGoodOne() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphql", "type Query { a: Int }")
        let (serving, base) = try await serving(["--graphql", schema.path, "--graphql-path", "/api/graphql"])
        let url = base.absoluteString + "/api/graphql"
        let ask = ["-H", "Content-Type: application/json", "-d", #"{"query": "{ b }"}"#, url]
        #expect(
            try await ExternalProcess.curl(ask).output.hasPrefix(#"{"errors":[{"message":"Cannot query field \"b\""#))
        try Data("type Query { a: Int, b: String }".utf8).write(to: schema, options: .atomic)
        try await waitForLog(
            serving,
            line: "reloaded schema.graphql: GraphQL, query Query (2 fields); 1 type, at /api/graphql "
                + "(subscriptions over graphql-transport-ws)")
        #expect(try await ExternalProcess.curl(ask).output == #"{"data":{"b":"b 38"}}"#)
        try Data("type Query { b: Strin }".utf8).write(to: schema, options: .atomic)
        try await waitForLog(
            serving,
            line: "\(schema.path):1:17: Unknown type \"Strin\" (the type of Query.b): define it, or correct the name. "
                + "Did you mean \"String\"?; keeping the last good schema and mocks")
        #expect(try await ExternalProcess.curl(ask).output == #"{"data":{"b":"b 38"}}"#)
        #expect(await serving.interrupt() == 0)
    }

    @Test func aHostileOperationIsRefusedAndTheServerGoesOnServing() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphqls", Self.schema)
        let (serving, base) = try await serving(["--graphql", schema.path])
        let url = base.absoluteString + "/graphql"
        // A fragment that spreads another twice, forty levels deep: 2^40 fields once spread.
        var fragments = ["fragment F0 on Human { name }"]
        for level in 1...40 { fragments.append("fragment F\(level) on Human { ...F\(level - 1) ...F\(level - 1) }") }
        let query = #"{ human(id: \"1\") { ...F40 } } "# + fragments.joined(separator: " ")
        let refused = try await ExternalProcess.curl([
            "--include", "-H", "Content-Type: application/json", "-H", "Accept: application/graphql-response+json",
            "--data-binary", #"{"query": "\#(query)"}"#, url,
        ])
        #expect(refused.output.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
        #expect(
            refused.output.hasSuffix(
                #"{"errors":[{"message":"The operation asks for 1099511627777 fields once its fragments are spread; "#
                    + #"at most 10000 are answered. Ask for less at once.","locations":[{"line":1,"column":1}]}]}"#))
        let next = try await ExternalProcess.curl([
            "-H", "Content-Type: application/json", "--data-binary", #"{"query": "{ human(id: 1) { id } }"}"#, url,
        ])
        #expect(next.output == #"{"data":{"human":{"id":"1"}}}"#)
        #expect(await serving.interrupt() == 0)
    }

    /// A stubs file's GraphQL stub, served beside the schema: trimmed to what curl selects and
    /// completed from the schema; one that doesn't fit the schema stops `serve` at the start.
    @Test func aGraphQLStubIsShapedByTheServedSchema() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphqls", Self.schema)
        let stubs = try folder.write(
            "stubs.json",
            """
            {"stubs": [{"request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "HeroName"}},
                        "response": {"json": {"data": {"hero": {"__typename": "Human", "name": "Luke",
                                                                "homePlanet": "Tatooine"}}}}}]}
            """)
        let (serving, base) = try await serving(["--graphql", schema.path, "--stubs", stubs.path])
        let answer = try await ExternalProcess.curl([
            "--include", "-H", "Content-Type: application/json", "--data-binary",
            #"{"query": "query HeroName { hero { id name } }"}"#, base.absoluteString + "/graphql",
        ])
        #expect(answer.output.contains("\r\nRequestMocker-GraphQL: HeroName stub\r\n"))
        #expect(answer.output.contains(#"{"data":{"hero":{"id":""#))
        #expect(answer.output.hasSuffix(#"","name":"Luke"}}}"#))
        #expect(await serving.interrupt() == 0)
        let wrong = try folder.write(
            "wrong.json",
            """
            {"stubs": [{"request": {"graphql": {"operationName": "HeroName"}},
                        "response": {"json": {"data": {"hero": {"__typename": "Human", "name": null}}}}}]}
            """)
        let refused = try await Command.run(["serve", "--graphql", schema.path, "--stubs", wrong.path])
        #expect(refused.status == 65)
        #expect(
            refused.error
                == "request-mocker: stubs file \(wrong.path):2:34: at stubs[0].response.json: the answer doesn't fit "
                + "the GraphQL schema: data.hero.name: null, but `String!` is non-null; give a value; fix the file "
                + "(its schema is stubs.schema.json)\n")
    }

    @Test func mistakesEndTheCommandWithTheirExitCodes() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphql", "type Query { a: Int }")
        let missing = try await Command.run(["serve", "--graphql", folder.url.path + "/none.graphql"])
        #expect(missing.status == 66)
        #expect(missing.error == "request-mocker: \(folder.url.path)/none.graphql: There is no schema file here.\n")
        let broken = try folder.write("broken.graphql", "type Query { a: Int")
        let syntax = try await Command.run(["serve", "--graphql", broken.path])
        #expect(syntax.status == 65)
        #expect(syntax.error == "request-mocker: \(broken.path):1:20: Syntax Error: Expected Name, found <EOF>.\n")
        let mocks = try folder.write("mocks.json", #"{"types": {"Query": {"a": "x"}}}"#)
        let badMocks = try await Command.run(["serve", "--graphql", schema.path, "--graphql-mocks", mocks.path])
        #expect(badMocks.status == 65)
        #expect(
            badMocks.error
                == "request-mocker: \(mocks.path):1:27: types.Query.a: Int cannot represent non-integer value: \"x\".\n"
        )
        let alone = try await Command.run(["serve", "--graphql-mocks", mocks.path])
        #expect(alone.status == 64)
        #expect(
            alone.error == "request-mocker: --graphql-mocks goes with --graphql SCHEMA, which serves a GraphQL schema\n"
        )
    }
}
