import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// A contract's answer that isn't ready is made off URL loading's queue, after the request is
/// journaled: what the journal says of it is the same as when it was made at once.
@Suite("When a contract's answer is made", .timeLimit(.minutes(3)), .hangGuard)
struct ContractAnswerTimingTests {
    static let contract = """
        {"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"},
         "paths": {"/pets/{petId}": {"get": {"operationId": "getPet",
           "parameters": [{"name": "petId", "in": "path", "required": true, "schema": {"type": "integer"}}],
           "responses": {"200": {"description": "A pet", "content": {"application/json": {"schema": {
             "type": "object", "required": ["id", "name"],
             "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}}}}}}}}}
        """

    func registry(
        _ generation: OpenAPIContract.Generation, validation: OpenAPIContract.Validation
    ) throws
        -> (MockRegistry, TemporaryFolder)
    {
        let folder = try TemporaryFolder()
        let file = try folder.write("openapi.json", Self.contract)
        let registry = MockRegistry()
        registry.register(try OpenAPIContract(contentsOf: file), validation: validation, generation: generation)
        return (registry, folder)
    }

    @Test(
        "a request that isn't waited for: once the journal has it, it has how the contract answered and what it broke")
    func journalWaitsForTheAnswer() async throws {
        let (registry, folder) = try registry(.dynamic(seed: 7), validation: .warn)
        let session = registry.makeSession()
        let sent = Task { try await session.data(from: try #require(URL(string: "https://pets.test/pets/rex"))) }
        _ = try await registry.waitForRequests(count: 1)
        // Read at once, without waiting for the response: the entry waits for the answer.
        let answer = try #require(registry.journal.first?.contractAnswer)
        // The seed is drawn from the registration's seed and the request: the same in every run.
        #expect(answer.description == "getPet 200 dynamic 3979966042720873199")
        #expect(answer.violations == [#"path petId: expected integer, got "rex""#])
        #expect(registry.contractViolations.count == 1)
        let (_, response) = try await sent.value
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        _ = folder
    }

    @Test("the same request gets the same bytes whether its answer was made at once or later")
    func sameBytes() async throws {
        let (registry, folder) = try registry(.static, validation: .strict)
        let session = registry.makeSession()
        let url = try #require(URL(string: "https://pets.test/pets/7"))
        // The first is made off the queue; the next ones are the operation's ready answer.
        let bodies = try await (0..<3).asyncMap { _ in try await session.data(from: url).0 }
        #expect(Set(bodies).count == 1)
        #expect(
            registry.journal.map { $0.contractAnswer?.description }
                == Array(repeating: "getPet 200 generated", count: 3))
        _ = folder
    }
}

extension Sequence {
    fileprivate func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
