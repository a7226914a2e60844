import Foundation
import RequestMockerTestSupport
import RequestMockerTesting
import Testing

@Suite(
    .mocking { registry in
        registry.register(.post("https://api.test/events"), respond: .status(204))
        registry.register(.get("https://api.test/users/<id>"), respond: .json(["id": 7]))
    },
    .timeLimit(.minutes(3)), .hangGuard)
// Filters written in a trait's closure carry the line of the declaration the trait is attached
// to (`declaredOn`, below), not their own: Swift Testing's macros re-emit trait expressions there.
struct MockRegistryAssertionTests {
    /// The line of this declaration, which the trait's filters carry.
    static let declaredOn = #line - 2
    struct Event: Codable, Equatable {
        let name: String
        let count: Int
    }

    /// Posts `body` to /events through the test's session.
    private func post(_ body: String) async throws {
        var request = URLRequest(url: url("https://api.test/events"))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        _ = try await MockRegistry.current.session.data(for: request)
    }

    @Test func passingAssertionsReturnTheMatchingRequests() async throws {
        try await post(#"{"name":"launch","count":1}"#)
        try await post(#"{"name":"tap","count":2}"#)
        let registry = MockRegistry.current
        #expect(
            registry.assertRequested(.post("/events"), times: 2).map(\.bodyText) == [
                #"{"name":"launch","count":1}"#, #"{"name":"tap","count":2}"#,
            ])
        #expect(registry.assertRequested(.post("/events")).count == 2)
        registry.assertNotRequested(.get("/users/<id>"))
        #expect(registry.assertJSONBody(of: .post("/events"), as: Event.self) == Event(name: "tap", count: 2))
        registry.assertJSONBody(of: .post("/events"), equals: Event(name: "tap", count: 2))
    }

    @Test func waitingSeesRequestsSentInTheBackground() async throws {
        let session = MockRegistry.current.session
        let send: @Sendable (String) async throws -> Void = { name in
            var request = URLRequest(url: url("https://api.test/events"))
            request.httpMethod = "POST"
            request.httpBody = Data(#"{"name":"\#(name)","count":0}"#.utf8)
            _ = try await session.data(for: request)
        }
        // The wait says nothing when it registers; the registry then runs its filter on each
        // request that arrives, outside the waiting task. So the sender sends probes (which the
        // filter leaves out) until the filter runs outside that task: from then on, the three
        // requests can only reach the wait by waking it.
        let registered = LockedState(false)
        let filter = RequestFilter.post("/events").when("not a probe") { request in
            if !WaitingTask.isCurrent { registered.withLock { $0 = true } }
            return request.bodyText != #"{"name":"probe","count":0}"#
        }
        let sender = Task {
            try await waitUntil(60, waitingFor: "the wait to be registered") {
                if registered.withLock({ $0 }) { return true }
                try await send("probe")
                return registered.withLock { $0 }
            }
            for name in ["a", "b", "c"] { try await send(name) }
        }
        let sent = await WaitingTask.$isCurrent.withValue(true) {
            await MockRegistry.current.assertRequested(filter, times: 3, within: .seconds(60))
        }
        #expect(
            sent.compactMap(\.bodyText) == [
                #"{"name":"a","count":0}"#, #"{"name":"b","count":0}"#, #"{"name":"c","count":0}"#,
            ])
        try await sender.value
    }

    @Test func aWrongCountIsReportedAtTheCallWithTheJournal() async throws {
        try await post("{}")
        _ = try await MockRegistry.current.session.data(from: url("https://api.test/users/7"))
        let log = IssueLog()
        let line = LockedState(0)
        withKnownIssue {
            MockRegistry.current.assertRequested(.post("https://api.test/events"), times: 2)
            line.withLock { $0 = #line - 1 }  // the call above
        } matching: {
            log.keep($0)
        }
        let at = line.withLock { $0 }
        #expect(
            log.issues == [
                IssueLog.Recorded(
                    message: """
                        Expected 2 requests matching POST https://api.test/events \
                        (MockRegistryAssertionTests.swift:\(at)), but 1 arrived
                        The journal (2 requests):
                          POST https://api.test/events -> POST https://api.test/events \
                        (MockRegistryAssertionTests.swift:\(Self.declaredOn))
                          GET https://api.test/users/7 -> GET https://api.test/users/<id> \
                        (MockRegistryAssertionTests.swift:\(Self.declaredOn))
                        """,
                    file: "MockRegistryAssertionTests.swift",
                    line: at
                )
            ])
    }

    @Test func eachFailingAssertionSaysWhatWasWrong() async throws {
        try await post(#"{"name":"launch"}"#)
        let log = IssueLog()
        let lines = LockedState([Int]())
        await withKnownIssue {
            let registry = MockRegistry.current
            registry.assertRequested(.delete("/users/<id>"))
            lines.withLock { $0.append(#line - 1) }  // the call above
            registry.assertNotRequested(.post("/events"))
            lines.withLock { $0.append(#line - 1) }  // the call above
            _ = registry.assertJSONBody(of: .post("/events"), as: Event.self)
            lines.withLock { $0.append(#line - 1) }  // the call above
            registry.assertJSONBody(of: .put("/events"), equals: Event(name: "x", count: 1))
            lines.withLock { $0.append(#line - 1) }  // the call above
            await registry.assertRequested(.post("/events"), times: 2, within: .milliseconds(50))
            lines.withLock { $0.append(#line - 1) }  // the call above
        } matching: {
            log.keep($0)
        }
        let at = lines.withLock { $0 }
        let journal = """

            The journal (1 request):
              POST https://api.test/events -> POST https://api.test/events \
            (MockRegistryAssertionTests.swift:\(Self.declaredOn))
            """
        #expect(log.issues.map(\.line) == at)
        #expect(
            log.issues.map(\.message) == [
                "Expected at least 1 request matching DELETE /users/<id> "
                    + "(MockRegistryAssertionTests.swift:\(at[0])), but none arrived"
                    + journal,
                "Expected no request matching POST /events (MockRegistryAssertionTests.swift:\(at[1])), but 1 arrived"
                    + journal,
                #"The body of POST https://api.test/events doesn't decode as Event: missing key "count"; "#
                    + #"the body was "{"name":"launch"}""#
                    + journal,
                "Expected a request matching PUT /events (MockRegistryAssertionTests.swift:\(at[3])) "
                    + "to decode its body as Event, but none arrived"
                    + journal,
                "Expected 2 requests matching POST /events "
                    + "(MockRegistryAssertionTests.swift:\(at[4])), but 0.05 seconds passed with 1"
                    + journal,
            ])
    }

    @Test func aBodyThatDecodesToAnotherValueIsReported() async throws {
        try await post(#"{"name":"launch","count":1}"#)
        let log = IssueLog()
        withKnownIssue {
            MockRegistry.current.assertJSONBody(of: .post("/events"), equals: Event(name: "launch", count: 2))
        } matching: {
            log.keep($0)
        }
        #expect(
            log.issues.map(\.message) == [
                #"The body of the latest request matching POST /events "#
                    + #"(MockRegistryAssertionTests.swift:\#(log.issues.first?.line ?? 0)) "#
                    + #"decoded to Event(name: "launch", count: 1), not Event(name: "launch", count: 2)"#
                    + "\nThe journal (1 request):\n  POST https://api.test/events -> POST https://api.test/events "
                    + "(MockRegistryAssertionTests.swift:\(Self.declaredOn))"
            ])
    }
}

/// Whether the code running is the test's own wait, for a filter to tell that wait's look at the
/// journal from the registry waking it.
private enum WaitingTask {
    @TaskLocal static var isCurrent = false
}
