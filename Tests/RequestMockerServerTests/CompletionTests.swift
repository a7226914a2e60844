import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The journal records how each answer ended, and a test can wait for that rather than for the
/// request's arrival: through `MockURLProtocol` and through `MockServer`.
@Suite("Waiting for answers to end", .timeLimit(.minutes(3)), .hangGuard)
struct CompletionTests {
    @Test("fire and forget through the URL protocol: delivered, failed and cancelled answers are recorded and awaited")
    func throughTheURLProtocol() async throws {
        let registry = MockRegistry()
        let completions = LockedState<[String]>([])
        // The answer is held until the test has seen the request without a completion.
        let answer = Gate()
        defer { answer.open() }
        registry.register(
            .get("https://api.test/profile").onCompletion { entry in
                completions.withLock { $0.append("\(entry.request.url.path) \(String(describing: entry.completion))") }
            }
        ) { _, _ in
            await answer.wait()
            return .json(["name": "Ada"])
        }
        registry.register(.get("https://api.test/offline"), respond: .error(URLError(.notConnectedToInternet)))
        registry.register(
            .get("https://api.test/slow"), respond: MockResponse.string("late").delayed(by: .seconds(3_600)))
        let session = registry.makeSession()

        // Code under test that fires the request and handles the answer on its own.
        let received = LockedState<Data?>(nil)
        session.dataTask(with: url("https://api.test/profile")) { data, _, _ in received.withLock { $0 = data } }
            .resume()
        _ = try await registry.waitForRequests(count: 1, matching: .get("/profile"), timeout: .seconds(60))
        #expect(registry.journal.first?.completion == nil)
        answer.open()
        let done = try await registry.waitForCompletedRequests(matching: .get("/profile"), timeout: .seconds(60))
        #expect(done.map(\.completion) == [.delivered])
        #expect(try #require(done.first?.completionDate) >= (try #require(done.first?.date)))
        #expect(completions.withLock { $0 } == ["/profile Optional(RequestMocker.JournalEntry.Completion.delivered)"])
        // The completion handler runs on the session's queue right after the hand-over.
        try await waitUntil(waitingFor: "the completion handler") { received.withLock { $0 } != nil }
        #expect(received.withLock { $0 } == Data(#"{"name":"Ada"}"#.utf8))

        _ = try? await session.data(from: url("https://api.test/offline"))
        let task = session.dataTask(with: url("https://api.test/slow"))
        task.resume()
        _ = try await registry.waitForRequests(count: 1, matching: .get("/slow"), timeout: .seconds(60))
        task.cancel()
        let ended = try await registry.waitForCompletedRequests(count: 3, timeout: .seconds(60))
        #expect(ended.map(\.request.url.path) == ["/profile", "/offline", "/slow"])
        #expect(ended[1].completion == .failed(URLError(.notConnectedToInternet).reason))
        #expect(ended[2].completion == .cancelled)
    }

    @Test("a wait that nothing ends times out, saying how many ended")
    func timesOut() async throws {
        let registry = MockRegistry()
        // An hour: nothing but the cancel at the end ends it.
        registry.register(.get("/slow"), respond: MockResponse.string("late").delayed(by: .seconds(3_600)))
        let task = registry.makeSession().dataTask(with: url("https://api.test/slow"))
        task.resume()
        defer { task.cancel() }
        _ = try await registry.waitForRequests(count: 1, timeout: .seconds(60))
        let filter = RequestFilter.get("/slow")
        let error = await #expect(throws: RequestMockerError.self) {
            _ = try await registry.waitForCompletedRequests(matching: filter, timeout: .milliseconds(300))
        }
        #expect(
            error?.description
                == "timed out waiting for the answers to 1 request matching \(filter) to end; "
                + "0 ended, of 1 that arrived")
    }

    @Test("through the server: written, refused and abandoned answers")
    func throughTheServer() async throws {
        let registry = MockRegistry()
        registry.register(.get("/hello"), respond: .string("hi"))
        registry.register(.get("/slow"), respond: MockResponse.string("late").delayed(by: .seconds(3_600)))
        registry.register(
            .get("/cut"), respond: MockResponse.string(String(repeating: "x", count: 100)).truncated(afterBytes: 5))
        try await withServer(registry) { _, base in
            #expect(try await ExternalProcess.curl([base.absoluteString + "/hello"]).output == "hi")
            // A body cut short fails, as through the URL protocol.
            #expect(try await ExternalProcess.curl([base.absoluteString + "/cut"]).output == "xxxxx")
            _ = try await ExternalProcess.curl([base.absoluteString + "/missing"])
            // A client that resets the connection during the delay: once the request is in the
            // journal (the test then creates the file `go`). (One that only closes its side is
            // taken for a half-close, which still reads the answer, so it waits.)
            let folder = try TemporaryFolder()
            let go = folder.url.appendingPathComponent("go")
            let client = BackgroundClient {
                try await ExternalProcess.python(
                    """
                    import os, socket, struct, sys, time
                    s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
                    s.sendall(b"GET /slow HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n")
                    waited = 0
                    while not os.path.exists(sys.argv[2]) and waited < 120:
                        time.sleep(0.02)
                        waited += 0.02
                    s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                    s.close()
                    """, [String(base.port ?? 0), go.path], timeout: .seconds(150))
            }
            defer { client.cancel() }
            try await client.waitUntil(waitingFor: "the request for /slow to arrive") {
                registry.journal.contains { $0.request.url.path == "/slow" }
            }
            _ = FileManager.default.createFile(atPath: go.path, contents: nil)
            let reset = try await client.result
            #expect(reset.status == 0, "\(reset.error)")
            let ended = try await registry.waitForCompletedRequests(count: 4, timeout: .seconds(60))
            #expect(ended.map(\.request.url.path) == ["/hello", "/cut", "/missing", "/slow"])
            #expect(ended[0].completion == .delivered)
            #expect(
                ended[1].completion
                    == .failed("the body broke off: cut short after 5 of 100 bytes (truncated(afterBytes:))"))
            guard case .failed(let reason) = ended[2].completion else {
                Issue.record("\(String(describing: ended[2].completion))")
                return
            }
            #expect(reason.hasPrefix("404: no filter matched GET "))
            #expect(ended[3].completion == .cancelled)
        }
    }
}
