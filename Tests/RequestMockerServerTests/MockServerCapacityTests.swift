import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// A server that is full (every connection slot taken, every synchronous block running, an
/// answer not ready in time) answers what it can't take with the right status, and makes room
/// the way it says it does.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockServerCapacityTests {
    /// The limit tests' registry, plus `/stuck-sync`: a synchronous block that counts itself in
    /// `started`, then waits for `release`.
    static func registry(stuckUntil release: DispatchSemaphore, started: LockedState<Int>? = nil) -> MockRegistry {
        let registry = MockServerLimitTests.registry()
        registry.register(
            .get("/stuck-sync"),
            respond: { _, _ in
                started?.withLock { $0 += 1 }
                release.wait()
                return .string("late")
            })
        return registry
    }

    /// A server of `slots` connections, with `holders` started on it, and `body` run once
    /// `waitUntilFull` returned (it waits, bounded, until every holder holds its slot as the test
    /// needs). No timeout of the server's, and no holder's own, ends a holder within a test's
    /// time: only making room, or `stop()` after `body`, does.
    static func withFullServer(
        slots: Int, holding holders: [[String]], pause: Double = 0,
        waitUntilFull: (MockServer) async throws -> Void,
        _ body: (MockServer, UInt16) async throws -> Void
    ) async throws {
        var configuration = MockServerLimitTests.configuration(
            head: .seconds(600), request: .seconds(600), idle: .seconds(600))
        configuration.maximumConnections = slots
        configuration.responseTimeout = .seconds(600)
        try await withServer(MockServerLimitTests.registry(), configuration: configuration) { server, base in
            let port = UInt16(base.port ?? 0)
            let tasks = holders.map { parts in
                Task { try await RawClient.exchange(port: port, parts, pause: pause, timeout: 600) }
            }
            try await waitUntilFull(server)
            try await body(server, port)
            server.stop()
            for task in tasks { _ = try await task.valueOrCancel }
        }
    }

    @Test func whenEveryConnectionIsBusyAnsweringANewOneGets503() async throws {
        let slow = "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"
        try await Self.withFullServer(slots: 2, holding: [[slow], [slow]]) { server in
            // A request in the journal is being answered: its connection no longer gives way.
            _ = try await server.registry.waitForRequests(count: 2, matching: .get("/slow"), timeout: .seconds(60))
        } _: { _, port in
            let reply = try await RawClient.exchange(port: port, [MockServerLimitTests.good])
            #expect(reply.response.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"), "\(reply.response.prefix(80))")
        }
    }

    // Before: idle and trickling connections held every slot, and new clients got 503.
    @Test func whenFullTheLongestIdleConnectionMakesRoom() async throws {
        try await Self.withFullServer(slots: 3, holding: [[], [], []]) { server in
            try await waitUntil(waitingFor: "the three holders to wait for a request") {
                server.connectionsGivingWay.idle == 3
            }
        } _: { server, port in
            // Only a holder closed to make room lets these in: no holder leaves on its own.
            for _ in 0..<5 {
                let reply = try await RawClient.exchange(port: port, [MockServerLimitTests.good])
                #expect(reply.response.hasSuffix("\r\n\r\nfine"), "\(reply.response.prefix(80))")
            }
            #expect(server.connectionCount <= 3)
        }
    }

    @Test func whenFullAClientTricklingAHeadMakesRoom() async throws {
        // A byte a second: the head is still arriving, unfinished, when the test ends.
        let trickle = "GET /fine HTTP/1.1\r\nX-Slow: 1234567890\r\n".map(String.init)
        try await Self.withFullServer(slots: 2, holding: [trickle, trickle], pause: 1) { server in
            try await waitUntil(waitingFor: "both holders to be sending a head") {
                server.connectionsGivingWay.readingHead == 2
            }
        } _: { _, port in
            for _ in 0..<3 {
                let reply = try await RawClient.exchange(port: port, [MockServerLimitTests.good])
                #expect(reply.response.hasSuffix("\r\n\r\nfine"), "\(reply.response.prefix(80))")
            }
        }
    }

    // Before: a block that never returned kept its thread and slot after its client left, and
    // later clients got 503.
    @Test func aClientThatLeavesAStuckBlockFreesItsSlot() async throws {
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0..<4 { release.signal() } }
        let registry = Self.registry(stuckUntil: release)
        registry.register(.get("/stuck-async")) { _, _ in
            try await Task.sleep(for: .seconds(3_600))
            return .string("late")
        }
        var configuration = MockServerLimitTests.configuration()
        configuration.maximumConnections = 2
        try await withServer(registry, configuration: configuration) { server, base in
            let port = UInt16(base.port ?? 0)
            for (index, path) in ["/stuck-sync", "/stuck-async", "/stuck-sync", "/stuck-async"].enumerated() {
                // The client gives up after 0.3 s and closes, while its block is still stuck.
                let left = try await RawClient.exchange(
                    port: port, ["GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n"], timeout: 0.3)
                #expect(left.response == "")
                // The server saw it leave, gave up the answer, and the connection's slot is free.
                let ended = try await registry.waitForCompletedRequests(count: index + 1, timeout: .seconds(60))
                #expect(ended.last?.completion == .cancelled, "\(path)")
                try await waitUntil(waitingFor: "the connection of the client that left to close") {
                    server.connectionCount == 0
                }
            }
            let next = try await RawClient.exchange(port: port, [MockServerLimitTests.good])
            #expect(next.response.hasSuffix("\r\n\r\nfine"), "\(next.response.prefix(80))")
        }
    }

    @Test func synchronousBlocksPastTheCapGet503() async throws {
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0...MockServer.maximumRunningBlocks { release.signal() } }
        let started = LockedState(0)
        let registry = Self.registry(stuckUntil: release, started: started)
        let folder = try TemporaryFolder()
        let go = folder.url.appendingPathComponent("go")
        // Holds as many stuck requests as the cap allows, then, once the test says every one is
        // running (the file `go` exists), asks once more.
        let script = """
            import os, socket, sys, time
            port, held, go = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
            request = b"GET /stuck-sync HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"
            holders = []
            for _ in range(held):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(request)
                holders.append(s)
            waited = 0
            while not os.path.exists(go) and waited < 120:
                time.sleep(0.02)
                waited += 0.02
            extra = socket.create_connection(("127.0.0.1", port))
            extra.sendall(b"GET /stuck-sync HTTP/1.1\\r\\nHost: x\\r\\nConnection: close\\r\\n\\r\\n")
            extra.settimeout(60)
            print(extra.recv(200).decode("latin-1").split("\\r\\n")[0])
            """
        try await withServer(registry) { _, base in
            let client = BackgroundClient {
                try await ExternalProcess.python(
                    script, [String(base.port ?? 0), String(MockServer.maximumRunningBlocks), go.path],
                    timeout: .seconds(150))
            }
            defer { client.cancel() }
            try await client.waitUntil(waitingFor: "every held request's block to run") {
                started.withLock { $0 } == MockServer.maximumRunningBlocks
            }
            _ = FileManager.default.createFile(atPath: go.path, contents: nil)
            let result = try await client.result
            #expect(result.output == "HTTP/1.1 503 Service Unavailable\n", "\(result.error)")
            #expect(started.withLock { $0 } == MockServer.maximumRunningBlocks, "the extra block never ran")
        }
    }

    @Test func anAnswerPastTheResponseTimeoutIs504() async throws {
        let release = DispatchSemaphore(value: 0)
        defer { release.signal() }
        let registry = Self.registry(stuckUntil: release)
        var configuration = MockServerLimitTests.configuration()
        configuration.responseTimeout = .milliseconds(300)
        try await withServer(registry, configuration: configuration) { _, base in
            let port = UInt16(base.port ?? 0)
            // Neither answers in the test's time: `/slow` sleeps 600 s, `/stuck-sync` waits for
            // `release`.
            for path in ["/slow", "/stuck-sync"] {
                let reply = try await RawClient.exchange(port: port, ["GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n"])
                #expect(reply.response.hasPrefix("HTTP/1.1 504 Gateway Timeout\r\n"), "\(reply.response.prefix(80))")
                #expect(reply.response.contains("Connection: close\r\n"))
                #expect(
                    reply.response.hasSuffix(
                        "\r\n\r\nthe answer was not ready within the server's response timeout of 0.3 seconds\n"))
                #expect(reply.ending == "closed")
            }
        }
    }
}
