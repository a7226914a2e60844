import Testing

/// A Swift Testing trait that gives each test its own ``MockRegistry``, as
/// ``MockRegistry/current``, and reports what went wrong with it when the test ends.
///
/// Tests run in parallel, so a registry shared between them leaks one test's filters into
/// another. With this trait every test (every case of a parameterized test) gets a fresh
/// registry; hand its ``MockRegistry/session`` to the code under test:
///
/// ```swift
/// @Test(.mocking) func loadsUser() async throws {
///     MockRegistry.current.register(.get("https://api.test/users/7"), respond: .json(["id": 7, "name": "Ada"]))
///     let user = try await UsersClient(session: MockRegistry.current.session).user(7)
///     #expect(user.name == "Ada")
/// }
///
/// @Suite(.mocking { $0.register(.get("https://api.test/health"), respond: .string("ok")) })
/// struct UsersTests {
///     @Test(.mocking { $0.register(.get("https://api.test/users/7"), respond: .json(["id": 7])) })
///     func loadsUser() async throws { ... }   // sees both filters
/// }
/// ```
///
/// When the test ends, each of these is recorded as an issue:
/// - a request no filter matched (with the registry's unmatched policy, `.fail` by default),
///   with its report of the nearest filters, at the test's declaration;
/// - a request that reached ``MockRegistry/shared`` through `URLSession.shared` or
///   `MockURLProtocol.self` from inside the test, at the test's declaration;
/// - a filter marked ``RequestFilter/expected(fileID:filePath:line:column:)`` that nothing
///   matched, at the line that marked it.
///
/// On a suite, the trait applies to every test in it. Traits on a suite and its tests, and
/// ``CassetteTrait``, share one registry per test: the outermost makes it. What a test's own
/// closure registers is tried before what its suite's registered, so a test can override a
/// suite-wide answer.
public struct MockingTrait: TestTrait, SuiteTrait, TestScoping {
    let unmatchedPolicy: UnmatchedRequestPolicy
    let configure: (@Sendable (MockRegistry) async throws -> Void)?

    /// Applies to every test of a suite, each with its own registry.
    public var isRecursive: Bool { true }

    /// A scope for each test case; none for a suite itself, whose tests get their own.
    public func scopeProvider(for test: Test, testCase: Test.Case?) -> MockingTrait? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        try await TestRegistryScope.run(
            unmatchedPolicy: unmatchedPolicy, reportingAt: test.sourceLocation, configure: configure
        ) { _ in
            try await function()
        }
    }
}

extension Trait where Self == MockingTrait {
    /// Each test gets its own ``MockRegistry`` as ``MockRegistry/current``; see ``MockingTrait``.
    ///
    /// ```swift
    /// @Test(.mocking) func loadsUser() async throws { ... }
    /// ```
    public static var mocking: Self {
        MockingTrait(unmatchedPolicy: .fail, configure: nil)
    }

    /// Each test gets its own ``MockRegistry`` as ``MockRegistry/current``, with the filters
    /// `configure` registers; see ``MockingTrait``.
    ///
    /// ```swift
    /// @Test(.mocking { $0.register(.get("https://api.test/users/7"), respond: .json(["id": 7])) })
    /// func loadsUser() async throws { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - unmatchedPolicy: what happens to requests no filter matches; `.fail` (reported at
    ///     the end of the test) by default. It applies when this trait makes the registry, not
    ///     when an outer trait did.
    ///   - configure: registers filters, folders or cassettes; it runs before the test, and
    ///     what it throws fails the test.
    public static func mocking(
        unmatchedPolicy: UnmatchedRequestPolicy = .fail,
        _ configure: @escaping @Sendable (MockRegistry) async throws -> Void
    ) -> Self {
        MockingTrait(unmatchedPolicy: unmatchedPolicy, configure: configure)
    }
}
