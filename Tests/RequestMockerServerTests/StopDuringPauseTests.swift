import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// `stop()` ends every wait a server holds a connection in: a delay, a paced body, a scripted
/// pause and a stall. These pin what Linux and Apple platforms must share. The waits that matter
/// are the ones after the client sent more (a pipelined request) or half-closed: from then on
/// the socket reads as ready at once, and the wait can't simply sleep in `poll` until something
/// happens (on Darwin, asking `poll` for no events left `stop()` waiting out the whole pause).
/// Every wait here is an hour or more, so a `stop()` that waited it out would miss its deadline
/// by far.
///
/// One case at a time: each holds a server and a Python client, and the seven at once, in the
/// suite's first seconds on two cores, made other tests' three-second request timeouts run out
/// (seen in two of five full runs; none of six serialized).
@Suite(.serialized, .timeLimit(.minutes(3)), .hangGuard) struct StopDuringPauseTests {
    /// What the client does once its request is in.
    enum Then: String, Sendable, CustomStringConvertible {
        /// Sends a second, pipelined request, left unread while the server waits.
        case sendsMore = "input"
        /// Closes its sending side and waits for the answer.
        case halfCloses = "half-close"

        var description: String { rawValue }
    }

    /// `Fixtures/stop_client.py`: connects, sends `head`, and 0.3 s later does `then`, then
    /// creates a marker file; reads until the connection ends or 120 s pass. Prints how it ended
    /// and how many bytes came.
    private static func client() throws -> URL {
        try #require(Bundle.module.url(forResource: "stop_client", withExtension: "py", subdirectory: "Fixtures"))
    }

    /// Runs the client against `port`, waits until `arrived` says the request is in and the
    /// client's marker says it acted, then stops the server, which must return within a minute
    /// (far less than the wait it is in), and returns how the client's connection ended.
    private static func stopDuringWait(
        port: UInt16, head: String, then: Then, arrived: @escaping @Sendable () -> Bool,
        stop: @escaping @Sendable () -> Void
    ) async throws -> String {
        let script = try Self.client()
        let folder = try TemporaryFolder()
        let marker = folder.url.appendingPathComponent("acted")
        let client = BackgroundClient {
            try await ExternalProcess.python(
                file: script, [String(port), head, then.rawValue, marker.path], timeout: .seconds(170))
        }
        defer { client.cancel() }
        try await client.waitUntil(waitingFor: "the request to reach the server") { arrived() }
        try await client.waitUntil(waitingFor: "the client to do what it does next (\(then))") {
            FileManager.default.fileExists(atPath: marker.path)
        }
        try await returns(within: 60, "stop() to return") { stop() }
        let result = try await client.result
        #expect(result.status == 0, "\(result.error)")
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("stop() during an hour's delay returns without waiting it out", arguments: [Then.sendsMore, .halfCloses])
    func duringADelay(then: Then) async throws {
        let registry = MockRegistry()
        registry.register(.get("/slow"), respond: MockResponse.string("late").delayed(by: .seconds(3_600)))
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        let port = UInt16(try #require(base.port))
        let client = try await Self.stopDuringWait(
            port: port, head: "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n", then: then,
            arrived: { registry.journal.count == 1 }, stop: server.stop)
        #expect(client == "closed 0")
    }

    @Test("stop() during a slowly paced body returns without waiting it out", arguments: [Then.sendsMore, .halfCloses])
    func duringAPacedBody(then: Then) async throws {
        let registry = MockRegistry()
        // 100,000 bytes at 10 a second: almost three hours in all.
        registry.register(
            .get("/paced"),
            respond: MockResponse.string(String(repeating: "x", count: 100_000)).throttled(bytesPerSecond: 10))
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        let port = UInt16(try #require(base.port))
        let client = try await Self.stopDuringWait(
            port: port, head: "GET /paced HTTP/1.1\r\nHost: x\r\n\r\n", then: then,
            arrived: { registry.journal.count == 1 }, stop: server.stop)
        #expect(client.hasPrefix("closed "), "\(client)")
    }

    @Test("stop() during a stall returns, after the client sent more")
    func duringAStall() async throws {
        let registry = MockRegistry()
        registry.register(.get("/stall"), respond: .fault(.stall))
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        let port = UInt16(try #require(base.port))
        let client = try await Self.stopDuringWait(
            port: port, head: "GET /stall HTTP/1.1\r\nHost: x\r\n\r\n", then: .sendsMore,
            arrived: { registry.journal.count == 1 }, stop: server.stop)
        #expect(client == "closed 0")
    }

    @Test(
        "stop() during an hour's scripted pause returns without waiting it out",
        arguments: [Then.sendsMore, .halfCloses])
    func duringAScriptedPause(then: Then) async throws {
        let server = ScriptedServer(
            script: try .init(
                rules: [
                    .init(
                        "^GET /hang ",
                        [.text("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhalf"), .pause(.seconds(3_600))])
                ],
                framing: .delimiter("\r\n\r\n")))
        let port = try server.start()
        defer { server.stop() }
        let client = try await Self.stopDuringWait(
            port: port, head: "GET /hang HTTP/1.1\r\n\r\n", then: then,
            arrived: {
                server.transcript.contains {
                    guard case .input(let text) = $0.kind else { return false }
                    return text.hasPrefix("GET /hang ")
                }
            }, stop: server.stop)
        #expect(client == "closed 42")
    }
}
