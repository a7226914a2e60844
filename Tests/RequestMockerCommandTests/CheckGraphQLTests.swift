import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `request-mocker check --graphql SCHEMA`: recorded GraphQL exchanges and GraphQL stubs
/// checked against a schema, in each of check's formats.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct CheckGraphQLTests {
    static let schema = ServeGraphQLTests.schema

    /// One recorded exchange: a request (a POST's JSON body, or none for a GET) and its answer.
    struct Exchange {
        var method = "POST"
        var url = "http://api.example.com/graphql"
        var body: JSONValue?
        var answer: String
    }

    /// A HAR file with each exchange's entry on a line of its own: entry `i` is on line `i + 2`.
    static func har(_ exchanges: [Exchange]) throws -> String {
        let entries = try exchanges.map { exchange -> String in
            var request: [String: JSONValue] = [
                "method": .string(exchange.method), "url": .string(exchange.url), "httpVersion": "HTTP/1.1",
                "headers": exchange.body == nil ? [] : [["name": "Content-Type", "value": "application/json"]],
                "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0,
            ]
            if let body = exchange.body {
                request["postData"] = [
                    "mimeType": "application/json",
                    "text": .string(String(decoding: try body.serialized(), as: UTF8.self)),
                ]
            }
            let entry: JSONValue = [
                "startedDateTime": "2026-01-01T00:00:00.000Z", "time": 1, "request": .object(request),
                "response": [
                    "status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                    "headers": [["name": "Content-Type", "value": "application/json"]], "cookies": [],
                    "content": [
                        "size": .int(exchange.answer.utf8.count), "mimeType": "application/json",
                        "text": .string(exchange.answer),
                    ],
                    "redirectURL": "", "headersSize": -1, "bodySize": .int(exchange.answer.utf8.count),
                ],
                "cache": [:], "timings": ["send": 0, "wait": 1, "receive": 0],
            ]
            return String(decoding: try entry.serialized(), as: UTF8.self)
        }
        return #"{"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": ["#
            + "\n" + entries.joined(separator: ",\n") + "\n]}}\n"
    }

    static func post(_ query: String, name: String? = nil, variables: JSONValue? = nil, answer: String) -> Exchange {
        var body: [String: JSONValue] = ["query": .string(query)]
        if let name { body["operationName"] = .string(name) }
        if let variables { body["variables"] = variables }
        return Exchange(body: .object(body), answer: answer)
    }

    static let heroQuery = "query HeroName { hero { __typename name ... on Droid { primaryFunction } } }"

    /// A session with an exchange true to the schema, drifted ones (the same drift twice), an
    /// invalid operation, Apollo's persisted queries, and an exchange that isn't GraphQL.
    static var session: [Exchange] {
        let humanQuery = "query Human($id: ID!) { human(id: $id) { name homePlanet } }"
        let hash = SHA256.hex(heroQuery.utf8)
        let persisted: JSONValue = ["persistedQuery": ["version": 1, "sha256Hash": .string(hash)]]
        return [
            post(
                heroQuery,
                answer: #"{"data":{"hero":{"__typename":"Droid","name":"R2-D2","primaryFunction":"Astromech"}}}"#),
            post(
                humanQuery, variables: ["id": "1000"],
                answer: #"{"data":{"human":{"name":null,"homePlanet":7,"mass":77}}}"#),
            post(
                humanQuery, variables: ["id": "1001"],
                answer: #"{"data":{"human":{"name":null,"homePlanet":"Tatooine","mass":75}}}"#),
            post(heroQuery, answer: #"{"data":{"hero":{"__typename":"Human"}}}"#),
            post("{ hero { nam } }", answer: #"{"errors":[{"message":"Cannot query field"}]}"#),
            // Apollo's persisted query: the hash alone, refused; then with its text; then alone.
            Exchange(
                body: ["extensions": persisted],
                answer: #"{"errors":[{"message":"PersistedQueryNotFound"}]}"#),
            Exchange(
                body: ["query": .string(heroQuery), "extensions": persisted],
                answer: #"{"data":{"hero":{"__typename":"Droid","name":"C-3PO","primaryFunction":"Protocol"}}}"#),
            Exchange(
                body: ["extensions": persisted],
                answer: #"{"data":{"hero":{"__typename":"Droid","name":"C-3PO","primaryFunction":4}}}"#),
            Exchange(
                body: ["extensions": ["persistedQuery": ["version": 1, "sha256Hash": "00ff"]]],
                answer: #"{"data":{"hero":null}}"#),
            Exchange(method: "GET", url: "http://api.example.com/health", answer: #"{"ok":true}"#),
        ]
    }

    @Test func eachExchangeIsValidatedAndItsDataCheckedAgainstItsSelection() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphqls", Self.schema)
        try folder.write("session.har", try Self.har(Self.session))
        let result = try await Command.run(
            ["check", "--graphql", schema.path, "--cassette", "session.har", "--coverage"], in: folder.url)
        #expect(result.status == 1, "\(result.error)")
        let expected: [String] = [
            "note: not checked: 1 exchange that isn't GraphQL",
            "session.har:3: error: Human: /data/human/mass: `mass` is in the answer, but the operation doesn't "
                + "select it on `Human` (2 times; also at session.har:4)",
            "session.har:3: error: Human: /data/human/name: null, but `String!` is non-null (2 times; also at "
                + "session.har:4)",
            "session.har:3: error: Human: /data/human/homePlanet: String cannot represent value: 7",
            "session.har:5: error: HeroName: /data/hero/name: the operation selects `name` on `Human`, but the "
                + "answer lacks it",
            #"session.har:6: error: anonymous operation: Cannot query field "nam" on type "Character". "#
                + #"Did you mean "name"? (line 1, column 10)"#,
            "session.har:9: error: HeroName: /data/hero/primaryFunction: String cannot represent value: 4",
            "session.har:10: warning: anonymous operation: the persisted query's text isn't in an earlier "
                + "exchange, so its answer isn't checked; record the exchange that sent it too",
            "checked 8 GraphQL exchanges against schema.graphqls: 8 errors, 1 warning",
            "coverage: 2 of 3 root fields",
            "  never seen: Mutation.rename",
            "",
        ]
        #expect(result.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) == expected)
    }

    @Test func theReportIsJSONOrSARIFWithTheOperationOnEachFinding() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphqls", Self.schema)
        try folder.write("session.har", try Self.har(Array(Self.session.prefix(4))))
        let json = try await Command.run(
            ["check", "--graphql", schema.path, "--cassette", "session.har", "--format", "json"], in: folder.url)
        #expect(json.status == 1)
        let report = try JSONValue(parsing: Data(json.output.utf8))
        guard case .array(let findings)? = report["findings"] else {
            Issue.record("no findings in \(json.output)")
            return
        }
        let summaries = findings.map { finding -> String in
            ["rule", "operation", "pointer", "count"].map { finding[$0]?.description ?? "-" }.joined(separator: " ")
        }
        #expect(
            summaries == [
                #""unselected-field" "Human" "/data/human/mass" 2"#, #""schema" "Human" "/data/human/name" 2"#,
                #""schema" "Human" "/data/human/homePlanet" 1"#, #""missing-field" "HeroName" "/data/hero/name" 1"#,
            ])
        let examples: JSONValue = [
            ["file": "session.har", "line": 3, "entry": 1], ["file": "session.har", "line": 4, "entry": 2],
        ]
        #expect(findings.first?["examples"] == examples)
        #expect(
            report["coverage"]
                == ["rootFields": ["exercised": 2, "declared": 3, "neverSeen": ["Mutation.rename"]]])
        let sarif = try await Command.run(
            ["check", "--graphql", schema.path, "--cassette", "session.har", "--format", "sarif"], in: folder.url)
        let log = try JSONValue(parsing: Data(sarif.output.utf8))
        guard case .array(let runs)? = log["runs"], case .array(let rules)? = runs.first?["tool"]?["driver"]?["rules"],
            case .array(let results)? = runs.first?["results"]
        else {
            Issue.record("not a SARIF log: \(sarif.output)")
            return
        }
        let ruleIDs = rules.compactMap { $0["id"]?.stringValue }
        #expect(
            ruleIDs == [
                "invalid-operation", "schema", "unselected-field", "missing-field", "malformed-answer",
                "unknown-persisted-query",
            ])
        let resultRules = results.compactMap { $0["ruleId"]?.stringValue }
        #expect(resultRules == ["unselected-field", "schema", "schema", "missing-field"])
        #expect(results.first?["properties"]?["operation"]?.stringValue == "Human")
    }

    @Test func aSessionTrueToTheSchemaPassesAndStubsAreCheckedByTheirTypes() async throws {
        let folder = try TemporaryFolder()
        let schema = try folder.write("schema.graphqls", Self.schema)
        try folder.write("session.har", try Self.har([Self.session[0], Self.session[9]]))
        let clean = try await Command.run(
            ["check", "--graphql", schema.path, "--cassette", "session.har"], in: folder.url)
        #expect(clean.status == 0)
        #expect(
            clean.output
                == "note: not checked: 1 exchange that isn't GraphQL\n"
                + "checked 1 GraphQL exchange against schema.graphqls: 0 errors, 0 warnings\n")
        try folder.write(
            "stubs.json",
            """
            {"stubs": [
              {"request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "HeroName"}},
               "response": {"json": {"data": {"hero": {"__typename": "Droid", "name": "R2-D2"}}}}},
              {"request": {"method": "POST", "path": "/graphql", "graphql": {"operationName": "Human"}},
               "response": {"json": {"data": {"human": {"name": 4, "height": 1.72}}}}},
              {"request": {"graphql": {"operationName": "Outage"}},
               "response": {"status": 500, "json": {"message": "sent as written"}}},
              {"request": {"method": "GET", "path": "/pets"}, "response": {"openapi": {"operation": "listPets"}}},
              {"request": {"graphql": {"operationName": "Flaky"}},
               "response": {"sequence": [{"json": {"data": {"hero": null}}}, {"json": "ok"}]}}
            ]}
            """)
        let stubs = try await Command.run(["check", "--graphql", schema.path, "--stubs", "stubs.json"], in: folder.url)
        #expect(stubs.status == 1)
        #expect(
            stubs.output.split(separator: "\n") == [
                "stubs.json:4: error: Human: response.json.data.human.height: `Human` has no field `height`; write "
                    + "values under field names (a request's alias finds its field's value).",
                "stubs.json:4: error: Human: response.json.data.human.name: String cannot represent value: 4.",
                // A sequence's answers are checked; one with a status of its own is sent as
                // written, and an OpenAPI stub is another contract's.
                "stubs.json:9: error: Flaky: response.sequence[1].json: an answer is an object: `{data: {…}}`, with "
                    + "`errors: […]` if it has any.",
                "checked 0 GraphQL exchanges and 3 stubs against schema.graphqls: 3 errors, 0 warnings",
            ])
    }

    @Test func mistakesHaveTheirStatuses() async throws {
        let both = try await Command.run(["check", "--openapi", "api.json", "--graphql", "schema.graphqls"])
        #expect(both.status == 64)
        #expect(
            both.error
                == "request-mocker: check takes one contract at a time: --openapi FILE or --graphql SCHEMA; run it "
                + "twice\n")
        let missing = try await Command.run(["check", "--graphql", "/nonexistent/schema.graphqls"])
        #expect(missing.status == 66)
        let folder = try TemporaryFolder()
        let broken = try folder.write("schema.graphqls", "type Query { hero: Hero }")
        let invalid = try await Command.run(["check", "--graphql", broken.path])
        #expect(invalid.status == 65)
        #expect(invalid.error.contains("schema.graphqls:1:20"), "\(invalid.error)")
    }
}
