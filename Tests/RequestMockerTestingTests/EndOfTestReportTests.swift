import Foundation
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

@testable import RequestMockerTesting

/// What the traits report when a test ends. Each test runs a trait's scope around a block of
/// its own and catches the issues the scope records, to check them exactly.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct EndOfTestReportTests {
    /// Runs `body` inside the `.mocking` trait's scope for the running test and returns the
    /// issues the scope recorded.
    private func issues(
        of trait: MockingTrait = .mocking,
        _ body: @escaping @Sendable () async throws -> Void
    ) async throws -> [IssueLog.Recorded] {
        let test = try #require(Test.current)
        let log = IssueLog()
        try await withKnownIssue {
            try await trait.provideScope(for: test, testCase: Test.Case.current, performing: body)
        } matching: {
            log.keep($0)
        }
        return log.issues
    }

    @Test func anUnmatchedRequestIsReportedAtTheTestWithTheNearestFilters() async throws {
        let testLine = try #require(Test.current).sourceLocation.line
        let filterLine = LockedState(0)
        let issues = try await issues {
            let registry = MockRegistry.current
            registry.register(.get("https://api.test/users/<id>"), respond: .json(["id": 1]))
            filterLine.withLock { $0 = #line - 1 }  // the call above
            // The request fails with the same report, as a RequestMockerError.
            await #expect(throws: RequestMockerError.self) {
                _ = try await registry.session.data(from: url("https://api.test/users"))
            }
        }
        #expect(
            issues == [
                IssueLog.Recorded(
                    message: """
                        Unmatched request during the test: no filter matched GET https://api.test/users
                          nearest filters, closest first:
                            GET https://api.test/users/<id> \
                        (EndOfTestReportTests.swift:\(filterLine.withLock { $0 })): \
                        path /users has 1 segment, pattern /users/<id> has 2
                          (1 filter registered)
                        """,
                    file: "EndOfTestReportTests.swift",
                    line: testLine
                )
            ])
    }

    @Test func aRequestThatBreaksARegisteredContractIsReportedAtTheTestWithItsViolations() async throws {
        let testLine = try #require(Test.current).sourceLocation.line
        let folder = try TemporaryFolder()
        let contract = try OpenAPIContract(
            contentsOf: try folder.write(
                "pets.json",
                #"{"openapi": "3.0.3", "info": {"title": "Pets", "version": "1"}, "paths": {"/pets/{petId}": {"get": {"#
                    + #""operationId": "getPet", "parameters": [{"name": "petId", "in": "path", "required": true, "#
                    + #""schema": {"type": "integer"}}], "responses": {"200": {"description": "A pet"}}}}}}"#))
        let issues = try await issues {
            let registry = MockRegistry.current
            registry.register(contract)
            _ = try await registry.session.data(from: url("https://api.test/pets/7"))
            _ = try await registry.session.data(from: url("https://api.test/pets/abc"))
        }
        #expect(
            issues == [
                IssueLog.Recorded(
                    message: """
                        A request broke the contract during the test: GET https://api.test/pets/abc \
                        (getPet, answered 422 problem)
                          path petId: expected integer, got "abc"
                        """,
                    file: "EndOfTestReportTests.swift",
                    line: testLine
                )
            ])
    }

    @Test func aFilterTheTestRegisteredBehindACoveringOneIsReported() async throws {
        let testLine = try #require(Test.current).sourceLocation.line
        let lines = LockedState((general: 0, specific: 0))
        let issues = try await issues {
            let registry = MockRegistry.current
            registry.register(.get("https://api.test/users/<id>"), respond: .json(["id": 1]))
            lines.withLock { $0.general = #line - 1 }
            registry.register(.get("https://api.test/users/404"), respond: .status(404))
            lines.withLock { $0.specific = #line - 1 }
        }
        let (general, specific) = lines.withLock { $0 }
        #expect(
            issues == [
                IssueLog.Recorded(
                    message: "A filter of this test never answers: GET https://api.test/users/404 "
                        + "(EndOfTestReportTests.swift:\(specific)) is shadowed by GET https://api.test/users/<id> "
                        + "(EndOfTestReportTests.swift:\(general)): the earlier filter answers every request this one "
                        + "would; register this one with at: .first, or narrow the earlier one",
                    file: "EndOfTestReportTests.swift",
                    line: testLine
                )
            ])
    }

    @Test func aFilterWhoseResponseAlwaysFailsIsReported() async throws {
        let testLine = try #require(Test.current).sourceLocation.line
        let line = LockedState(0)
        let issues = try await issues {
            MockRegistry.current.register(
                .get("https://api.test/logo"), respond: .file(URL(string: "https://cdn.test/logo.png")!))
            line.withLock { $0 = #line - 1 }
        }
        #expect(
            issues == [
                IssueLog.Recorded(
                    message: "A filter of this test never answers: GET https://api.test/logo "
                        + "(EndOfTestReportTests.swift:\(line.withLock { $0 })) fails every request: "
                        + "MockResponse.file(_:) takes a file URL, and https://cdn.test/logo.png is not one; "
                        + "use Bundle.module.url(forResource:withExtension:) or URL(fileURLWithPath:), "
                        + "or .forward(to:) to answer from another server",
                    file: "EndOfTestReportTests.swift",
                    line: testLine
                )
            ])
    }

    @Test func anExpectedFilterNothingMatchedIsReportedWhereItWasMarked() async throws {
        let markedLine = LockedState(0)
        let issues = try await issues {
            let registry = MockRegistry.current
            registry.register(.get("https://api.test/used").expected(), respond: .status(204))
            registry.register(.post("https://api.test/events").expected(), respond: .status(204))
            markedLine.withLock { $0 = #line - 1 }  // the call above
            _ = try await registry.session.data(from: url("https://api.test/used"))
        }
        #expect(
            issues == [
                IssueLog.Recorded(
                    message: "Expected a request matching POST https://api.test/events (EndOfTestReportTests.swift:"
                        + "\(markedLine.withLock { $0 })), but none arrived",
                    file: "EndOfTestReportTests.swift",
                    line: markedLine.withLock { $0 }
                )
            ])
    }

    @Test func reportsAreMadeWhenTheTestThrowsToo() async throws {
        struct Failure: Error {}
        let test = try #require(Test.current)
        let log = IssueLog()
        let markedLine = LockedState(0)
        await withKnownIssue {
            await #expect(throws: Failure.self) {
                try await MockingTrait.mocking.provideScope(for: test, testCase: Test.Case.current) {
                    MockRegistry.current.register(.get("https://api.test/never").expected())
                    // Inside #expect's closure, #line is the macro's line, for the call above as for this.
                    markedLine.withLock { $0 = #line }
                    throw Failure()
                }
            }
        } matching: {
            log.keep($0)
        }
        #expect(
            log.issues.map(\.message) == [
                "Expected a request matching GET https://api.test/never "
                    + "(EndOfTestReportTests.swift:\(markedLine.withLock { $0 })), but none arrived"
            ])
    }

    @Test func aTestWhoseRequestsAllMatchedReportsNothing() async throws {
        let test = try #require(Test.current)
        try await MockingTrait.mocking.provideScope(for: test, testCase: Test.Case.current) {
            MockRegistry.current.register(.get("https://api.test/users/7").expected(), respond: .json(["id": 7]))
            _ = try await MockRegistry.current.session.data(from: url("https://api.test/users/7"))
        }
    }

    @Test func currentOutsideTheTraitsRecordsAnIssueAndIsTheSharedRegistry() async throws {
        let testLine = try #require(Test.current).sourceLocation.line
        let log = IssueLog()
        withKnownIssue {
            #expect(MockRegistry.current === MockRegistry.shared)
        } matching: {
            log.keep($0)
        }
        #expect(
            log.issues == [
                IssueLog.Recorded(
                    message:
                        "MockRegistry.current is MockRegistry.shared in this test, which every test shares: "
                        + "add the .mocking trait to the test or its suite "
                        + "(or .mockingShared to use the shared registry on purpose)",
                    file: "EndOfTestReportTests.swift",
                    line: testLine
                )
            ])
    }
}

