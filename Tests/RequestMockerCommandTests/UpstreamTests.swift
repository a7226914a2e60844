import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `request-mocker serve --upstream` (and `--record`), against a Python server standing in for
/// the real one.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct UpstreamTests {
    @Test func whatNothingAnswersGoesToTheUpstreamWithItsMethodHeadersAndBody() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        try folder.write("GET|-users-1.json", #"{"from": "folder"}"#)
        let (serving, base) = try await serving([folder.url.path, "--upstream", upstream.url.absoluteString + "/"])
        let mocked = try await ExternalProcess.curl([base.absoluteString + "/users/1"])
        let forwarded = try await ExternalProcess.curl(["--include", base.absoluteString + "/users/7"])
        let echo = try await ExternalProcess.curl([
            "-X", "PUT", "-H", "X-Custom: kept", "-H", "Content-Type: text/plain", "--data-binary", "the body",
            base.absoluteString + "/echo/here?q=swift&page=2",
        ])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        #expect(mocked.output == #"{"from": "folder"}"#)
        #expect(forwarded.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(forwarded.output.contains("\r\nX-Upstream: yes\r\n"))
        #expect(forwarded.output.contains("\r\nContent-Length: 27\r\n"))
        #expect(forwarded.output.hasSuffix(#"{"id": 7, "name": "User 7"}"#))
        let sent = try JSONValue(parsing: Data(echo.output.utf8))
        #expect(sent["method"] == "PUT")
        #expect(sent["path"] == "/echo/here")
        #expect(sent["query"] == "q=swift&page=2")
        #expect(sent["body"] == "the body")
        #expect(sent["headers"]?["x-custom"] == "kept")
        #expect(sent["headers"]?["host"] == .string("127.0.0.1:\(upstream.url.port ?? 0)"))
        let lines = serving.log.split(separator: "\n").map(String.init)
        #expect(
            lines.first
                == "Serving \(folder.url.path) and upstream \(upstream.url.absoluteString)/ at \(base) (Ctrl-C to stop)"
        )
        #expect(lines.contains { $0.hasPrefix("GET /users/1 -> 200 from file ") })
        #expect(lines.contains { $0.hasPrefix("GET /users/7 -> 200 from upstream (") && $0.hasSuffix(" ms)") })
        #expect(lines.contains { $0.hasPrefix("PUT /echo/here?q=swift&page=2 -> 200 from upstream (") }, "\(lines)")
    }

    @Test func aPassThroughStubSendsItsRequestsUpstreamPastABroaderStub() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        let stubs = try folder.write(
            "stubs.json",
            #"""
            {"stubs": [
              {"request": {"path": "/users/7"}, "response": {"passThrough": true}},
              {"request": {"path": "/users/*"}, "response": {"json": {"from": "stub"}}}
            ]}
            """#)
        let (serving, base) = try await serving(["--stubs", stubs.path, "--upstream", upstream.url.absoluteString])
        let mocked = try await ExternalProcess.curl([base.absoluteString + "/users/1"])
        let passed = try await ExternalProcess.curl([base.absoluteString + "/users/7"])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        #expect(mocked.output == #"{"from":"stub"}"#)
        #expect(passed.output == #"{"id": 7, "name": "User 7"}"#)
        let lines = serving.log.split(separator: "\n").map(String.init)
        #expect(
            lines.contains {
                $0.hasPrefix("GET /users/7 -> 200 from upstream, passed through by ANY /users/7 (stubs.json:2) (")
            },
            "\(lines)")
    }

    @Test func withoutAnUpstreamAPassThroughStubSendsNothingToTheNetwork() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        let stubs = try folder.write(
            "stubs.json", #"{"stubs": [{"request": {"path": "/users/7"}, "response": {"passThrough": true}}]}"#)
        let (serving, base) = try await serving(["--stubs", stubs.path])
        // The Host names a real server, which a proxy would reach.
        let host = "127.0.0.1:\(upstream.url.port ?? 0)"
        let refused = try await ExternalProcess.curl([
            "--include", "-H", "Host: \(host)", base.absoluteString + "/users/7",
        ])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        #expect(refused.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"), "\(refused.output)")
        #expect(
            refused.output.hasSuffix(
                "\r\n\r\npassing GET http://\(host)/users/7 through needs an upstream: this server sends nothing to "
                    + "the network without one; start it with --upstream URL (MockServer.Configuration.upstream)\n"))
    }

    @Test func theBodyIsRelayedAsItArrives() async throws {
        let upstream = try await Upstream()
        let (serving, base) = try await serving(["--upstream", upstream.url.absoluteString])
        // The upstream sends each line only once the client has acknowledged the one before,
        // straight to the upstream's port: a relay that held a piece back for the next would
        // stall the stream, and after 30 s the upstream would send a never-acknowledged marker.
        let stream = try await ExternalProcess.python(
            """
            import http.client, json, socket, sys
            relay, upstream = int(sys.argv[1]), int(sys.argv[2])
            connection = http.client.HTTPConnection("127.0.0.1", relay, timeout=60)
            connection.request("GET", "/stream")
            response = connection.getresponse()
            lines = []
            try:
                while True:
                    line = response.readline()
                    if not line:
                        break
                    lines.append(line.decode().rstrip("\\n"))
                    if lines[-1].startswith("line "):
                        ack = http.client.HTTPConnection("127.0.0.1", upstream, timeout=60)
                        ack.request("GET", "/ack/" + lines[-1].split()[1])
                        ack.getresponse().read()
                        ack.close()
            except socket.timeout:
                lines.append("a read timed out after 60 s")
            print(json.dumps({"encoding": response.getheader("Transfer-Encoding"), "lines": lines}))
            """, [String(base.port ?? 0), String(upstream.url.port ?? 0)], timeout: .seconds(120))
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        let result = try JSONValue(parsing: Data(stream.output.utf8))
        #expect(result["encoding"] == "chunked")
        #expect(result["lines"] == ["line 0", "line 1", "line 2"], "\(stream.output) \(stream.error)")
        #expect(!stream.output.contains("never-acknowledged"), "a piece was held back: \(stream.output)")
    }

    @Test func aBodyThatBreaksOffReachesTheClientIncomplete() async throws {
        let upstream = try await Upstream()
        let (serving, base) = try await serving(["--upstream", upstream.url.absoluteString])
        let broken = try await ExternalProcess.curl(["--include", base.absoluteString + "/broken"])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        // curl: "Transferred a partial file".
        #expect(broken.status == 18)
        #expect(broken.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(broken.output.contains("\r\nContent-Length: 100\r\n"))
        #expect(broken.output.hasSuffix("\r\n\r\n0123456789"))
        #expect(serving.log.contains("GET /broken -> 200, body broke off: "))
    }

    @Test func anUpstreamThatCantBeReachedIs502WithTheReason() async throws {
        // A port bound and never listened on, held for the whole test: connecting is refused.
        let refusing = try RefusingPort()
        defer { refusing.close() }
        let url = try #require(URL(string: "http://127.0.0.1:\(refusing.port)"))
        let (serving, base) = try await serving(["--upstream", url.absoluteString])
        let answer = try await ExternalProcess.curl(["--include", base.absoluteString + "/users/7"])
        #expect(await serving.interrupt() == 0)
        #expect(answer.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        let reason =
            "passing GET \(url.absoluteString)/users/7 through to the network failed: could not connect to "
            + "127.0.0.1:\(url.port ?? 0): connection refused"
        #expect(answer.output.hasSuffix("\r\n\r\n" + reason + "\n"))
        #expect(serving.log.contains("GET /users/7 -> 502 from upstream: \(reason) ("))
    }

    @Test func recordedExchangesAnswerTheSameOffline() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        let recordInto = folder.url.appendingPathComponent("recorded").path
        let (recording, base) = try await serving([recordInto, "--upstream", upstream.url.absoluteString, "--record"])
        let live = try await ExternalProcess.curl(["--include", base.absoluteString + "/users/7"])
        let secret = try await ExternalProcess.curl([
            "--include", "-H", "Authorization: Bearer s3cret", "-d", "user=ada&password=s3cret",
            base.absoluteString + "/login",
        ])
        let missing = try await ExternalProcess.curl(["--include", base.absoluteString + "/status/404"])
        #expect(await recording.interrupt() == 0)
        await upstream.stop()
        #expect(secret.output.contains("s3cret"), "the client gets the real answer")
        let lines = recording.log.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasSuffix(", recording into \(recordInto) (Ctrl-C to stop)") == true)
        #expect(lines.contains { $0.hasPrefix("GET /users/7 -> 200 from upstream, recorded GET|-users-7.http (") })
        // The password in the body is named by its hash.
        #expect(
            lines.contains {
                $0.range(
                    of: #"^POST /login -> 200 from upstream, recorded POST\|-login\|[0-9a-f]{64}\.http \("#,
                    options: .regularExpression) != nil
            })
        #expect(
            lines.contains { $0.hasPrefix("GET /status/404 -> 404 from upstream, recorded GET|-status-404.http (") })
        let files = try FileManager.default.contentsOfDirectory(atPath: recordInto).sorted()
        #expect(files.count == 3)
        for file in files {
            let text = try String(contentsOfFile: recordInto + "/" + file, encoding: .utf8)
            #expect(!text.contains("s3cret"), "\(file) keeps the secret")
            #expect(!text.lowercased().contains("connection:"), "\(file) keeps a hop-by-hop field")
        }

        let (offline, offlineBase) = try await serving([recordInto])
        let replayed = try await ExternalProcess.curl(["--include", offlineBase.absoluteString + "/users/7"])
        let replayedMissing = try await ExternalProcess.curl(["--include", offlineBase.absoluteString + "/status/404"])
        #expect(await offline.interrupt() == 0)
        #expect(Self.normalized(replayed.output) == Self.normalized(live.output))
        #expect(Self.normalized(replayedMissing.output) == Self.normalized(missing.output))
    }

    @Test func recordingIntoACassetteSavesEachExchange() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        let cassette = folder.url.appendingPathComponent("api.har").path
        // Under a base path: the upstream echoes what it was asked.
        let (recording, base) = try await serving([
            "--cassette", cassette, "--upstream", upstream.url.absoluteString + "/api", "--record",
        ])
        let live = try await ExternalProcess.curl([base.absoluteString + "/users/3?expand=1"])
        #expect(try JSONValue(parsing: Data(live.output.utf8))["path"] == "/api/users/3")
        // Saved once the exchange is complete (just after the client has it), not when the
        // server stops.
        try await waitUntil(60, waitingFor: "\(cassette) to be saved while the server runs") {
            FileManager.default.fileExists(atPath: cassette)
        }
        #expect(await recording.interrupt() == 0)
        await upstream.stop()
        #expect(recording.log.contains("GET /users/3?expand=1 -> 200 from upstream, recorded into \(cassette) ("))
        let har = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: cassette)))
        // Written as the client asked, so the next run matches it whatever the upstream's base path.
        #expect(har["log"]?["entries"]?[0]?["request"]?["url"] == .string(base.absoluteString + "/users/3?expand=1"))

        let (offline, offlineBase) = try await serving(["--cassette", cassette])
        let replayed = try await ExternalProcess.curl([offlineBase.absoluteString + "/users/3?expand=1"])
        #expect(await offline.interrupt() == 0)
        #expect(replayed.output == live.output)
    }

    /// `--record-mode all` forwards every request, repeats included, and records each exchange;
    /// `new` (the default) answers a repeat from what it recorded; `once` records only into a
    /// cassette that isn't there yet.
    @Test func recordModesDecideWhatIsForwardedAndRecorded() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        func record(_ mode: [String], into name: String) async throws -> (log: String, entries: Int) {
            let cassette = folder.url.appendingPathComponent(name).path
            let (recording, base) = try await serving(
                ["--cassette", cassette, "--upstream", upstream.url.absoluteString, "--record"] + mode)
            for _ in 0..<3 { _ = try await ExternalProcess.curl([base.absoluteString + "/users/3"]) }
            #expect(await recording.interrupt() == 0)
            guard FileManager.default.fileExists(atPath: cassette) else { return (recording.log, 0) }
            let har = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: cassette)))
            guard case .array(let entries)? = har["log"]?["entries"] else { return (recording.log, -1) }
            return (recording.log, entries.count)
        }
        let all = try await record(["--record-mode", "all"], into: "all.har")
        #expect(all.entries == 3)
        #expect(
            all.log.split(separator: "\n").first?.hasSuffix("(every exchange: nothing is played back) (Ctrl-C to stop)")
                == true)
        #expect(all.log.components(separatedBy: "-> 200 from upstream, recorded into").count == 4)
        // Again: the cassette starts over, and every exchange is recorded again.
        #expect(try await record(["--record-mode", "all"], into: "all.har").entries == 3)

        let new = try await record([], into: "new.har")
        #expect(new.entries == 1)
        #expect(new.log.components(separatedBy: "-> 200 from cassette new.har").count == 3)

        let once = try await record(["--record-mode", "once"], into: "new.har")
        #expect(once.entries == 1)
        #expect(once.log.contains(", not recording (--record-mode once, and "))
        #expect(!once.log.contains("from upstream"))
        await upstream.stop()
    }

    /// Into a folder: `all` forwards even what the folder has a file for, and rewrites the file;
    /// `once` records nothing into a folder that already holds files, which then answer.
    @Test func recordModesIntoAFolder() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        let stale = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nstale"
        try folder.write("Mocks/GET|-users-3.http", stale)
        let mocks = folder.url.appendingPathComponent("Mocks").path
        let (once, onceBase) = try await serving(
            [mocks, "--upstream", upstream.url.absoluteString, "--record", "--record-mode", "once"])
        let answered = try await ExternalProcess.curl([onceBase.absoluteString + "/users/3"])
        #expect(await once.interrupt() == 0)
        #expect(answered.output == "stale")
        #expect(once.log.contains(", not recording (--record-mode once, and \(mocks) is not new)"))

        let (all, allBase) = try await serving(
            [mocks, "--upstream", upstream.url.absoluteString, "--record", "--record-mode", "all"])
        let live = try await ExternalProcess.curl([allBase.absoluteString + "/users/3"])
        #expect(await all.interrupt() == 0)
        await upstream.stop()
        #expect(live.output == #"{"id": 3, "name": "User 3"}"#)
        let rewritten = try String(contentsOfFile: mocks + "/GET|-users-3.http", encoding: .utf8)
        #expect(
            rewritten.hasPrefix("HTTP/1.1 200 OK\n") && rewritten.hasSuffix("\n\n" + #"{"id": 3, "name": "User 3"}"#))
    }

    @Test(arguments: [
        (
            ["serve", "--upstream", "http://localhost:3000", "--record-mode", "all"],
            "request-mocker: --record-mode goes with --record, whose recording it decides\n"
        ),
        (
            [
                "serve", "--upstream", "http://localhost:3000", "--cassette", "a.har", "--record", "--record-mode",
                "some",
            ],
            "request-mocker: --record-mode \"some\" is not a mode; use once, new or all\n"
        ),
        (
            ["serve", "Examples/MockData", "--record"],
            "request-mocker: --record records what the upstream answers, so it needs --upstream URL, "
                + "for example --upstream http://localhost:3000 --record\n"
        ),
        (
            ["serve", "--upstream", "http://localhost:3000", "--record"],
            "request-mocker: --record needs somewhere to record into: a FOLDER (the first one) or --cassette FILE.har\n"
        ),
        (
            ["serve", "--upstream", "ftp://files.test"],
            "request-mocker: --upstream \"ftp://files.test\" is not an http or https URL; give one with a host, "
                + "for example --upstream http://localhost:3000/api\n"
        ),
        (
            ["serve", "--upstream", "http://localhost:3000/api?key=1"],
            "request-mocker: --upstream \"http://localhost:3000/api?key=1\" has a query or fragment, which requests "
                + "can't be appended to; give the scheme, host, port and base path only\n"
        ),
        (
            ["serve", "--upstream"],
            "request-mocker: --upstream needs a value, for example --upstream http://localhost:3000/api\n"
        ),
        (
            ["serve", "--upstream", "http://localhost:3000", "--upstream-first"],
            "request-mocker: --upstream-first sends every request to the upstream and checks it against a "
                + "contract, so it needs --upstream URL and --openapi FILE, for example --openapi api.yaml "
                + "--upstream http://localhost:3000 --upstream-first\n"
        ),
    ])
    func badUpstreamFlagsExit64(arguments: [String], message: String) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == 64)
        #expect(result.error == message)
    }

    /// A response as it compares between runs: the status line, the header lines but `Date` in
    /// name order (the order of different fields carries no meaning, RFC 9110 §5.3), and the body.
    static func normalized(_ response: String) -> String {
        guard let end = response.range(of: "\r\n\r\n") else { return response }
        var lines = response[..<end.lowerBound].components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst()
        let fields = lines.filter { !$0.hasPrefix("Date: ") }.sorted()
        return ([statusLine] + fields).joined(separator: "\r\n") + String(response[end.lowerBound...])
    }
}

/// Fixtures/upstream.py (or another of its servers), running on a free port.
struct Upstream {
    let process: BackgroundProcess
    let url: URL

    init(_ name: String = "upstream") async throws {
        let script = try #require(Bundle.module.url(forResource: name, withExtension: "py", subdirectory: "Fixtures"))
        process = try await BackgroundProcess.python([script.path], ready: #"http://127\.0\.0\.1:\d+(?=\n)"#)
        url = try #require(URL(string: process.announced))
    }

    func stop() async {
        await process.stop()
    }
}

/// A loopback port bound and never listened on, for as long as it is held: a connection to it
/// is refused, and nothing else can take the port meanwhile (a closed port could be reused).
struct RefusingPort {
    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
            let type = Int32(SOCK_STREAM.rawValue)
        #else
            let type = SOCK_STREAM
        #endif
        let descriptor = socket(AF_INET, type, 0)
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0 else {
            let code = errno
            Self.close(descriptor)
            throw Failure(call: bound == 0 ? "getsockname" : "bind", code: code)
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    func close() {
        Self.close(descriptor)
    }

    private static func close(_ descriptor: Int32) {
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #else
            _ = Darwin.close(descriptor)
        #endif
    }

    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }
}
