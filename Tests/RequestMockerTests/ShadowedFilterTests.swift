import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("Shadowed filters and queries in URL patterns", .timeLimit(.minutes(3)), .hangGuard)
struct ShadowedFilterTests {
    @Test("a filter registered after one that answers all its requests is reported, naming both lines")
    func shadowed() {
        let registry = MockRegistry()
        let generalLine = #line + 1
        registry.register(.get("/users/<id>"), respond: .json(["id": 1]))
        let specificLine = #line + 1
        registry.register(.get("/users/404"), respond: .status(404))
        #expect(
            registry.diagnostics == [
                "GET /users/404 (ShadowedFilterTests.swift:\(specificLine)) is shadowed by GET /users/<id> "
                    + "(ShadowedFilterTests.swift:\(generalLine)): the earlier filter answers every request this one "
                    + "would; register this one with at: .first, or narrow the earlier one"
            ])
        #expect(registry.shadowedFilters.map(\.shadowedBy.path) == ["/users/<id>"])
    }

    @Test(
        "what covers a later filter, and what doesn't",
        arguments: [
            (RequestFilter.get("/users/<id>"), RequestFilter.get("/users/7"), true),
            (.any("/users/*"), .delete("/users/7"), true),
            (.get("/**"), .get("/a/b/c"), true),
            (.get("*"), .get("/a/b"), true),
            (.get("/a/**/z"), .get("/a/b/**/z"), true),
            (.get("/a/**"), .get("/a"), true),
            (.get("/users/<id>"), .get("/users/7/posts"), false),
            (.get("/users/7"), .get("/users/<id>"), false),
            (.get("/a/*"), .get("/a/**"), false),
            (.post("/users/<id>"), .get("/users/7"), false),
            (.get("https://a.test/users/<id>"), .get("https://b.test/users/7"), false),
            (.get("/users/<id>").header("X-A"), .get("/users/7"), false),
            (.get("/users/<id>").respond(with: .status(200).times(2)), .get("/users/7"), false),
            (.get("https://A.test/x"), .get("https://a.test/x"), true),
            (.get("/x"), .get("/x").header("X-A"), true),
            // A lone `*` matches every path, so only what matches every path covers it.
            (.get("/<slug>"), .get("*"), false),
            (.get("/**/<x>"), .get("*"), false),
            (.get("/**"), .get("*"), true),
            // A sequence that runs dry never shadows.
            (.get("/x").respond(with: .sequence([])), .get("/x"), false),
            (.get("/x").respond(with: .sequence([.status(200), .status(201).times(2)])), .get("/x"), false),
            (.get("/x").respond(with: .sequence([.status(200), .status(201)])), .get("/x"), true),
        ])
    func covering(earlier: RequestFilter, later: RequestFilter, shadows: Bool) {
        let registry = MockRegistry()
        registry.register(earlier)
        registry.register(later)
        #expect(registry.shadowedFilters.count == (shadows ? 1 : 0))
    }

    @Test("a filter put first on purpose overrides the ones it covers, and nothing is reported")
    func overriding() async throws {
        let registry = MockRegistry()
        registry.register(.get("/users/<id>"), respond: .json(["id": 1]))
        registry.register(.get("/users/404"), respond: .status(404), at: .first)
        #expect(registry.diagnostics.isEmpty)
        let (_, response) = try await registry.makeSession().data(from: url("https://api.test/users/404"))
        #expect(response.status == 404)
    }

    @Test("10,000 literal filters are checked quickly, and one shadowed among them is found")
    func many() {
        let registry = MockRegistry()
        for index in 0..<10_000 { registry.register(.get("/items/\(index)"), respond: .status(200)) }
        registry.register(.get("/items/17"), respond: .status(404))
        #expect(registry.shadowedFilters.map(\.filter.path) == ["/items/17"])
    }

    @Test("a query in a URL pattern is a condition: those items, others allowed, percent-decoded")
    func queryInPattern() async throws {
        let registry = MockRegistry()
        registry.register(.get("https://api.test/search?q=swift%20ui&all"), respond: .string("found"))
        let session = registry.makeSession()
        let found = try await session.data(from: url("https://api.test/search?page=2&q=swift%20ui&all"))
        #expect(found.0 == Data("found".utf8))
        await #expect(throws: RequestMockerError.self) {
            _ = try await session.data(from: url("https://api.test/search?q=swift"))
        }
        #expect(registry.filters.first?.description.hasPrefix("GET https://api.test/search ") == true)
        // A fragment never reaches a server, so it isn't matched.
        registry.register(.get("https://api.test/page#section"), respond: .string("page"))
        #expect(try await session.data(from: url("https://api.test/page")).0 == Data("page".utf8))
    }
}
