import Testing

/// The per-test registry the traits share: `.mocking` and `.cassette` on one test (or on a
/// suite and its tests) all work on the same registry, made by the outermost of them.
enum TestRegistryScope {
    /// Runs `configure` and then `body` with the running test's registry. If an outer trait
    /// already made one, it is reused, what `configure` registers goes in front of what the
    /// outer traits registered (the nearer scope wins), and the outer trait reports; otherwise a
    /// new registry becomes `MockRegistry.current` and is reported on when `body` ends, thrown
    /// or not.
    static func run(
        unmatchedPolicy: UnmatchedRequestPolicy,
        reportingAt place: SourceLocation,
        configure: (@Sendable (MockRegistry) async throws -> Void)?,
        _ body: @Sendable (MockRegistry) async throws -> Void
    ) async throws {
        if let outer = MockRegistry.taskRegistry, outer !== MockRegistry.shared {
            if let configure {
                let mark = outer.registrationMark
                try await configure(outer)
                outer.moveToFront(registeredAfter: mark)
            }
            return try await body(outer)
        }
        let registry = MockRegistry(unmatchedPolicy: unmatchedPolicy)
        try await MockRegistry.$taskRegistry.withValue(registry) {
            try await EndOfTestReport.reporting(on: registry, atTest: .test(place)) {
                try await configure?(registry)
                try await body(registry)
            }
        }
    }
}

extension MockRegistry {
    /// The running test's own registry, made by the ``MockingTrait`` (`.mocking`) or
    /// ``CassetteTrait`` (`.cassette`) trait for this test alone; ``shared`` outside such a test.
    ///
    /// ```swift
    /// @Test(.mocking) func loadsUser() async throws {
    ///     MockRegistry.current.register(.get("https://api.test/users/7"), respond: .json(["id": 7, "name": "Ada"]))
    ///     let user = try await UsersClient(session: MockRegistry.current.session).user(7)
    ///     #expect(user.name == "Ada")
    /// }
    /// ```
    ///
    /// It is a task-local: tasks the test starts see it too (detached tasks and other threads
    /// don't). Reading it in a Swift Testing test without one of those traits records an issue,
    /// because registering into ``shared`` there leaks into other tests running in parallel.
    /// In XCTest, keep the registry that `mockRegistry()` returns instead.
    public static var current: MockRegistry {
        if let registry = taskRegistry { return registry }
        if let test = Test.current {
            Issue.record(
                """
                MockRegistry.current is MockRegistry.shared in this test, which every test shares: \
                add the .mocking trait to the test or its suite \
                (or .mockingShared to use the shared registry on purpose)
                """,
                sourceLocation: test.sourceLocation
            )
        }
        return shared
    }
}
