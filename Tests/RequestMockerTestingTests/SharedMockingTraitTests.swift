import Foundation
import RequestMockerTestSupport
import RequestMockerTesting
import Testing

/// How many `.mockingShared` tests are inside their turn right now, and the most ever seen.
enum SharedTurnProbe {
    private static let inside = LockedState((now: 0, most: 0))

    /// Holds the turn for a while, checking that nobody else holds it, and that the shared
    /// registry came empty.
    static func occupy(answer: String) async throws {
        let shared = MockRegistry.shared
        #expect(MockRegistry.current === shared)
        #expect(shared.filters.isEmpty)
        #expect(shared.journal.isEmpty)
        let now = inside.withLock { state -> Int in
            state.now += 1
            state.most = max(state.most, state.now)
            return state.now
        }
        defer { inside.withLock { $0.now -= 1 } }
        #expect(now == 1)
        shared.register(.get("https://legacy.test/config"), respond: .string(answer))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [MockURLProtocol.self]
        let session = URLSession(configuration: configuration)
        defer { session.finishTasksAndInvalidate() }
        try await Task.sleep(for: .milliseconds(20))
        #expect(try await get("https://legacy.test/config", through: session).body == answer)
        #expect(inside.withLock { $0.now } == 1)
    }
}

@Suite(.mockingShared, .timeLimit(.minutes(3)), .hangGuard) struct SharedMockingTraitTests {
    @Test(arguments: 1...4) func oneAtATimeWithinASuite(number: Int) async throws {
        try await SharedTurnProbe.occupy(answer: "suite 1, test \(number)")
    }
}

@Suite(.mockingShared, .timeLimit(.minutes(3)), .hangGuard) struct MoreSharedMockingTraitTests {
    @Test(arguments: 1...4) func oneAtATimeAcrossSuites(number: Int) async throws {
        try await SharedTurnProbe.occupy(answer: "suite 2, test \(number)")
    }

}
