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
///
/// One case at a time: each holds a server, a Python client and a second of waiting, and the
/// seven at once, in the suite's first seconds on two cores, made other tests' three-second
/// request timeouts run out (seen in two of five full runs; none of six serialized).
@Suite(.serialized, .timeLimit(.minutes(3))) struct StopDuringPauseTests {
    /// What the client does once its request is in.
    enum Then: String, Sendable, CustomStringConvertible {
        /// Sends a second, pipelined request, left unread while the server waits.
        case sendsMore = "input"
        /// Closes its sending side and waits for the answer.
        case halfCloses = "half-close"

        var description: String { rawValue }
    }

    /// `Fixtures/stop_client.py`: connects, sends `head`, and 0.3 s later does `then`; reads
    /// until the connection ends or 60 s pass. Prints how it ended and how many bytes came.
    private static func client() throws -> URL {
        try #require(Bundle.module.url(forResource: "stop_client", withExtension: "py", subdirectory: "Fixtures"))
    }

    /// Runs the client against `port`, waits until `arrived` says the request is in and the
    /// client had time to act, then stops the server and returns how long `stop()` took and how
    /// the client's connection ended.
    private static func stopDuringWait(
        port: UInt16, head: String, then: Then, arrived: @escaping @Sendable () -> Bool, stop: () -> Void
    ) async throws -> (stopTook: Duration, client: String) {
        let script = try Self.client()
        let client = Task {
            try await ExternalProcess.python(file: script, [String(port), head, then.rawValue], timeout: .seconds(90))
        }
        let clock = ContinuousClock()
        let patience = clock.now + .seconds(20)
        while !arrived(), clock.now < patience { try await Task.sleep(for: .milliseconds(20)) }
        #expect(arrived(), "the request never reached the server")
        // The client acts 0.3 s after its request; give it time to, and the server to see it.
        try await Task.sleep(for: .milliseconds(800))
        let started = clock.now
        stop()
        let took = started.duration(to: clock.now)
        let result = try await client.value
        #expect(result.status == 0, "\(result.error)")
        return (took, result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    @Test("stop() during a 30 s delay returns within a second", arguments: [Then.sendsMore, .halfCloses])
    func duringADelay(then: Then) async throws {
        let registry = MockRegistry()
        registry.register(.get("/slow"), respond: MockResponse.string("late").delayed(by: .seconds(30)))
        let server = MockServer(registry: registry)
        let port = UInt16(try #require(try server.start().port))
        let (took, client) = try await Self.stopDuringWait(
            port: port, head: "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n", then: then,
            arrived: { registry.journal.count == 1 }, stop: server.stop)
        #expect(took < .seconds(1), "stop() took \(took)")
        #expect(client == "closed 0")
    }

    @Test("stop() during a slowly paced body returns within a second", arguments: [Then.sendsMore, .halfCloses])
    func duringAPacedBody(then: Then) async throws {
        let registry = MockRegistry()
        // 1,000 bytes at 10 a second: 100 s in all.
        registry.register(
            .get("/paced"),
            respond: MockResponse.string(String(repeating: "x", count: 1000)).throttled(bytesPerSecond: 10))
        let server = MockServer(registry: registry)
        let port = UInt16(try #require(try server.start().port))
        let (took, client) = try await Self.stopDuringWait(
            port: port, head: "GET /paced HTTP/1.1\r\nHost: x\r\n\r\n", then: then,
            arrived: { registry.journal.count == 1 }, stop: server.stop)
        #expect(took < .seconds(1), "stop() took \(took)")
        #expect(client.hasPrefix("closed "), "\(client)")
    }

    @Test("stop() during a stall returns within a second, after the client sent more")
    func duringAStall() async throws {
        let registry = MockRegistry()
        registry.register(.get("/stall"), respond: .fault(.stall))
        let server = MockServer(registry: registry)
        let port = UInt16(try #require(try server.start().port))
        let (took, client) = try await Self.stopDuringWait(
            port: port, head: "GET /stall HTTP/1.1\r\nHost: x\r\n\r\n", then: .sendsMore,
            arrived: { registry.journal.count == 1 }, stop: server.stop)
        #expect(took < .seconds(1), "stop() took \(took)")
        #expect(client == "closed 0")
    }

    @Test("stop() during a 30 s scripted pause returns within a second", arguments: [Then.sendsMore, .halfCloses])
    func duringAScriptedPause(then: Then) async throws {
        let server = ScriptedServer(
            script: try .init(
                rules: [
                    .init(
                        "^GET /hang ",
                        [.text("HTTP/1.1 200 OK\r\nContent-Length: 9\r\n\r\nhalf"), .pause(.seconds(30))])
                ],
                framing: .delimiter("\r\n\r\n")))
        let port = try server.start()
        let (took, client) = try await Self.stopDuringWait(
            port: port, head: "GET /hang HTTP/1.1\r\n\r\n", then: then,
            arrived: {
                server.transcript.contains {
                    guard case .input(let text) = $0.kind else { return false }
                    return text.hasPrefix("GET /hang ")
                }
            }, stop: server.stop)
        #expect(took < .seconds(1), "stop() took \(took)")
        #expect(client == "closed 42")
    }
}
