import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("MockRegistry", .timeLimit(.minutes(3)), .hangGuard)
struct MockRegistryTests {
    let registry = MockRegistry()
    var session: URLSession { registry.makeSession() }

    func body(_ path: String, in session: URLSession) async throws -> String {
        String(decoding: try await session.data(from: url(path)).0, as: UTF8.self)
    }

    @Test("first match in registration order wins; at: .first goes first")
    func order() async throws {
        registry.register(.get("/users/<id>"), respond: .string("variable"))
        registry.register(.get("/users/me"), respond: .string("literal, registered later"))
        registry.register(.any("**"), respond: .string("catch-all"))
        #expect(try await body("/users/me", in: session) == "variable")
        #expect(try await body("/elsewhere", in: session) == "catch-all")
        registry.register(.get("/users/me"), respond: .string("prepended"), at: .first)
        #expect(try await body("/users/me", in: session) == "prepended")
        #expect(registry.filters.map(\.path?.rawValue) == ["/users/me", "/users/<id>", "/users/me", "**"])
    }

    @Test("order holds across the index's buckets (exact, shaped, general), appended or prepended")
    func orderAcrossBuckets() async throws {
        let request = MockRequest(method: .get, url: url("/a/b"))
        let filters: [RequestFilter] = [
            .get("/a/<x>"), .get("/a/b"), .get("/**"), .get("/<y>/b"), .get("*"), .get("/a/c"),
        ]
        // From six filters down to one: the index, and the plain walk of a few filters
        // (FilterIndex.scannedCount), give the same first match.
        for first in filters.indices {
            for prepending in [false, true] {
                let registry = MockRegistry()
                let chosen = Array(filters.enumerated().dropFirst(first))
                for (index, filter) in prepending ? chosen.reversed() : chosen {
                    if prepending {
                        registry.register(filter, respond: .string("\(index)"), at: .first)
                    } else {
                        registry.register(filter, respond: .string("\(index)"))
                    }
                }
                let expected = chosen.first { $0.element.match(request) != nil }.map { "\($0.offset)" }
                let answer = try? await body("/a/b", in: registry.makeSession())
                #expect(answer == expected, "first filter \(first), prepending \(prepending)")
            }
        }
    }

    @Test("order holds across filters filed under a host and filters for any host, however they are added")
    func orderAcrossHosts() async throws {
        let request = MockRequest(method: .get, url: url("https://API.test/a/b"))
        let filters: [RequestFilter] = [
            .get("https://other.test/a/b"), .get("https://api.test/a/<x>"), RequestFilter(host: "*.test", path: "/a/b"),
            .get("https://Api.Test/a/b"), RequestFilter(host: "api.test", path: "/**"), .get("/a/b"),
            RequestFilter(host: "api.test:8443", path: "/a/b"), RequestFilter(host: "api.test"),
        ]
        for first in filters.indices {
            for prepending in [false, true] {
                let registry = MockRegistry()
                let chosen = Array(filters.enumerated().dropFirst(first))
                var handles: [FilterHandle] = []
                for (index, filter) in prepending ? chosen.reversed() : chosen {
                    handles.append(
                        registry.register(filter, respond: .string("\(index)"), at: prepending ? .first : .last))
                }
                let expected = chosen.first { $0.element.match(request) != nil }.map { "\($0.offset)" }
                let answer = try? await body("https://API.test/a/b", in: registry.makeSession())
                #expect(answer == expected, "first filter \(first), prepending \(prepending)")
                // Removing the answering filter hands the request to the next one.
                guard let expected, let position = chosen.firstIndex(where: { "\($0.offset)" == expected }) else {
                    continue
                }
                handles[prepending ? chosen.count - 1 - position : position].remove()
                let next = chosen.dropFirst(position + 1).first { $0.element.match(request) != nil }.map {
                    "\($0.offset)"
                }
                let afterRemoval = try? await body("https://API.test/a/b", in: registry.makeSession())
                #expect(afterRemoval == next, "first filter \(first), prepending \(prepending), after removal")
            }
        }
    }

