import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("Streamed responses through MockURLProtocol", .timeLimit(.minutes(3)), .hangGuard)
struct StreamingTests {
    let registry = MockRegistry()

    static let pause = Duration.milliseconds(150)

    @Test("a delegate-based data task gets each chunk as its own piece, no sooner than its pause")
    func delegateGetsEveryChunk() async throws {
        registry.register(
            .get("/feed"),
            respond: .stream(
                [.text("one\n"), .text("two\n", after: Self.pause), .text("three\n", after: Self.pause)],
                contentType: "application/x-ndjson"))
        let recorder = RecordingDelegate()
        let session = registry.makeSession(delegate: recorder)
        let started = ContinuousClock.now
        let task = session.dataTask(with: url("/feed"))
        task.resume()
        let (response, data, error) = await recorder.completion(of: task)
        #expect(error == nil)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "application/x-ndjson")
        #expect(http.value(forHTTPHeaderField: "Content-Length") == nil)
        #expect(data == Data("one\ntwo\nthree\n".utf8))
        let pieces = recorder.receivedPieces
        #expect(pieces.map { String(decoding: $0.data, as: UTF8.self) } == ["one\n", "two\n", "three\n"])
        #expect(pieces.count == 3)
        if pieces.count == 3 {
            #expect(started.duration(to: pieces[1].at) >= Self.pause)
            #expect(started.duration(to: pieces[2].at) >= Self.pause * 2)
        }
    }

    #if canImport(FoundationNetworking)
        @Test("Linux: data(for:) gets the whole body once, after the last pause (FoundationNetworking keeps one piece)")
        func asyncTaskGetsWholeBody() async throws {
            registry.register(
                .get("/feed"),
                respond: .stream([.text("a"), .text("b", after: Self.pause), .text("c", after: Self.pause)]))
            let started = ContinuousClock.now
            let (data, response) = try await registry.makeSession().data(from: url("/feed"))
            #expect(data == Data("abc".utf8))
            #expect(response.status == 200)
            #expect(started.duration(to: .now) >= Self.pause * 2)
        }

        @Test("Linux: a completion-handler task gets the whole body once")
        func completionHandlerGetsWholeBody() async throws {
            registry.register(.get("/feed"), respond: .stream([.text("x"), .text("y", after: .milliseconds(20))]))
            let session = registry.makeSession()
            let data = try await completion(waitingFor: "the completion handler") { handler in
                session.dataTask(with: url("/feed")) { data, _, _ in handler(data) }
            }
            #expect(data == Data("xy".utf8))
        }
    #endif

