import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite(.timeLimit(.minutes(3)), .hangGuard) struct CommandTests {
    @Test func helpExplainsEveryOption() async throws {
        let result = try await Command.run(["--help"])
        #expect(result.status == 0)
        for option in [
            "USAGE: request-mocker serve [FOLDER...]", "--cassette FILE.har", "--host ADDRESS", "--port PORT",
            "request-mocker name METHOD URL", "--create FOLDER",
            "-h, --help", "Ctrl-C",
        ] {
            #expect(result.output.contains(option), "\(option)")
        }
        #expect(try await Command.run(["serve", "--help"]).output == result.output)
    }

    @Test func everyFlagOfTheUsageIsInTheREADME() async throws {
        let usage = try await Command.run(["--help"]).output
        let flags = Set(
            usage.matches(of: /(?:^|[\s\[,(])(--?[a-zA-Z][a-zA-Z-]*)/.anchorsMatchLineEndings()).map {
                String($0.output.1)
            })
        #expect(flags.isSuperset(of: ["--openapi", "--validate", "--seed", "--base-path", "-d", "-H", "--version"]))
        let readme = try String(contentsOf: Command.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        // A flag counts where it stands whole (`--seed`, not only inside `--seed-file`).
        let missing = flags.filter { flag in
            !readme.ranges(of: flag).contains { range in
                range.upperBound == readme.endIndex
                    || !(readme[range.upperBound].isLetter || readme[range.upperBound].isNumber
                        || readme[range.upperBound] == "-")
            }
        }
        #expect(missing.sorted() == [], "flags of `request-mocker --help` that README.md doesn't mention")
    }

    @Test(arguments: [
        (["serve", "--port", "99999"], "request-mocker: --port 99999 is not a port; give a number from 0 to 65535\n"),
        (["serve", "--port"], "request-mocker: --port needs a value, for example --port 8080\n"),
        (
            ["serve", "--verbose"],
            "request-mocker: unknown option --verbose; the options are --cassette, --stubs, --openapi, --base-path, "
                + "--validate, --dynamic, --seed, --stateful, --data, --state, --graphql, --graphql-path, "
                + "--graphql-mocks, --upstream, --upstream-first, --record, --record-mode, --admin, --admin-token, "
                + "--host and --port\n"
        ),
        (
            ["start"],
            "request-mocker: unknown command \"start\"; the commands are `serve`, `check`, `draft`, `name` and "
                + "`convert` (see `request-mocker --help`)\n"
        ),
        (
            [],
            "request-mocker: missing command; try `request-mocker serve Examples/MockData` or `request-mocker --help`\n"
        ),
    ])
    func badArgumentsGetOneLineAndStatus64(arguments: [String], message: String) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == 64)
        #expect(result.error == message)
        #expect(result.output == "")
    }

    @Test(arguments: [
        (["serve", "Examples/MockData", "nowhere"], "request-mocker: no folder at nowhere\n"),
        (["serve", "/no/such/folder"], "request-mocker: no folder at /no/such/folder\n"),
        (["serve", "--cassette", "/no/such.har"], "request-mocker: no cassette at /no/such.har\n"),
        (["serve", "--", "-odd-name"], "request-mocker: no folder at -odd-name\n"),
        (
            ["name", "POST", "https://a.test/x", "-d", "@/no/such/body"],
            "request-mocker: cannot read the body file /no/such/body\n"
        ),
    ])
    func missingInputsGetStatus66(arguments: [String], message: String) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == 66)
        #expect(result.error == message)
    }

    @Test(arguments: [["--version"], ["serve", "--version"]])
    func theVersionIsTheLibrarys(arguments: [String]) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == 0)
        #expect(result.output == "request-mocker 0.1.0\n")
    }

    @Test func severalFoldersAreLayeredTheFirstWithAFileAnswers() async throws {
        let first = try TemporaryFolder()
        let second = try TemporaryFolder()
        try first.write("GET|-both.json", #""first""#)
        try second.write("GET|-both.json", #""second""#)
        try second.write("GET|-second-only.json", #""only in the second""#)
        let (serving, base) = try await serving([first.url.path, second.url.path])
        let both = try await ExternalProcess.curl([base.absoluteString + "/both"])
        let secondOnly = try await ExternalProcess.curl([base.absoluteString + "/second-only"])
        let missing = try await ExternalProcess.curl(["--include", base.absoluteString + "/missing"])
        #expect(await serving.interrupt() == 0)
        #expect(both.output == #""first""#)
        #expect(secondOnly.output == #""only in the second""#)
        #expect(missing.output.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        // The report names both folders' lookups, in order.
        let notes = missing.output.components(separatedBy: "has none of, in lookup order:")
        #expect(notes.count == 3)
        #expect(
            serving.log.split(separator: "\n").first
                == "Serving \(first.url.path) and \(second.url.path) at \(base) (Ctrl-C to stop)")
    }

    @Test func servesExamplesMockDataByDefaultAndStopsOnCtrlC() async throws {
        let (serving, baseURL) = try await serving([])
        let base = baseURL.absoluteString
        let user = try await ExternalProcess.curl(["--include", base + "/users/1"])
        #expect(user.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(user.output.hasSuffix(#"{"id": 1, "name": "Ada Lovelace", "languages": ["Analytical Engine"]}"# + "\n"))
        let created = try await ExternalProcess.curl([
            "-H", "Content-Type: application/json", "-d", #"{"name": "Ada"}"#, base + "/users",
        ])
        #expect(created.output == #"{"id": 3, "name": "Ada"}"# + "\n")
        let head = try await ExternalProcess.curl(["--head", base + "/users"])
        #expect(head.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let missing = try await ExternalProcess.curl(["--include", base + "/nope"])
        #expect(missing.output.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(await serving.interrupt() == 0)
        let lines = serving.log.split(separator: "\n").map(String.init)
        #expect(lines.first == "Serving Examples/MockData at \(base) (Ctrl-C to stop)")
        #expect(
            lines.contains {
                $0.hasPrefix("GET /users/1 -> 200 from file ") && $0.hasSuffix("ms)")
                    && $0.contains("GET|-users-1.http")
            })
        #expect(lines.contains { $0.hasPrefix("POST /users -> 201 from file ") })
        #expect(lines.contains { $0.hasPrefix("HEAD /users -> 200 from file ") && $0.contains("GET|-users.json") })
        #expect(lines.contains { $0.hasPrefix("GET /nope -> 404 unmatched") })
        #expect(lines.contains { $0.hasSuffix("has none of, in lookup order: GET|-nope.http, GET|-nope.json") })
        #expect(lines.last == "Stopped.")
    }

    @Test func servesACassetteRecordedAgainstAnotherHost() async throws {
        let cassette = try #require(
            Bundle.module.url(forResource: "other-host", withExtension: "har", subdirectory: "Fixtures"))
        let (serving, baseURL) = try await serving(["--cassette=\(cassette.path)"])
        let base = baseURL.absoluteString
        let first = try await ExternalProcess.curl([base + "/v1/items?page=2"])
        #expect(first.output == #"{"items":["c","d"],"p":2}"#)
        // The last recording keeps answering, as a server should.
        let again = try await ExternalProcess.curl([base + "/v1/items?page=2"])
        #expect(again.output == first.output)
        let other = try await ExternalProcess.curl(["--include", base + "/v1/items?page=3"])
        #expect(other.output.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(other.output.contains("query"))
        #expect(await serving.interrupt() == 0)
        #expect(serving.log.contains("GET /v1/items?page=2 -> 200 from cassette other-host.har, entry 0"))
    }
}
