import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// A server that is full (every connection slot taken, every synchronous block running, an
/// answer not ready in time) answers what it can't take with the right status, and makes room
/// the way it says it does.
@Suite(.timeLimit(.minutes(3))) struct MockServerCapacityTests {
    /// The limit tests' registry, plus `/stuck-sync`: a synchronous block that waits for
    /// `release`.
    static func registry(stuckUntil release: DispatchSemaphore) -> MockRegistry {
        let registry = MockServerLimitTests.registry()
        registry.register(
            .get("/stuck-sync"),
            respond: { _, _ in
                release.wait()
                return .string("late")
            })
        return registry
    }

    /// A server of `slots` connections, with `holders` started on it before `body` runs.
    static func withFullServer(
        slots: Int, holding holders: [[String]], pause: Double = 0,
        _ body: (MockServer, UInt16) async throws -> Void
    ) async throws {
        var configuration = MockServerLimitTests.configuration()
        configuration.maximumConnections = slots
        configuration.requestTimeout = .seconds(10)
        configuration.requestHeadTimeout = .seconds(10)
        configuration.idleTimeout = .seconds(10)
        try await withServer(MockServerLimitTests.registry(), configuration: configuration) { server, base in
            let port = UInt16(base.port ?? 0)
            var tasks: [Task<RawReply, any Error>] = []
            for parts in holders {
                tasks.append(Task { try await RawClient.exchange(port: port, parts, pause: pause, timeout: 8) })
                while server.connectionCount < tasks.count { try await Task.sleep(for: .milliseconds(10)) }
            }
            try await body(server, port)
            server.stop()
            for task in tasks { _ = try await task.value }
        }
    }

    @Test func whenEveryConnectionIsBusyAnsweringANewOneGets503() async throws {
        let slow = "GET /slow HTTP/1.1\r\nHost: x\r\n\r\n"
        try await Self.withFullServer(slots: 2, holding: [[slow], [slow]]) { _, port in
            let reply = try await RawClient.exchange(port: port, [MockServerLimitTests.good])
            #expect(reply.response.hasPrefix("HTTP/1.1 503 Service Unavailable\r\n"))
        }
    }

    // Before: idle and trickling connections held every slot, and new clients got 503.
    @Test func whenFullTheLongestIdleConnectionMakesRoom() async throws {
        try await Self.withFullServer(slots: 3, holding: [[], [], []]) { server, port in
            for _ in 0..<5 {
                let reply = try await RawClient.exchange(port: port, [MockServerLimitTests.good])
                #expect(reply.response.hasSuffix("\r\n\r\nfine"), "\(reply.response.prefix(80))")
            }
            #expect(server.connectionCount <= 3)
        }
    }

    @Test func whenFullAClientTricklingAHeadMakesRoom() async throws {
        let trickle = "GET /fine HTTP/1.1\r\nX-Slow: 1234567890\r\n".map(String.init)
        try await Self.withFullServer(slots: 2, holding: [trickle, trickle], pause: 0.2) { _, port in
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
            for path in ["/stuck-sync", "/stuck-async", "/stuck-sync", "/stuck-async"] {
                // The client gives up after 0.3 s and closes.
                let left = try await RawClient.exchange(
                    port: port, ["GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n"], timeout: 0.3)
                #expect(left.response == "")
            }
            for _ in 0..<50 where server.connectionCount > 0 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(server.connectionCount == 0)
            let next = try await RawClient.exchange(port: port, [MockServerLimitTests.good])
            #expect(next.response.hasSuffix("\r\n\r\nfine"), "\(next.response.prefix(80))")
        }
    }

    @Test func synchronousBlocksPastTheCapGet503() async throws {
        let release = DispatchSemaphore(value: 0)
        defer { for _ in 0...MockServer.maximumRunningBlocks { release.signal() } }
        let registry = Self.registry(stuckUntil: release)
        // Holds as many stuck requests as the cap allows, then asks once more.
        let script = """
            import socket, sys, time
            port, held = int(sys.argv[1]), int(sys.argv[2])
            request = b"GET /stuck-sync HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n"
            holders = []
            for _ in range(held):
                s = socket.create_connection(("127.0.0.1", port))
                s.sendall(request)
                holders.append(s)
            # Time for every held request to reach its block, however loaded the machine is
            # (the whole suite runs in parallel).
            time.sleep(2)
            extra = socket.create_connection(("127.0.0.1", port))
            extra.sendall(request)
            extra.settimeout(10)
            print(extra.recv(200).decode("latin-1").split("\\r\\n")[0])
            """
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.python(
                script, [String(base.port ?? 0), String(MockServer.maximumRunningBlocks)])
            #expect(result.output == "HTTP/1.1 503 Service Unavailable\n", "\(result.error)")
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
