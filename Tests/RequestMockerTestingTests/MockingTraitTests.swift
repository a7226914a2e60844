import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMockerTesting

@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockingTraitTests {
    @Test(.mocking) func currentIsTheTestsOwnEmptyRegistry() async throws {
        let registry = MockRegistry.current
        #expect(registry !== MockRegistry.shared)
        #expect(registry.filters.isEmpty)
        #expect(registry.journal.isEmpty)
        registry.register(.get("https://api.test/ping"), respond: .string("pong"))
        let (status, body) = try await get("https://api.test/ping", through: registry.session)
        #expect(status == 200)
        #expect(body == "pong")
        #expect(registry.session === MockRegistry.current.session)
    }

    @Test(.mocking { $0.register(.get("https://api.test/ping"), respond: .string("from the trait")) })
    func theClosureRegistersBeforeTheTest() async throws {
        // The filter carries the line of the declaration the trait is attached to, two lines up.
        let declaredOn = #line - 2
        #expect(
            MockRegistry.current.filters.map(\.description) == [
                "GET https://api.test/ping (MockingTraitTests.swift:\(declaredOn))"
            ])
        #expect(try await get("https://api.test/ping", through: MockRegistry.current.session).body == "from the trait")
    }

    @Test(.mocking, arguments: 1...8)
    func everyCaseOfAParameterizedTestHasItsOwn(number: Int) async throws {
        MockRegistry.current.register(.get("https://api.test/case"), respond: .string("case \(number)"))
        #expect(MockRegistry.current.filters.count == 1)
        #expect(try await get("https://api.test/case", through: MockRegistry.current.session).body == "case \(number)")
    }

    @Test(.mocking) func childTasksSeeTheRegistryAndDetachedTasksDont() async {
        let registry = MockRegistry.current
        async let child = MockRegistry.taskRegistry
        let grouped = await withTaskGroup(of: Bool.self) { group in
            group.addTask { MockRegistry.taskRegistry === registry }
            return await group.next() ?? false
        }
        let detached = await Task.detached { MockRegistry.taskRegistry }.value
        #expect(await child === registry)
        #expect(grouped)
        #expect(detached == nil)
    }

    @Test(.mocking(unmatchedPolicy: .respond(.status(418))) { _ in })
    func theUnmatchedPolicyCanBeChosen() async throws {
        #expect(try await get("https://api.test/anything", through: MockRegistry.current.session).status == 418)
        #expect(MockRegistry.current.journal.count == 1)
    }

    @Test func aThrowingClosureFailsTheTestWithItsErrorBeforeItRuns() async throws {
        let test = try #require(Test.current)
        let trait = MockingTrait.mocking { _ in throw ConfigureFailure() }
        let ran = LockedState(false)
        await #expect(throws: ConfigureFailure.self) {
            try await trait.provideScope(for: test, testCase: Test.Case.current) { ran.withLock { $0 = true } }
        }
        #expect(!ran.withLock { $0 })
    }

    struct ConfigureFailure: Error {}
}

/// The trait on a suite and on its tests: one registry per test, the test's filters first.
@Suite(
    .mocking { $0.register(.get("https://api.test/health"), respond: .string("ok")) }, .timeLimit(.minutes(3)),
    .hangGuard)
struct MockingSuiteTraitTests {
    @Test(
        .mocking { registry in
            registry.register(.get("https://api.test/users/7"), respond: .json(["id": 7]))
            registry.register(.get("https://api.test/health"), respond: .string("overridden"))
        })
    func aTestSeesItsOwnFiltersFirstThenTheSuites() async throws {
        #expect(MockRegistry.current.filters.map(\.path?.rawValue) == ["/users/7", "/health", "/health"])
        #expect(try await get("https://api.test/health", through: MockRegistry.current.session).body == "overridden")
        #expect(try await get("https://api.test/users/7", through: MockRegistry.current.session).body == #"{"id":7}"#)
        // Filters registered in the test itself come after both, as registration order says.
        MockRegistry.current.register(.get("https://api.test/late"), respond: .status(204))
        #expect(MockRegistry.current.filters.last?.path?.rawValue == "/late")
    }

    @Test func aTestWithoutATraitOfItsOwnGetsTheSuites() {
        #expect(MockRegistry.current !== MockRegistry.shared)
        #expect(MockRegistry.current.filters.map(\.path?.rawValue) == ["/health"])
    }

    @Test func registrationsStayInTheirTest() {
        MockRegistry.current.register(.get("https://api.test/only-here"), respond: .status(204))
        #expect(MockRegistry.current.filters.count == 2)
    }
}
