import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

extension RealContracts {
    /// The members of the contract's `components/schemas`, by name.
    static func componentSchemas(of url: URL) throws -> [String: JSONValue] {
        guard case .object(let schemas)? = try JSONValue(parsing: Data(contentsOf: url))["components"]?["schemas"]
        else {
            throw ComponentSchemasMissing(file: url.lastPathComponent)
        }
        return schemas
    }

    /// A real contract without `components/schemas`.
    struct ComponentSchemasMissing: Error, CustomStringConvertible {
        let file: String
        var description: String { "\(file) has no components/schemas" }
    }
}

@Suite(
    "Real contracts", .enabled(if: RealContracts.available, RealContracts.skipped), .timeLimit(.minutes(3)),
    .hangGuard, .ownThread)
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

@Suite(
    "Real contracts' schemas", .enabled(if: RealContracts.available, RealContracts.skipped), .timeLimit(.minutes(3)),
    .hangGuard, .ownThread)
struct RealContractSchemaTests {
    /// Every schema under `components/schemas` compiles, and the schemas whose own `example`
    /// breaks them are the ones Python's `jsonschema` (Draft 2020-12, over the same document)
    /// finds: OpenAI's five (a `user: null` where the type is string, a workflow without its
    /// required properties, output items that match none of their `oneOf`), none of Twilio's.
    @Test(arguments: [
        (
            "openai/openapi.json", 1_422,
            ["BetaCompactResource", "BetaResponse", "ChatSessionResource", "CompactResource", "Response"]
        ),
        ("twilio/spec/json/twilio_api_v2010.json", 148, []),
    ])
    func examplesAgainstTheirSchemas(file: String, schemas expected: Int, broken expectedBroken: [String]) async throws
    {
        let url = RealContracts.url(file)
        let contract = try OpenAPIContract(contentsOf: url)
        let schemas = try RealContracts.componentSchemas(of: url)
        #expect(schemas.count == expected)
        var broken: [String] = []
        var examples: [String: JSONValue] = [:]
        for name in schemas.keys.sorted() {
            let schema = try contract.schema(at: "#/components/schemas/" + name)
            guard let example = schema.example else { continue }
            examples[name] = example
            if !SchemaValidator.violations(of: example, against: schema, direction: .response).isEmpty {
                broken.append(name)
            }
        }
        #expect(broken == expectedBroken)
        let folder = try TemporaryFolder()
        let values = try folder.write("examples.json", try JSONValue.object(examples).serialized())
        let failed = try await RealContracts.failingJSONSchema(
            values: values, in: url, pointer: { "#/components/schemas/" + $0 })
        #expect(failed.map { String($0.prefix { $0 != ":" }) } == expectedBroken)
    }
}
