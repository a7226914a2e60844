import Foundation
import RequestMockerTestSupport
import Testing

/// `request-mocker name` prints the names MockDataNaming.md's worked examples give, and
/// `--create` writes a file a folder then serves.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct NameCommandTests {
    @Test(arguments: try MockDataNamingExample.all())
    func printsTheNamesOfEveryWorkedExample(_ row: MockDataNamingExample) async throws {
        var arguments = ["name", row.method, "http://example.com" + row.target]
        for header in row.headers { arguments += ["-H", header] }
        if let body = row.body { arguments += ["-d", body] }
        if row.allowsWildcards { arguments.append("--wildcards") }
        for name in row.headersInName { arguments += ["--header-in-name", name] }
        let result = try await Command.run(arguments)
        #expect(result.status == 0, "\(result.error)")
        let files: [String] = row.names.flatMap { name in [name + ".http", name + ".json"] }
        let expected = files.map { $0 + "\n" }.joined()
        #expect(result.output == expected)
    }

    @Test func createWritesASkeletonUnderTheFirstNameOnce() async throws {
        let folder = try TemporaryFolder()
        let arguments = ["name", "GET", "https://api.test/users?page=2", "--create", folder.url.path]
        let first = try await Command.run(arguments)
        #expect(first.status == 0)
        let file = folder.url.appendingPathComponent("GET|-users?page=2.http")
        #expect(first.error == "created \(file.path)\n")
        #expect(
            try String(contentsOf: file, encoding: .utf8) == "HTTP/1.1 200 OK\nContent-Type: application/json\n\n{}\n")
        let again = try await Command.run(arguments)
        #expect(again.status == 73)
        #expect(again.error == "request-mocker: \(file.path) already exists; edit it, or remove it first\n")
    }

    @Test(arguments: [
        (
            ["name", "GET"],
            "request-mocker: name needs METHOD and URL, for example: "
                + "request-mocker name GET 'https://api.test/users?page=2'\n"
        ),
        (
            ["name", "GET", "/users"],
            "request-mocker: \"/users\" is not an http(s) URL; write it whole, such as "
                + "'https://api.test/users?page=2' (quote it for the shell)\n"
        ),
        (
            ["name", "GET", "https://a.test/", "-H", "nocolon"],
            "request-mocker: -H \"nocolon\" is not a header; "
                + "write -H 'Name: value'\n"
        ),
        (
            ["name", "GET", "https://a.test/", "--nope"],
            "request-mocker: unknown option --nope for name; the options "
                + "are -d, -H, --wildcards, --header-in-name and --create\n"
        ),
    ])
    func badArgumentsExit64(_ arguments: [String], _ message: String) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == 64)
        #expect(result.error == message)
        #expect(result.output == "")
    }
}