    @Test(
        "a fallback cassette stays behind filters registered later, general or shaped; moved filters keep their handles"
    )
    func fallbackAndMoveToFront() throws {
        let cassette = try Cassette(contentsOf: url("file:///nonexistent/fallback.har"), record: .once)
        registry.register(.get("/first"), respond: .status(200))
        registry.registerFallback(cassette)
        let mark = registry.registrationMark
        registry.register(.any("**"), respond: .status(201))
        let shaped = registry.register(.get("/a/<x>"), respond: .status(202))
        #expect(registry.filters.map(\.path?.rawValue) == ["/first", "**", "/a/<x>"])
        let answer = registry.answer(
            MockRequest(method: .get, url: url("https://x.test/zzz")), forwarding: Forwarding(timeout: 1)
        ).entry
        #expect(answer.filter?.path?.rawValue == "**")

        registry.moveToFront(registeredAfter: mark)
        #expect(registry.filters.map(\.path?.rawValue) == ["**", "/a/<x>", "/first"])
        _ = registry.answer(
            MockRequest(method: .get, url: url("https://x.test/a/1")), forwarding: Forwarding(timeout: 1))
        #expect(shaped.requestCount == 0, "the catch-all, moved first, answers before the shaped filter")
        shaped.remove()
        #expect(registry.filters.map(\.path?.rawValue) == ["**", "/first"])
    }

    @Test("a handle removes its one filter and counts its requests")
    func handles() async throws {
        let first = registry.register(.get("/x"), respond: .string("first"))
        registry.register(.get("/x"), respond: .string("second"))
        #expect(try await body("/x", in: session) == "first")
        #expect(first.requestCount == 1)
        #expect(first.requests.map(\.url) == [url("/x")])
        first.remove()
        first.remove()
        #expect(try await body("/x", in: session) == "second")
        #expect(registry.filters.count == 1)
    }

    @Test("removeFilters(forPath:) removes a path's filters, and removeAll every filter")
    func removal() {
        registry.register(.get("/categories.json"))
        registry.register(.post("categories.json/"))
        registry.register(.get("/other"))
        registry.register(.get("/bad/<id"))
        #expect(registry.removeFilters(forPath: "categories.json") == 2)
        #expect(registry.removeFilters(forPath: "/") == 0)
        #expect(registry.filters.map(\.path?.rawValue) == ["/other", "/bad/<id"])
        #expect(registry.removeFilters(forPath: "/bad/<id") == 1)
        registry.removeAll()
        #expect(registry.filters.isEmpty)
    }

