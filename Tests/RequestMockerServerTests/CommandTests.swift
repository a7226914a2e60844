import Foundation
import RequestMocker
import Testing

/// The `request-mocker` executable, built beside this test bundle.
enum Command {
    static var executable: URL {
        Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("request-mocker")
    }

    /// The package root (where `Examples/MockData` is).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func run(_ arguments: [String]) async throws -> ProcessResult {
        try await ExternalProcess.run(executable.path, arguments)
    }
}

/// A process left running while a test talks to it: `request-mocker serve`, or a Python server.
final class BackgroundProcess: Sendable {
    private let process: Process
    private let output: URL
    private let ended: Task<Int32, Never>
    /// The first match of the ready pattern in what the process printed.
    let announced: String

    /// Starts the process and waits until its output matches `ready` (a regular expression).
    init(_ executable: URL, _ arguments: [String], in directory: URL? = nil, ready: String) async throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("rm-background-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = process.standardOutput
        let stream = AsyncStream<Int32> { continuation in
            process.terminationHandler = { continuation.yield($0.terminationStatus); continuation.finish() }
        }
        try process.run()
        self.process = process
        ended = Task { await stream.first { _ in true } ?? -1 }
        var found: String?
        for _ in 0..<500 where found == nil {
            let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            if let range = text.range(of: ready, options: .regularExpression) {
                found = String(text[range])
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        guard let found else {
            process.terminate()
            let printed = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            throw RawClientFailed(message: "\(executable.lastPathComponent) never printed \(ready): \(printed)")
        }
        announced = found
    }

    /// Everything printed so far.
    var log: String {
        String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
    }

    /// Sends Ctrl-C and waits for the exit status.
    func interrupt() async -> Int32 {
        process.interrupt()
        return await ended.value
    }

    /// Sends SIGTERM and waits until the process has ended.
    func stop() async {
        process.terminate()
        _ = await ended.value
    }

    deinit {
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: output)
    }
}

/// `request-mocker serve … --port 0`, run from the package root.
func serving(_ arguments: [String]) async throws -> (BackgroundProcess, URL) {
    let process = try await BackgroundProcess(
        Command.executable, ["serve"] + arguments + ["--port", "0"], in: Command.packageRoot, ready: #"http://127\.0\.0\.1:\d+"#
    )
    return (process, try #require(URL(string: process.announced)))
}

@Suite struct CommandTests {
    @Test func helpExplainsEveryOption() async throws {
        let result = try await Command.run(["--help"])
        #expect(result.status == 0)
        for option in ["USAGE: request-mocker serve [FOLDER]", "--cassette FILE.har", "--host ADDRESS", "--port PORT", "-h, --help", "Ctrl-C"] {
            #expect(result.output.contains(option), "\(option)")
        }
        #expect(try await Command.run(["serve", "--help"]).output == result.output)
    }

    @Test(arguments: [
        (["serve", "--port", "99999"], "request-mocker: --port 99999 is not a port; give a number from 0 to 65535\n"),
        (["serve", "--port"], "request-mocker: --port needs a value, for example --port 8080\n"),
        (["serve", "--verbose"], "request-mocker: unknown option --verbose; the options are --cassette, --host and --port\n"),
        (["serve", "a", "b"], "request-mocker: one FOLDER only, but got a and b\n"),
        (["start"], "request-mocker: unknown command \"start\"; the command is `serve` (see `request-mocker --help`)\n"),
        ([], "request-mocker: missing command; try `request-mocker serve Examples/MockData` or `request-mocker --help`\n"),
        (["serve", "/no/such/folder"], "request-mocker: no folder at /no/such/folder\n"),
    ])
    func badArgumentsGetOneLineAndStatus64(arguments: [String], message: String) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == 64)
        #expect(result.error == message)
        #expect(result.output == "")
    }

    @Test func servesExamplesMockDataByDefaultAndStopsOnCtrlC() async throws {
        let (serving, baseURL) = try await serving([])
        let base = baseURL.absoluteString
        let user = try await ExternalProcess.curl(["--include", base + "/users/1"])
        #expect(user.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(user.output.hasSuffix(#"{"id": 1, "name": "Ada Lovelace", "languages": ["Analytical Engine"]}"# + "\n"))
        let created = try await ExternalProcess.curl(["-H", "Content-Type: application/json", "-d", #"{"name": "Ada"}"#, base + "/users"])
        #expect(created.output == #"{"id": 3, "name": "Ada"}"# + "\n")
        let head = try await ExternalProcess.curl(["--head", base + "/users"])
        #expect(head.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        let missing = try await ExternalProcess.curl(["--include", base + "/nope"])
        #expect(missing.output.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(await serving.interrupt() == 0)
        let lines = serving.log.split(separator: "\n").map(String.init)
        #expect(lines.first == "Serving Examples/MockData at \(base) (Ctrl-C to stop)")
        #expect(lines.contains { $0.hasPrefix("GET /users/1 -> 200 from file ") && $0.hasSuffix("ms)") && $0.contains("GET|-users-1.http") })
        #expect(lines.contains { $0.hasPrefix("POST /users -> 201 from file ") })
        #expect(lines.contains { $0.hasPrefix("HEAD /users -> 200 from file ") && $0.contains("GET|-users.json") })
        #expect(lines.contains { $0.hasPrefix("GET /nope -> 404 unmatched") })
        #expect(lines.contains { $0.hasSuffix("has none of, in lookup order: GET|-nope.http, GET|-nope.json") })
        #expect(lines.last == "Stopped.")
    }

    @Test func servesACassetteRecordedAgainstAnotherHost() async throws {
        let cassette = try #require(Bundle.module.url(forResource: "other-host", withExtension: "har", subdirectory: "Fixtures"))
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
