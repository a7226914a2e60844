import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("MockURLProtocol delivery", .timeLimit(.minutes(3)))
struct MockURLProtocolTests {
    let registry = MockRegistry()

    @Test(
        "http and https URLs are claimed in any letter case; other schemes are left to other protocols",
        arguments: [
            ("http://a.test/x", true), ("HTTPS://a.test", true), ("Http://a.test", true),
            ("ftp://a.test", false), ("httpx://a.test", false), ("https//a.test", false), ("file:///tmp/x", false),
            ("h://a.test", false),
        ])
    func claimsHTTPSchemes(url: String, claimed: Bool) throws {
        let request = URLRequest(url: try #require(URL(string: url)))
        #expect((registry.protocolClass as? URLProtocol.Type)?.canInit(with: request) == claimed)
    }

    @Test("completion-handler data tasks")
    func completionHandler() async throws {
        registry.register(.get("/c"), respond: .string("done", status: 201))
        let session = registry.makeSession()
        let (data, status) = await withCheckedContinuation { continuation in
            session.dataTask(with: url("/c")) { data, response, _ in
                continuation.resume(returning: (data, response?.status))
            }.resume()
        }
        #expect(data == Data("done".utf8))
        #expect(status == 201)
    }

    @Test("async data(for:) and data(from:)")
    func asyncData() async throws {
        registry.register(.get("/a"), respond: .string("async"))
        let session = registry.makeSession()
        #expect(try await session.data(from: url("/a")).0 == Data("async".utf8))
        #expect(try await session.data(for: URLRequest(url: url("/a"))).0 == Data("async".utf8))
    }

    @Test("upload(for:from:) is answered; on Linux its body is hidden and the journal says so")
    func upload() async throws {
        registry.register(.post("/upload"), respond: .status(202))
        registry.register(.put("/upload").jsonBody(["a": 1]), respond: .status(200))
        let session = registry.makeSession()
        var request = URLRequest(url: url("/upload"))
        request.httpMethod = "POST"
        let (_, response) = try await session.upload(for: request, from: Data("payload".utf8))
        #expect(response.status == 202)
        let captured = try #require(registry.journal.last?.request)
        #if os(Linux)
            // Measured: FoundationNetworking hides an upload task's body from URL protocols.
            #expect(captured.body == nil)
            #expect(captured.bodyHiddenByUploadTask)
            request.httpMethod = "PUT"
            await #expect {
                _ = try await session.upload(for: request, from: Data(#"{"a":1}"#.utf8))
            } throws: { error in
                guard case .unmatched(let report) = error as? RequestMockerError else { return false }
                return report.notes.first?.contains("upload task") == true
                    && report.candidates.first?.reason.contains("body is hidden") == true
            }
        #else
            // Unmeasured on Apple platforms (reports say the body is hidden there too): either
            // the protocol sees the body, or the request says it was hidden.
            #expect(
                captured.body == Data("payload".utf8) || (captured.body == nil && captured.bodyHiddenByUploadTask))
        #endif
    }

    @Test("the body comes from httpBody or from httpBodyStream")
    func bodySources() async throws {
        registry.register(.post("/echo")) { request, _ in .data(request.body ?? Data("none".utf8)) }
        let session = registry.makeSession()
        var request = URLRequest(url: url("/echo"))
        request.httpMethod = "POST"
        request.httpBody = Data("from httpBody".utf8)
        #expect(try await session.data(for: request).0 == Data("from httpBody".utf8))
        let large = Data((0..<1_048_576).map { UInt8(truncatingIfNeeded: $0) })
        request.httpBody = nil
        request.httpBodyStream = InputStream(data: large)
        #expect(try await session.data(for: request).0 == large)
    }

    @Test("delegate-based data tasks get the response, the whole body, and completion")
    func delegate() async throws {
        registry.register(.get("/d"), respond: .json(["via": "delegate"]).delayed(by: .milliseconds(20)))
        let recorder = RecordingDelegate()
        let session = registry.makeSession(delegate: recorder)
        let task = session.dataTask(with: url("/d"))
        task.resume()
        let (response, data, error) = await recorder.completion(of: task)
        #expect(error == nil)
        #expect(response?.status == 200)
        #expect(data == Data(#"{"via":"delegate"}"#.utf8))
        #expect(recorder.responseCount == 1)
    }

    @Test("cancelling during a delay fails with -999 and delivers nothing afterwards")
    func cancellation() async throws {
        registry.register(.get("/slow"), respond: .string("late").delayed(by: .milliseconds(300)))
        let recorder = RecordingDelegate()
        let session = registry.makeSession(delegate: recorder)
        let task = session.dataTask(with: url("/slow"))
        task.resume()
        try await Task.sleep(for: .milliseconds(50))
        task.cancel()
        let (response, _, error) = await recorder.completion(of: task)
        #expect(isURLError(try #require(error), .cancelled))
        #expect(response == nil)
        // Past the delay: nothing arrives late, and the process is alive to serve the next one.
        try await Task.sleep(for: .milliseconds(400))
        #expect(recorder.responseCount == 0)
        registry.register(.get("/next"), respond: .string("next"))
        #expect(try await registry.makeSession().data(from: url("/next")).0 == Data("next".utf8))
    }

    @Test("cancelling the Swift task around data(for:) cancels an async block's work")
    func swiftTaskCancellation() async throws {
        let started = AsyncStream<Void>.makeStream()
        registry.register(.get("/wait")) { _, _ in
            started.continuation.yield()
            try await Task.sleep(for: .seconds(30))
            return .string("never")
        }
        let session = registry.makeSession()
        let call = Task { try await session.data(from: url("/wait")) }
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        call.cancel()
        await #expect { _ = try await call.value } throws: { isURLError($0, .cancelled) }
    }

    @Test("suspend then resume delivers the delayed answer, decided once")
    func suspendResume() async throws {
        let handle = registry.register(
            .get("/s"),
            respond: .sequence([.string("resumed"), .string("second turn")]).delayed(by: .milliseconds(100)))
        let recorder = RecordingDelegate()
        let session = registry.makeSession(delegate: recorder)
        let task = session.dataTask(with: url("/s"))
        task.resume()
        try await Task.sleep(for: .milliseconds(20))
        task.suspend()
        try await Task.sleep(for: .milliseconds(200))
        #expect(recorder.responseCount == 0)
        task.resume()
        let (_, data, error) = await recorder.completion(of: task)
        #expect(error == nil)
        #expect(data == Data("resumed".utf8))
        // The registry saw one request: resuming reran its work, not its matching.
        #expect(handle.requestCount == 1)
        #expect(registry.journal.count == 1)
    }

    @Test("suspend then resume after a followed redirect asks for the next hop once")
    func suspendResumeAfterRedirect() async throws {
        let hop = registry.register(
            .get("/new"),
            respond: .sequence([.string("first turn"), .string("second turn")]).delayed(by: .milliseconds(300)))
        registry.register(.get("/old"), respond: MockResponse.redirect(to: "/new").delayed(by: .milliseconds(50)))
        let recorder = RecordingDelegate()
        let task = registry.makeSession(delegate: recorder).dataTask(with: url("/old"))
        task.resume()
        // The redirect was followed: the next hop is in its delay.
        _ = try await registry.waitForRequests(count: 2, timeout: .seconds(10))
        task.suspend()
        try await Task.sleep(for: .milliseconds(100))
        task.resume()
        let (_, data, error) = await recorder.completion(of: task)
        #expect(error == nil)
        #expect(data == Data("first turn".utf8))
        #expect(hop.requestCount == 1)
        #expect(registry.journal.map(\.request.url.path) == ["/old", "/new"])
        let ended = try await registry.waitForCompletedRequests(count: 2, timeout: .seconds(10))
        #expect(ended.map(\.completion) == [.delivered, .delivered])
    }

    @Test("a cancelled task neither follows the redirect a block returns after the cancel nor keeps its cookie")
    func cancelledTaskFollowsNoRedirect() async throws {
        let started = AsyncStream<Void>.makeStream()
        let returned = LockedState(false)
        registry.register(.get("/stubborn")) { _, _ in
            started.continuation.yield()
            // Work that doesn't notice the cancel: it returns its redirect anyway.
            await withCheckedContinuation { continuation in
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.3) { continuation.resume() }
            }
            returned.withLock { $0 = true }
            return .redirect(to: "/next", headers: ["Set-Cookie": "late=1; Path=/"])
        }
        registry.register(.get("/next"), respond: .string("next"))
        let session = registry.makeSession()
        let task = session.dataTask(with: url("/stubborn"))
        task.resume()
        var iterator = started.stream.makeAsyncIterator()
        await iterator.next()
        task.cancel()
        let clock = ContinuousClock()
        let patience = clock.now + .seconds(10)
        while !returned.withLock({ $0 }), clock.now < patience { try await Task.sleep(for: .milliseconds(10)) }
        try await Task.sleep(for: .milliseconds(200))
        #expect(returned.withLock { $0 })
        #expect(registry.journal.map(\.request.url.path) == ["/stubborn"])
        #expect(registry.journal.map(\.completion) == [.cancelled])
        #expect(session.configuration.httpCookieStorage?.cookies?.map(\.name) == [])
    }

