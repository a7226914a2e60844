import Testing

/// A Swift Testing trait for tests of code that can't be handed a session: code that uses
/// `URLSession.shared` (with `MockURLProtocol.registerGlobally()`) or registers into
/// ``MockRegistry/shared`` itself. Such tests can't be isolated from each other, so this trait
/// runs them one at a time.
///
/// ```swift
/// @Suite(.mockingShared)
/// struct LegacyClientTests {
///     @Test func loadsConfig() async throws {
///         MockURLProtocol.register(RequestFilter.get("https://api.test/config").respond(with: .json(["beta": true])))
///         let config = try await LegacyClient().config()   // uses URLSession.shared
///         #expect(config.beta)
///     }
/// }
/// ```
///
/// While a test with this trait runs, no other test with it does (across all suites, unlike
/// `.serialized`, which orders only the tests of one suite); ``MockRegistry/current`` is
/// ``MockRegistry/shared``; and the shared registry starts and ends the test with no filters
/// and an empty journal. Tests with ``MockingTrait`` still run alongside: they use their own
/// registries, and any request of theirs that reaches the shared one is reported. Tests with
/// neither trait that touch ``MockRegistry/shared`` are not held back; give them this trait.
public struct SharedMockingTrait: TestTrait, SuiteTrait, TestScoping {
    /// Applies to every test of a suite.
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> SharedMockingTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await MockRegistry.withSharedTurn {
            let shared = MockRegistry.shared
            shared.removeAll()
            shared.clearJournal()
            defer {
                shared.removeAll()
                shared.clearJournal()
            }
            try await MockRegistry.$taskRegistry.withValue(shared) {
                try await EndOfTestReport.reporting(on: shared, atTest: .test(test.sourceLocation), function)
            }
        }
    }
}

extension Trait where Self == SharedMockingTrait {
    /// Runs the test with ``MockRegistry/shared``, one such test at a time; see
    /// ``SharedMockingTrait``.
    public static var mockingShared: Self { SharedMockingTrait() }
}