    @Test("server-sent events are written as the WHATWG format describes, with no-cache")
    func serverSentEvents() async throws {
        registry.register(
            .get("/events"),
            respond: .events([
                ServerSentEvent(comment: "hello"),
                ServerSentEvent(event: "token", data: "one\ntwo", id: "7"),
                ServerSentEvent(data: "last\r\nline", retry: 1500),
            ]))
        let (data, response) = try await registry.makeSession().data(from: url("/events"))
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-cache")
        #expect(
            String(decoding: data, as: UTF8.self)
                == ": hello\n\nevent: token\nid: 7\ndata: one\ndata: two\n\nretry: 1500\ndata: last\ndata: line\n\n")
    }

    @Test("an event that can't be written fails every request, naming the event and why")
    func invalidEvent() async throws {
        registry.register(
            .get("/events"), respond: .events([ServerSentEvent(data: "ok"), ServerSentEvent(id: "a\nb")]))
        await #expect {
            _ = try await registry.makeSession().data(from: url("/events"))
        } throws: { error in
            guard case .invalidResponse(_, _, let reason) = error as? RequestMockerError else { return false }
            return reason == "event 1 can't be written: its id holds a line break"
        }
    }

    @Test("a stream computed from an AsyncSequence is made per request, from its captures")
    func computedFromSequence() async throws {
        registry.register(
            .get("/count/<n>"),
            respond: .stream(contentType: "text/plain") { _, captures in
                let count = Int(captures["n"] ?? "") ?? 0
                return Countdown(from: count)
            })
        let session = registry.makeSession()
        #expect(try await session.data(from: url("/count/3")).0 == Data("3\n2\n1\n".utf8))
        #expect(try await session.data(from: url("/count/1")).0 == Data("1\n".utf8))
    }

    @Test("a stream fed through a continuation sends what the test yields, and ends when it finishes")
    func fedByContinuation() async throws {
        // The block hands its continuation over; the test waits for that, not for a clock.
        let handOff = AsyncStream<AsyncThrowingStream<StreamChunk, any Error>.Continuation>.makeStream()
        registry.register(
            .get("/live"),
            respond: .stream { _, _, continuation in
                continuation.yield(.text("connected\n"))
                handOff.continuation.yield(continuation)
            })
        let recorder = RecordingDelegate()
        let task = registry.makeSession(delegate: recorder).dataTask(with: url("/live"))
        task.resume()
        let fed = try await withDeadline(120, waitingFor: "the stream's block to hand over its continuation") {
            var handOffs = handOff.stream.makeAsyncIterator()
            return await handOffs.next()
        }
        let continuation = try #require(fed)
        continuation.yield(.text("news\n"))
        continuation.finish()
        let (_, data, error) = await recorder.completion(of: task)
        #expect(error == nil)
        #expect(data == Data("connected\nnews\n".utf8))
    }

    @Test("a computed stream that throws a URLError fails the task with it, after the pieces before it")
    func computedFailure() async throws {
        registry.register(
            .get("/broken"),
            respond: .stream { _, _, continuation in
                continuation.yield(.text("partial"))
                continuation.finish(throwing: URLError(.networkConnectionLost))
            })
        let recorder = RecordingDelegate()
        let task = registry.makeSession(delegate: recorder).dataTask(with: url("/broken"))
        task.resume()
        let (response, data, error) = await recorder.completion(of: task)
        #expect(response?.status == 200)
        #expect(data == Data("partial".utf8))
        #expect(isURLError(try #require(error), .networkConnectionLost))
    }

    @Test("cancelling a task in the middle of a stream stops it: nothing arrives afterwards")
    func cancelInTheMiddle() async throws {
        let produced = LockedState(0)
        registry.register(
            .get("/endless"),
            respond: .stream(contentType: "text/plain") { _, _ in
                Ticks(every: .milliseconds(20), counting: produced)
            })
        let recorder = RecordingDelegate()
        let task = registry.makeSession(delegate: recorder).dataTask(with: url("/endless"))
        task.resume()
        try await waitUntil(120, waitingFor: "two ticks") { recorder.receivedPieces.count >= 2 }
        task.cancel()
        let (_, _, error) = await recorder.completion(of: task)
        #expect(isURLError(try #require(error), .cancelled))
        let afterCancel = produced.withLock { $0 }
        try await Task.sleep(for: .milliseconds(200))
        #expect(produced.withLock { $0 } <= afterCancel + 1)
    }

    @Test("a gap longer than the request's timeout fails the task with timedOut")
    func idleTimeout() async throws {
        // The gap is an hour and so is the session's timeout: only the request's 0.3 s can end it.
        registry.register(.get("/stalls"), respond: .stream([.text("first"), .text("late", after: .seconds(3600))]))
        let recorder = RecordingDelegate()
        var request = URLRequest(url: url("/stalls"))
        request.timeoutInterval = 0.3
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 3600
        let task = registry.makeSession(configuration: configuration, delegate: recorder).dataTask(with: request)
        task.resume()
        let (response, data, error) = await recorder.completion(of: task)
        #expect(response?.status == 200)
        #expect(data == Data("first".utf8))
        #expect(isURLError(try #require(error), .timedOut))
    }

    @Test("a HEAD request gets the head without the stream")
    func head() async throws {
        // A HEAD that waited for the stream would run into the session's 60 s timeout and fail.
        registry.register(.head("/feed"), respond: .stream([.text("body", after: .seconds(3600))]))
        var request = URLRequest(url: url("/feed"))
        request.httpMethod = "HEAD"
        let (data, response) = try await registry.makeSession().data(for: request)
        #expect(data.isEmpty)
        #expect(response.status == 200)
    }
}

/// `n`, `n-1`, … `1`, a line each.
private struct Countdown: AsyncSequence {
    let from: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var next: Int

        mutating func next() async -> StreamChunk? {
            guard next > 0 else { return nil }
            defer { next -= 1 }
            return .text("\(next)\n")
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(next: from) }
}

/// A line every `interval`, for ever, counting how many were made.
private struct Ticks: AsyncSequence {
    let every: Duration
    let counting: LockedState<Int>

    struct AsyncIterator: AsyncIteratorProtocol {
        let every: Duration
        let counting: LockedState<Int>

        mutating func next() async -> StreamChunk? {
            let count = counting.withLock { value -> Int in
                value += 1
                return value
            }
            return .text("tick \(count)\n", after: every)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(every: every, counting: counting) }
}
