import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

@Suite("Streamed responses through MockServer", .timeLimit(.minutes(3)), .hangGuard)
struct StreamingServerTests {
    static let events: MockResponse = .events(
        [
            ServerSentEvent(event: "token", data: "Hel", id: "1"),
            ServerSentEvent(event: "token", data: "lo", id: "2"),
            ServerSentEvent(event: "done", data: "[DONE]", id: "3"),
        ], interval: .milliseconds(150))

    @Test("curl -N gets the events in order, chunked, with the event-stream headers")
    func curlReadsEvents() async throws {
        let registry = MockRegistry()
        registry.register(.get("/v1/chat"), respond: Self.events)
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.curl([
                "-N", "--include", base.appendingPathComponent("v1/chat").absoluteString,
            ])
            #expect(result.status == 0)
            let text = result.output.replacingOccurrences(of: "\r\n", with: "\n")
            let parts = text.components(separatedBy: "\n\n")
            #expect(
                parts.first?.components(separatedBy: "\n").sorted() == [
                    "Cache-Control: no-cache", "Content-Type: text/event-stream", "HTTP/1.1 200 OK",
                    "Transfer-Encoding: chunked",
                ])
            #expect(
                parts.dropFirst().joined(separator: "\n\n")
                    == "event: token\nid: 1\ndata: Hel\n\nevent: token\nid: 2\ndata: lo\n\n"
                    + "event: done\nid: 3\ndata: [DONE]\n\n")
        }
    }

    @Test("Python reading line by line sees the events in order, each no sooner than its time")
    func pythonReadsEventsAsTheyCome() async throws {
        let registry = MockRegistry()
        registry.register(.get("/v1/chat"), respond: Self.events)
        try await withServer(registry) { _, base in
            let script = """
                import http.client, sys, time
                connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=25)
                # Timed from the request: the server can't send event k sooner than k intervals
                # after it, however late this reads.
                started = time.monotonic()
                connection.request("GET", "/v1/chat", headers={"Accept": "text/event-stream"})
                response = connection.getresponse()
                arrivals = []
                while True:
                    line = response.readline()
                    if not line:
                        break
                    if line.startswith(b"data: "):
                        arrivals.append((line[6:].strip().decode(), time.monotonic()))
                print(response.status, [name for name, _ in arrivals])
                print(all(at - started >= 0.15 * index for index, (_, at) in enumerate(arrivals)), len(arrivals))
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)])
            #expect(result.output == "200 ['Hel', 'lo', '[DONE]']\nTrue 3\n", "\(result.error)")
        }
    }

    @Test("an HTTP/1.0 client gets the stream unframed, ended by the connection closing")
    func http10IsCloseDelimited() async throws {
        let registry = MockRegistry()
        registry.register(.get("/feed"), respond: .stream([.text("a\n"), .text("b\n", after: .milliseconds(50))]))
        try await withServer(registry) { _, base in
            let script = """
                import socket, sys
                client = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=25)
                client.sendall(b"GET /feed HTTP/1.0\\r\\nHost: x\\r\\n\\r\\n")
                received = b""
                while True:
                    piece = client.recv(65536)
                    if not piece:
                        break
                    received += piece
                head, _, body = received.partition(b"\\r\\n\\r\\n")
                lines = head.decode().split("\\r\\n")
                print(lines[0], sorted(lines[1:]), repr(body))
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)])
            #expect(
                result.output
                    == "HTTP/1.1 200 OK ['Connection: close', 'Content-Type: application/octet-stream'] b'a\\nb\\n'\n",
                "\(result.error)")
        }
    }

    /// A fixed list's pieces are taken on the connection's own thread as they fall due, with no
    /// task feeding them: on a loaded machine every thread of Swift's cooperative pool may wait
    /// for tens of seconds on FoundationNetworking's one queue (seen in CI), and the stream must
    /// not wait with them. The witness: every thread of the pool is parked while a client reads
    /// the stream on this test's own thread.
    @Test("a fixed stream arrives, each piece at its time, while every cooperative thread is busy", .ownThread)
    func fixedStreamWithoutTheCooperativePool() async throws {
        let registry = MockRegistry()
        registry.register(
            .get("/feed"),
            respond: .stream([
                // A negative pause is none: it can't make the pieces after it come sooner.
                .text("a\n", after: .seconds(-10)), .text("b\n", after: .milliseconds(200)),
                .text("c\n", after: .milliseconds(200)),
            ]))
        try await withServer(registry) { _, base in
            let port = UInt16(base.port ?? 0)
            let width = ProcessInfo.processInfo.activeProcessorCount
            let (parked, release) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
            for _ in 0..<width {
                Task.detached {
                    parked.signal()
                    release.wait()
                }
            }
            // Waited for on this test's own thread; bounded, as the pool may first finish other
            // tests' work.
            let started = (0..<width).filter { _ in parked.wait(timeout: .now() + 60) == .success }.count
            let reply = Result { try BlockingClient.exchange(port: port, "GET /feed HTTP/1.0\r\nHost: x\r\n\r\n") }
            for _ in 0..<width { release.signal() }
            #expect(started == width)
            let received = try reply.get()
            let text = String(decoding: received.bytes, as: UTF8.self)
            #expect(received.closed)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(text.hasSuffix("\r\n\r\na\nb\nc\n"))
            // When the read that brought each piece's byte ended: none sooner than its time.
            func arrival(of piece: Unicode.Scalar) -> Double? {
                guard let offset = received.bytes.lastIndex(of: UInt8(ascii: piece)) else { return nil }
                return received.arrivals.last { $0.offset <= offset }?.seconds
            }
            #expect((arrival(of: "b") ?? 0) >= 0.2)
            #expect((arrival(of: "c") ?? 0) >= 0.4)
        }
    }

    @Test("a client that leaves in the middle stops the stream, and its connection ends")
    func clientLeavesInTheMiddle() async throws {
        let registry = MockRegistry()
        let produced = LockedState(0)
        // Set when the producer's loop has ended: only the stream's termination ends it.
        let producerEnded = LockedState(false)
        registry.register(
            .get("/endless"),
            respond: .stream(contentType: "text/plain") { _, _, continuation in
                let ticking = Task {
                    while !Task.isCancelled {
                        let count = produced.withLock { value -> Int in
                            value += 1
                            return value
                        }
                        continuation.yield(.text("tick \(count)\n"))
                        try? await Task.sleep(for: .milliseconds(20))
                    }
                    producerEnded.withLock { $0 = true }
                    continuation.finish()
                }
                continuation.onTermination = { _ in ticking.cancel() }
            })
        try await withServer(registry) { server, base in
            let script = """
                import http.client, sys
                connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=60)
                connection.request("GET", "/endless")
                response = connection.getresponse()
                print(response.readline().decode().strip(), response.readline().decode().strip())
                connection.sock.close()
                """
            // Bounds for a loaded machine, where the producer's task waited for a thread of the
            // cooperative pool longer than a first 25 s bound (CI's loaded run): each read waits
            // at most 60 s, the client at most 150 s.
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)], timeout: .seconds(150))
            #expect(result.output == "tick 1 tick 2\n", "\(result.error)")
            // Both while the server still runs: the client's leaving, not `stop()`, ends them.
            try await waitUntil(waitingFor: "the connection of the client that left to close") {
                server.connectionCount == 0
            }
            // The producer's loop ends only when the stream is terminated: nothing more is produced.
            try await waitUntil(waitingFor: "the stream's producer to be stopped") { producerEnded.withLock { $0 } }
        }
    }

    @Test("a server stopped in the middle of a stream leaves the client an incomplete body")
    func serverStopsInTheMiddle() async throws {
        let registry = MockRegistry()
        // An hour: a `stop()` that waited for the next piece would miss its deadline by far.
        registry.register(
            .get("/slow"), respond: .stream([.text("first\n"), .text("never\n", after: .seconds(3_600))]))
        let server = MockServer(registry: registry)
        let base = try server.start()
        defer { server.stop() }
        let folder = try TemporaryFolder()
        let body = folder.url.appendingPathComponent("body")
        // `-N` writes each piece to the file as it comes.
        let curl = BackgroundClient {
            try await ExternalProcess.curl(
                ["-N", "--output", body.path, base.appendingPathComponent("slow").absoluteString],
                timeout: .seconds(120))
        }
        defer { curl.cancel() }
        try await curl.waitUntil(waitingFor: "curl to receive the first piece") {
            (try? Data(contentsOf: body)) == Data("first\n".utf8)
        }
        try await returns(within: 60, "stop() to return") { server.stop() }
        let result = try await curl.result
        // curl: 18 is "transfer closed with outstanding read data remaining".
        #expect(result.status == 18, "\(result.error)")
        #expect(try Data(contentsOf: body) == Data("first\n".utf8))
    }

    @Test("a HEAD request gets the stream's head at once, without waiting for its pauses")
    func head() async throws {
        let registry = MockRegistry()
        // Far longer than curl's --max-time of 20 s: curl succeeds only if the head isn't held.
        registry.register(.head("/feed"), respond: .stream([.text("body", after: .seconds(300))]))
        try await withServer(registry) { _, base in
            let result = try await ExternalProcess.curl(["--head", base.appendingPathComponent("feed").absoluteString])
            #expect(result.status == 0, "\(result.error)")
            #expect(result.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        }
    }
}
