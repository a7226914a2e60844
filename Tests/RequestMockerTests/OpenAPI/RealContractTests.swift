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

@Suite(
    "Real contracts' schemas", .enabled(if: RealContracts.available, RealContracts.skipped), .timeLimit(.minutes(3)),
    .hangGuard)
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
        guard case .object(let schemas)? = try JSONValue(parsing: Data(contentsOf: url))["components"]?["schemas"]
        else {
            Issue.record("\(file) has no components/schemas")
            return
        }
        #expect(schemas.count == expected)
        var broken: [String] = []
        for name in schemas.keys.sorted() {
            let schema = try contract.schema(at: "#/components/schemas/" + name)
            guard let example = schema.example else { continue }
            if !SchemaValidator.violations(of: example, against: schema, direction: .response).isEmpty {
                broken.append(name)
            }
        }
        #expect(broken == expectedBroken)
        try await Tool.jsonschema.require()
        let python = try await ExternalProcess.python(
            """
            import json, sys
            from jsonschema import Draft202012Validator
            doc = json.load(open(sys.argv[1]))
            try:  # jsonschema 4.18 and later
                from referencing import Registry, Resource
                from referencing.jsonschema import DRAFT202012
                registry = Registry().with_resource("urn:doc", Resource(contents=doc, specification=DRAFT202012))
                def validator(name):
                    return Draft202012Validator({"$ref": "urn:doc#/components/schemas/" + name}, registry=registry)
            except ImportError:  # Debian 12's 4.10
                from jsonschema import RefResolver
                resolver = RefResolver.from_schema(doc)
                def validator(name):
                    return Draft202012Validator({"$ref": "#/components/schemas/" + name}, resolver=resolver)
            broken = []
            for name, schema in sorted(doc["components"]["schemas"].items()):
                if isinstance(schema, dict) and "example" in schema and not validator(name).is_valid(schema["example"]):
                    broken.append(name)
            print(json.dumps(broken))
            """, [url.path], timeout: .seconds(120))
        #expect(python.status == 0, "\(python.error)")
        #expect(try JSONDecoder().decode([String].self, from: Data(python.output.utf8)) == expectedBroken)
    }
}