    @Test("a delay too long for any clock is capped, and the timeout answers")
    func hugeDelay() async throws {
        registry.register(
            .get("/never"), respond: .string("never").delayed(by: .seconds(Int64.max)).delayed(by: .seconds(Int64.max)))
        let request = URLRequest(url: url("/never"), timeoutInterval: 0.2)
        await #expect { _ = try await registry.makeSession().data(for: request) } throws: { isURLError($0, .timedOut) }
    }

    @Test("a 401 with WWW-Authenticate completes instead of hanging")
    func unauthorized() async throws {
        registry.register(
            .get("/basic"),
            respond: .string("denied", status: 401, headers: ["WWW-Authenticate": #"Basic realm="api""#]))
        registry.register(
            .get("/bearer"),
            respond: .string("denied", status: 401, headers: ["WWW-Authenticate": #"Bearer realm="api""#]))
        let session = registry.makeSession()
        let (data, response) = try await withDeadline(10) { try await session.data(from: url("/basic")) }
        #expect(response.status == 401)
        #expect(data == Data("denied".utf8))
        #if canImport(FoundationNetworking)
            // Pinned Linux behaviour: the Basic challenge is renamed so FoundationNetworking doesn't hang.
            #expect(response.header("WWW-Authenticate") == nil)
            #expect(response.header(MockURLProtocol.renamedAuthenticateHeader) == #"Basic realm="api""#)
        #else
            #expect(response.header("WWW-Authenticate") == #"Basic realm="api""#)
        #endif
        let (_, bearer) = try await withDeadline(10) { try await session.data(from: url("/bearer")) }
        #expect(bearer.header("WWW-Authenticate") == #"Bearer realm="api""#)
    }

    #if canImport(FoundationNetworking)
        @Test("download tasks fail with a clear error instead of crashing (Linux)")
        func downloads() async throws {
            registry.register(.get("/file"), respond: .string("content"))
            let session = registry.makeSession()
            await #expect {
                _ = try await session.download(from: url("/file"))
            } throws: { error in
                guard case .downloadTaskUnsupported("GET https://api.test/file") = error as? RequestMockerError else {
                    return false
                }
                return "\(error)".contains("use data(for:)")
            }
            let completionError: (any Error)? = await withCheckedContinuation { continuation in
                session.downloadTask(with: url("/file")) { _, _, error in continuation.resume(returning: error) }
                    .resume()
            }
            #expect(completionError is RequestMockerError)
        }
    #endif

    @Test("2,000 concurrent requests across 8 sessions: none lost, none misrouted")
    func concurrentLoad() async throws {
        let registries = (0..<8).map { _ in MockRegistry() }
        for (index, registry) in registries.enumerated() {
            registry.register(.get("/item/<n>")) { _, captures in .string("\(index):\(captures["n"] ?? "")") }
            registry.register(.get("/slow/<n>")) { _, captures in
                .string("\(index):\(captures["n"] ?? "")").delayed(by: .milliseconds(Int.random(in: 0...5)))
            }
        }
        let sessions = registries.map { $0.makeSession() }
        let answers = try await withThrowingTaskGroup(of: (Int, Int, String).self) { group in
            for n in 0..<2_000 {
                let sessionIndex = n % sessions.count
                let path = n.isMultiple(of: 2) ? "/item/\(n)" : "/slow/\(n)"
                group.addTask {
                    let (data, _) = try await sessions[sessionIndex].data(from: url(path))
                    return (n, sessionIndex, String(decoding: data, as: UTF8.self))
                }
            }
            var answers: [(Int, Int, String)] = []
            for try await answer in group { answers.append(answer) }
            return answers
        }
        #expect(answers.count == 2_000)
        #expect(answers.allSatisfy { n, session, body in body == "\(session):\(n)" })
        #expect(registries.map { $0.journal.count } == Array(repeating: 250, count: 8))
    }
}