    @Test("unmatched requests fail with the nearest filters and the first condition each missed")
    func unmatchedReport() async throws {
        registry.register(.get("/users/<id>"), respond: .string("user"))
        registry.register(.post("/users/<id>/posts"), respond: .string("post"))
        registry.register(.get("/users/<id>/posts").header("Authorization"), respond: .string("posts"))
        registry.register(.get("/health"))
        do {
            _ = try await session.data(from: url("/users/42/posts"))
            Issue.record("expected the request to fail")
        } catch let error as RequestMockerError {
            guard case .unmatched(let report) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(report.request == "GET https://api.test/users/42/posts")
            #expect(report.filterCount == 4)
            #expect(
                report.candidates.map(\.reason) == [
                    "header Authorization is missing",
                    "method is GET, filter wants POST",
                    "path /users/42/posts has 3 segments, pattern /users/<id> has 2",
                ])
            #expect(
                report.candidates[0].filter.hasPrefix("GET /users/<id>/posts [Authorization] (MockRegistryTests.swift:")
            )
            #expect(
                error.description.hasPrefix(
                    "no filter matched GET https://api.test/users/42/posts\n  nearest filters, closest first:\n"))
        }
        #expect(registry.unmatchedRequests.map(\.url) == [url("/users/42/posts")])
    }

    @Test("a miss among thousands of filters compares a bounded number, the ones for its path and host first")
    func unmatchedReportAmongManyFilters() async throws {
        for index in 0..<3_000 { registry.register(.get("/other/\(index)")) }
        registry.register(.post("/users/<id>"), respond: .string("created"))
        let error = await #expect(throws: RequestMockerError.self) { _ = try await session.data(from: url("/users/7")) }
        guard case .unmatched(let report) = error else {
            Issue.record("unexpected \(String(describing: error))")
            return
        }
        #expect(report.filterCount == 3_001)
        #expect(report.candidates.first?.reason == "method is GET, filter wants POST")
        #expect(report.candidates.count == 3)
        #expect(
            report.notes == [
                "1000 of the 3001 filters were compared: those for this path and host, then the earliest registered"
            ])
    }

    @Test("an empty registry says how to add a filter")
    func emptyReport() async throws {
        await #expect {
            _ = try await session.data(from: url("/x"))
        } throws: { error in
            "\(error)"
                == "no filter matched GET https://api.test/x\n"
                + "  the registry has no filters; register one with registry.register(...)"
        }
    }

    @Test("an invalid pattern fails the requests that reach it, and the next request still works")
    func invalidPatternDelivered() async throws {
        registry.register(.get("/ok"), respond: .string("ok"))
        registry.register(.get("/users/<id"), respond: .string("never"))
        await #expect {
            _ = try await session.data(from: url("/users/1"))
        } throws: { error in
            guard case .invalidPathPattern(let patternError, let filter) = error as? RequestMockerError else {
                return false
            }
            return patternError.column == 8 && filter.hasPrefix("GET /users/<id (MockRegistryTests.swift:")
        }
        #expect(try await body("/ok", in: session) == "ok")
    }

    @Test("the unmatched policy can answer with a fixed response")
    func respondPolicy() async throws {
        let registry = MockRegistry(unmatchedPolicy: .respond(.status(404)))
        let (_, response) = try await registry.makeSession().data(from: url("/nothing"))
        #expect(response.status == 404)
        #expect(registry.journal.first?.isUnmatched == true)
    }

    @Test("the journal records every request with the filter that answered")
    func journal() async throws {
        registry.register(.get("/a"), respond: .string("a"))
        _ = try await session.data(from: url("/a"))
        _ = try? await session.data(from: url("/b"))
        let entries = registry.journal
        #expect(entries.map(\.request.url) == [url("/a"), url("/b")])
        #expect(entries[0].filter?.path == "/a")
        #expect(entries[1].filter == nil)
        #expect(entries[1].isUnmatched)
        #expect(registry.requests(matching: .get("/a")).count == 1)
        registry.clearJournal()
        #expect(registry.journal.isEmpty)
    }

    @Test("journalCapacity keeps the most recent entries")
    func journalCapacity() async throws {
        registry.register(.get("/n/<n>"), respond: .string("n"))
        for n in 0..<5 { _ = try await session.data(from: url("/n/\(n)")) }
        registry.journalCapacity = 3
        #expect(registry.journal.map(\.request.url) == [url("/n/2"), url("/n/3"), url("/n/4")])
        _ = try await session.data(from: url("/n/5"))
        #expect(registry.journal.map(\.request.url) == [url("/n/3"), url("/n/4"), url("/n/5")])
        registry.journalCapacity = nil
        _ = try await session.data(from: url("/n/6"))
        #expect(registry.journal.count == 4)
    }

    @Test("the journal is bounded by default, and a full one keeps the newest entries in order as it wraps")
    func fullJournalWrapsInOrderAndCountsDrops() async throws {
        #expect(MockRegistry().journalCapacity == 10_000)
        registry.register(.get("/n/<n>"), respond: .string("n"))
        registry.journalCapacity = 3
        for n in 0..<8 { _ = try await session.data(from: url("/n/\(n)")) }
        #expect(registry.journal.map(\.request.url) == [url("/n/5"), url("/n/6"), url("/n/7")])
        #expect(registry.droppedJournalEntries == 5)
        registry.journalCapacity = 5
        _ = try await session.data(from: url("/n/8"))
        #expect(registry.journal.map(\.request.url) == [url("/n/5"), url("/n/6"), url("/n/7"), url("/n/8")])
        registry.journalCapacity = 2
        #expect(registry.journal.map(\.request.url) == [url("/n/7"), url("/n/8")])
        #expect(registry.droppedJournalEntries == 7)
        registry.clearJournal()
        _ = try await session.data(from: url("/n/9"))
        #expect(registry.journal.map(\.request.url) == [url("/n/9")])
    }

    @Test("waitForRequests returns once enough requests arrived, and times out with a count")
    func waiting() async throws {
        registry.register(.post("/events"), respond: .status(202))
        let session = session
        Task {
            try await Task.sleep(for: .milliseconds(50))
            for _ in 0..<2 {
                var request = URLRequest(url: url("/events"))
                request.httpMethod = "POST"
                _ = try await session.data(for: request)
            }
        }
        let requests = try await registry.waitForRequests(count: 2, matching: .post("/events"), timeout: .seconds(120))
        #expect(requests.count == 2)
        await #expect {
            _ = try await registry.waitForRequests(count: 3, timeout: .milliseconds(100))
        } throws: { error in
            guard case .waitTimedOut(3, 2, nil) = error as? RequestMockerError else { return false }
            return true
        }
    }

    @Test("waiting: an already-cancelled task, a zero timeout, and a predicate that reads the registry")
    func waitingEdges() async throws {
        let cancelled = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await registry.waitForRequests(count: 1, timeout: .seconds(30))
        }
        await #expect(throws: CancellationError.self) { try await withDeadline(120) { try await cancelled.value } }

        await #expect {
            _ = try await withDeadline(120) { try await registry.waitForRequests(count: 1, timeout: .zero) }
        } throws: { error in
            guard case .waitTimedOut(1, 0, nil) = error as? RequestMockerError else { return false }
            return true
        }

        // The filter's predicate calls back into the registry: it must not run under its lock.
        // A first request gives the waiter an entry to look at as it starts, so the predicate's
        // first run says the waiter is there before the ping comes.
        let shared = registry
        let ping = shared.register(.get("/ping"), respond: .status(204))
        shared.register(.get("/before"), respond: .status(204))
        let pingSession = session
        _ = try await withDeadline(120) { try await pingSession.data(from: url("/before")) }
        let evaluated = AsyncStream<Void>.makeStream()
        let waiter = Task {
            try await shared.waitForRequests(
                count: 1,
                matching: .any().when("a ping, after a ping") { request in
                    evaluated.continuation.yield()
                    return ping.requestCount > 0 && request.url.path == "/ping"
                },
                timeout: .seconds(120))
        }
        try await withDeadline(120, waitingFor: "the waiter to look at the journal") {
            var iterator = evaluated.stream.makeAsyncIterator()
            await iterator.next()
        }
        _ = try await withDeadline(120) { try await pingSession.data(from: url("/ping")) }
        #expect(try await withDeadline(120) { try await waiter.value }.count == 1)
    }

    @Test("two registries in parallel never see each other's requests")
    func isolation() async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<20 {
                group.addTask {
                    let registry = MockRegistry()
                    registry.register(.get("/same/url"), respond: .string("answer \(index)"))
                    let session = registry.makeSession()
                    for _ in 0..<5 {
                        let (data, _) = try await session.data(from: url("/same/url"))
                        #expect(String(decoding: data, as: UTF8.self) == "answer \(index)")
                    }
                    #expect(registry.journal.count == 5)
                }
            }
            try await group.waitForAll()
        }
    }

    @Test("a session made from a configuration alone, outliving its registry, gets a typed error, not a crash")
    func releasedRegistry() async throws {
        var registry: MockRegistry? = MockRegistry()
        let session = URLSession(configuration: .mocking(try #require(registry)))
        registry = nil
        await #expect {
            _ = try await session.data(from: url("/x"))
        } throws: { error in
            guard case .registryReleased = error as? RequestMockerError else { return false }
            return true
        }
    }

    @Test(
        "a session from makeSession keeps its registry alive, and lets it go once invalidated",
        arguments: [false, true])
    func sessionsKeepTheirRegistry(givesQueue: Bool) async throws {
        /// What a helper that hands out only a session does.
        func clientSession() -> (URLSession, Weak<MockRegistry>) {
            let registry = MockRegistry()
            registry.register(.get("/ping"), respond: .string("pong"))
            let session = registry.makeSession(delegateQueue: givesQueue ? OperationQueue() : nil)
            return (session, Weak(registry))
        }
        var (session, registry): (URLSession?, Weak<MockRegistry>) = clientSession()
        #expect(try await body("/ping", in: try #require(session)) == "pong")
        #expect(registry.value != nil)
        session?.invalidateAndCancel()
        session = nil
        let released = registry
        try await waitUntil(120, waitingFor: "the registry to go") { released.value == nil }
        #expect(released.value == nil)
    }

    @Test("registering 10,000 filters, then matching the last one")
    func manyFilters() async throws {
        for index in 0..<10_000 {
            registry.register(.get("/items/\(index)"), respond: .string("\(index)"))
        }
        #expect(registry.filters.count == 10_000)
        #expect(try await body("/items/9999", in: session) == "9999")
    }
}
