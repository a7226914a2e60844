import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `request-mocker draft`: a contract written from recordings (HAR cassettes, YAHTTPVCR tapes,
/// mock-data folders), the same bytes every run, valid by an OpenAPI validator no one here
/// wrote, and passing `check` against the recordings it came from.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct DraftCommandTests {
    /// A folder with `traffic.har` holding ``DraftCorpus``'s exchanges.
    static func recordings() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try TrafficConversion.writeHAR(
            DraftCorpus.interactions, to: folder.url.appendingPathComponent("traffic.har"), redaction: .default)
        return folder
    }

    @Test func aDraftIsValidChecksCleanAndIsTheSameEveryRun() async throws {
        let folder = try Self.recordings()
        for name in ["openapi.yaml", "openapi.json"] {
            let first = try await Command.run(["draft", "--cassette", "traffic.har", "-o", name], in: folder.url)
            #expect(first.status == 0, "\(first.error)")
            #expect(
                first.output == "drafted 10 operations on 9 paths from 16 exchanges into \(name)\n"
                    + "  note: status 999 can't be a response's key in OpenAPI: drafted as the operation's default "
                    + "response\n")
            let written = try Data(contentsOf: folder.url.appendingPathComponent(name))
            let again = try await Command.run(
                ["draft", "--cassette", "traffic.har", "-o", "again-" + name], in: folder.url)
            #expect(again.status == 0)
            #expect(try Data(contentsOf: folder.url.appendingPathComponent("again-" + name)) == written)

            try await Tool.openapiSpecValidator.require()
            let validator = try await ExternalProcess.run(
                "python3", ["-m", "openapi_spec_validator", name], in: folder.url, timeout: .seconds(60))
            #expect(validator.status == 0, "\(validator.output)\(validator.error)")
            #expect(validator.output.contains("OK"), "\(validator.output)")

            let check = try await Command.run(
                ["check", "--openapi", name, "--cassette", "traffic.har"], in: folder.url)
            #expect(check.status == 0, "\(check.output)")
            #expect(
                check.output == "checked 16 mocks and the contract's examples against \(name): 0 errors, 0 warnings\n")
        }
    }

    @Test func foldersAndCassettesMixAndWhatIsLeftOutIsSaid() async throws {
        let folder = try Self.recordings()
        try folder.write("Mocks/GET|-health.json", #"{"ok": true}"#)
        try folder.write("Mocks/GET|-search?*.http", "HTTP/1.1 200 OK\r\n\r\n")
        let result = try await Command.run(
            ["draft", "Mocks", "--cassette", "traffic.har", "-o", "drafts/openapi.yaml"], in: folder.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.split(separator: "\n") == [
                "drafted 11 operations on 10 paths from 17 exchanges into drafts/openapi.yaml",
                "  note: status 999 can't be a response's key in OpenAPI: drafted as the operation's default response",
                "  left out Mocks/GET|-search?*.http: a wildcard name answers many requests, and a cassette holds "
                    + "one each",
            ])
        let yaml = try String(contentsOf: folder.url.appendingPathComponent("drafts/openapi.yaml"), encoding: .utf8)
        #expect(yaml.contains("\n  /health:\n    get:\n"))
    }

    @Test func theBasePathIsStrippedAndTrafficOutsideItIsNamed() async throws {
        let folder = try Self.recordings()
        let outside = try await Command.run(
            ["draft", "--cassette", "traffic.har", "--base-path", "/v9", "-o", "openapi.yaml"], in: folder.url)
        #expect(outside.status == 65)
        #expect(
            outside.error
                == "request-mocker: nothing to draft from 16 exchanges: 16 requests were outside the base path /v9 "
                + "and left out (for example /users/1, /users/2, /users/me)\n")
        #expect(!FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("openapi.yaml").path))
    }

    @Test func anExistingContractGainsWhatTheTrafficShowsAndSaysEachAddition() async throws {
        let folder = try Self.recordings()
        try folder.write(
            "openapi.yaml",
            """
            openapi: 3.0.3
            info: {title: Users, version: "1"}
            servers: [{url: "https://api.example"}]
            paths:
              /users/{id}:
                parameters: [{name: id, in: path, required: true, schema: {type: string}}]
                get:
                  responses:
                    "200":
                      description: a user
                      content:
                        application/json:
                          schema: {type: object, properties: {id: {type: integer}}}
            """)
        // GET /users/me goes to the contract's /users/{id}: its paths win over new templates, and
        // an existing operation's security is left as it is.
        let result = try await Command.run(
            ["draft", "--cassette", "traffic.har", "--openapi", "openapi.yaml", "-o", "updated.yaml"], in: folder.url)
        #expect(result.status == 0, "\(result.error)")
        #expect(
            result.output.split(separator: "\n") == [
                "updated openapi.yaml from 16 exchanges into updated.yaml: 13 additions",
                "  added property GET /users/{id} 200 application/json /name",
                "  added property GET /users/{id} 200 application/json /tags",
                "  added property GET /users/{id} 200 application/json /manager",
                "  added GET /users/{id} 404",
                "  added DELETE /users/{id}",
                "  added path /events (GET)",
                "  added path /files/{fileId}/checkpoints (GET)",
                "  added path /form (PUT)",
                "  added path /report (GET)",
                "  added path /scores (GET)",
                "  added path /search (GET)",
                "  added path /users (POST)",
                "  added security scheme xApiKey",
                "  note: status 999 can't be a response's key in OpenAPI: drafted as the operation's default response",
            ])
        let check = try await Command.run(
            ["check", "--openapi", "updated.yaml", "--cassette", "traffic.har"], in: folder.url)
        #expect(check.status == 0, "\(check.output)")
        #expect(
            check.output == "checked 16 mocks and the contract's examples against updated.yaml: 0 errors, 0 warnings\n")
        try await Tool.openapiSpecValidator.require()
        let validator = try await ExternalProcess.run(
            "python3", ["-m", "openapi_spec_validator", "updated.yaml"], in: folder.url, timeout: .seconds(60))
        #expect(validator.status == 0, "\(validator.output)\(validator.error)")
        let yaml = try String(contentsOf: folder.url.appendingPathComponent("updated.yaml"), encoding: .utf8)
        #expect(yaml.hasPrefix("openapi: \"3.0.3\"\n"))
        #expect(!yaml.contains("- \"null\""), "a 3.0 contract gets nullable, not type lists")
    }

    @Test func mistakesAreUsageErrorsOrMissingInputs() async throws {
        let folder = try TemporaryFolder()
        let cases: [(arguments: [String], status: Int32, error: String)] = [
            (
                ["draft", "--cassette", "t.har"], 64,
                "draft needs where to write: `request-mocker draft --cassette traffic.har -o openapi.yaml`"
            ),
            (
                ["draft", "-o", "openapi.yaml"], 64,
                "draft needs recordings: mock-data FOLDERs or --cassette FILE (HAR or YAHTTPVCR), for example "
                    + "`request-mocker draft --cassette traffic.har -o openapi.yaml`"
            ),
            (
                ["draft", "--cassette", "t.har", "-o", "openapi.txt"], 64,
                #"-o "openapi.txt": the draft is written as YAML or JSON by the extension; name it something.yaml "#
                    + "or something.json"
            ),
            (
                ["draft", "--cassette", "t.har", "--base-path", "v2", "-o", "a.yaml"], 64,
                #"--base-path "v2" must start with /, such as /v2"#
            ),
            (
                ["draft", "--upstream", "http://localhost", "-o", "a.yaml"], 64,
                "unknown option --upstream; draft takes FOLDERs, --cassette, --base-path, --openapi and -o"
            ),
            (["draft", "--cassette", "missing.har", "-o", "a.yaml"], 66, "no cassette at missing.har"),
            (["draft", "Missing", "-o", "a.yaml"], 66, "no folder at Missing"),
        ]
        for (arguments, status, error) in cases {
            let result = try await Command.run(arguments, in: folder.url)
            #expect(result.status == status, "\(arguments)")
            #expect(result.error == "request-mocker: \(error)\n", "\(arguments)")
        }
        try folder.write(
            "empty.har", #"{"log": {"version": "1.2", "creator": {"name": "x", "version": "1"}, "entries": []}}"#)
        let empty = try await Command.run(["draft", "--cassette", "empty.har", "-o", "a.yaml"], in: folder.url)
        #expect(empty.status == 65)
        #expect(empty.error == "request-mocker: nothing to draft: the recordings hold no exchange\n")
    }
}
