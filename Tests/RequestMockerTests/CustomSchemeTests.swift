import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// A filter whose pattern names a scheme other than http and https (`myapp://…`, `stub://…`)
/// answers requests with it, through a real `URLSession` task.
@Suite("Custom URL schemes", .timeLimit(.minutes(3)), .hangGuard)
struct CustomSchemeTests {
    let registry = MockRegistry()

    @Test("a filter naming a scheme answers it while registered; http and https are always claimed")
    func aFilterNamingASchemeAnswersIt() async throws {
        let session = registry.makeSession()
        let profile = try #require(URL(string: "myapp://profile/users/7?tab=posts"))
        #if os(Linux)
            // Measured: with no protocol claiming the scheme, FoundationNetworking has no loader.
            #expect(try await urlErrorCode { _ = try await session.data(from: profile) } == .unsupportedURL)
        #else
            #expect(try await urlErrorCode { _ = try await session.data(from: profile) } != nil)
        #endif
        let handle = registry.register(.get("myapp://profile/users/<id>")) { _, captures in
            .json(["id": .string(captures["id"] ?? "")])
        }
        registry.register(.any("STUB://assets/**"), respond: .string("asset"))
        let (data, response) = try await session.data(from: profile)
        #expect(response.status == 200)
        #expect(response.url == profile)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id":"7"}"#)
        #expect(
            try await session.data(from: try #require(URL(string: "stub://assets/icons/a.png"))).0 == Data("asset".utf8)
        )
        #expect(registry.journal.map(\.request.url.scheme) == ["myapp", "stub"])

        // A request with a claimed scheme that no filter matches is reported like any other.
        let miss = await #expect(throws: RequestMockerError.self) {
            _ = try await session.data(from: URL(string: "myapp://settings")!)
        }
        guard case .unmatched(let report) = miss else {
            Issue.record("\(String(describing: miss))")
            return
        }
        #expect(report.request == "GET myapp://settings")

        handle.remove()
        #if os(Linux)
            #expect(try await urlErrorCode { _ = try await session.data(from: profile) } == .unsupportedURL)
        #else
            #expect(try await urlErrorCode { _ = try await session.data(from: profile) } != nil)
        #endif
    }
}