/// A request that bypasses the test's registry and reaches `MockRegistry.shared` is reported.
/// The stray lands in the shared registry, so this suite takes the shared registry's turn.
@Suite(.mockingShared, .timeLimit(.minutes(3)), .hangGuard) struct StrayRequestTests {
    @Test func aRequestThroughMockURLProtocolItselfIsReported() async throws {
        let test = try #require(Test.current)
        let testLine = test.sourceLocation.line
        MockRegistry.shared.register(.get("https://legacy.test/config"), respond: .json(["beta": true]))
        let log = IssueLog()
        try await withKnownIssue {
            try await MockingTrait.mocking.provideScope(for: test, testCase: Test.Case.current) {
                #expect(MockRegistry.current !== MockRegistry.shared)
                let configuration = URLSessionConfiguration.ephemeral
                configuration.protocolClasses = [MockURLProtocol.self]
                let legacy = URLSession(configuration: configuration)
                defer { legacy.finishTasksAndInvalidate() }
                let answer = try await get("https://legacy.test/config", through: legacy)
                #expect(answer.body == #"{"beta":true}"#)
            }
        } matching: {
            log.keep($0)
        }
        #expect(
            log.issues == [
                IssueLog.Recorded(
                    message:
                        "GET https://legacy.test/config went to MockRegistry.shared (URLSession.shared, "
                        + "or a session with MockURLProtocol.self), not to this test's registry, "
                        + "so it can't be isolated from other tests: give the code under test "
                        + "MockRegistry.current.session, or run the test with the .mockingShared trait",
                    file: "EndOfTestReportTests.swift",
                    line: testLine
                )
            ])
    }
}
