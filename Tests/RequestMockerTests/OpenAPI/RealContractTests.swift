import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// Real contracts, read from `../shared/openapi` beside the checkout (the project's test data,
/// not shipped with the package). Where that folder is absent (a user's clone) these tests are
/// skipped, and say so.
enum RealContracts {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/RequestMockerTests/OpenAPI
        .deletingLastPathComponent()  // Tests/RequestMockerTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the checkout
        .deletingLastPathComponent()  // the folder beside it
        .appendingPathComponent("shared/openapi")

    static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path)
    }

    static let skipped: Comment = "../shared/openapi (the project's real contracts) is not beside this checkout"

    static func url(_ path: String) -> URL { folder.appendingPathComponent(path) }
}

@Suite(
    "Real contracts", .enabled(if: RealContracts.available, RealContracts.skipped), .timeLimit(.minutes(3)),
    .hangGuard)
struct RealContractTests {
    /// The operations each has, as `../shared/openapi/README.md` counts them, and the paths that
    /// declare at least one (the README's 182 and 121 paths; 5 of Twilio's declare no operation).
    @Test(arguments: [
        ("openai/openapi.json", "3.1.0", 182, 288), ("twilio/spec/json/twilio_api_v2010.json", "3.0.1", 116, 197),
    ])
    func operationCountsAreTheReadmes(file: String, version: String, paths: Int, operations: Int) throws {
        let contract = try OpenAPIContract(contentsOf: RealContracts.url(file))
        #expect(contract.version == version)
        #expect(contract.operations.count == operations)
        #expect(Set(contract.operations.map(\.path)).count == paths)
    }

    @Test("OpenAI: the methods' counts, the deprecated operations, and the paths that carry a query")
    func openAI() throws {
        let contract = try OpenAPIContract(contentsOf: RealContracts.url("openai/openapi.json"))
        let methods = Dictionary(grouping: contract.operations, by: \.method).mapValues(\.count)
        #expect(methods == [.get: 122, .post: 123, .delete: 43])
        #expect(contract.operations.filter(\.isDeprecated).count == 15)
        #expect(contract.operations.filter { $0.path.contains("?") }.count > 0)
        #expect(contract.operations.contains { $0.mediaTypes.contains("text/event-stream") })
    }

    @Test("Twilio: the methods' counts, and every request body is a form")
    func twilio() throws {
        let contract = try OpenAPIContract(contentsOf: RealContracts.url("twilio/spec/json/twilio_api_v2010.json"))
        let methods = Dictionary(grouping: contract.operations, by: \.method).mapValues(\.count)
        #expect(methods == [.get: 103, .post: 62, .delete: 32])
        let forms = contract.operations.filter { !$0.requestMediaTypes.isEmpty }
        #expect(forms.count == 62)
        #expect(forms.allSatisfy { $0.requestMediaTypes == ["application/x-www-form-urlencoded"] })
    }
}
