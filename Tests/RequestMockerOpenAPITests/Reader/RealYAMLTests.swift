import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// The vendors' YAML contracts next to their JSON: the same tree by YAML 1.2's rules, and the
/// same contract.
@Suite(
    "Real YAML contracts", .enabled(if: RealContracts.available, RealContracts.skipped), .timeLimit(.minutes(3)),
    .hangGuard, .ownThread)
struct RealYAMLTests {
    static func normalized(_ value: JSONValue) -> JSONValue { value.numbersAsDoubles }

    @Test(
        "a vendor's YAML is its JSON, and reads as the same contract",
        arguments: [
            ("openai/openapi.yaml", "openai/openapi.json", 288),
            ("twilio/spec/yaml/twilio_api_v2010.yaml", "twilio/spec/json/twilio_api_v2010.json", 197),
        ])
    func sameTree(yamlPath: String, jsonPath: String, operations: Int) throws {
        let yaml = RealContracts.url(yamlPath)
        let json = RealContracts.url(jsonPath)
        let fromYAML = try YAMLReader.parse([UInt8](try Data(contentsOf: yaml))).jsonValue
        let fromJSON = try JSONValue(parsing: try Data(contentsOf: json))
        #expect(Self.normalized(fromYAML) == Self.normalized(fromJSON))
        // YAML 1.1 would read this as a date; 1.2's core schema keeps it a string.
        #expect(fromYAML["info"]?["version"] == fromJSON["info"]?["version"])
        let (a, b) = (try OpenAPIContract(contentsOf: yaml), try OpenAPIContract(contentsOf: json))
        #expect(a.operations.map(\.description) == b.operations.map(\.description))
        #expect(a.operations.count == operations)
    }

    /// The petstore set's YAML contracts, multi-file ones included, with the counts of paths and
    /// operations its README gives.
    @Test(arguments: [
        ("openapi-spec-validator/v3.0/petstore.yaml", 2, 3),
        ("openapi-spec-validator/v3.0/property-recursive.yaml", 0, 0),
        ("openapi-spec-validator/v3.0/read-only-write-only.yaml", 1, 1),
        ("openapi-spec-validator/v3.0/parent-reference/openapi.yaml", 1, 1),
        ("openapi-spec-validator/v3.0/petstore-separate/spec/openapi.yaml", 2, 3),
        ("openapi-spec-validator/v3.1/petstore.yaml", 2, 3), ("openapi-spec-validator/v3.2/petstore.yaml", 2, 3),
        ("prism/petstore.no-auth.circular.oas3.yaml", 18, 26),
    ])
    func petstoreSet(path: String, paths: Int, operations: Int) throws {
        let contract = try OpenAPIContract(contentsOf: RealContracts.url("petstore/" + path))
        #expect(Set(contract.operations.map(\.path)).count == paths)
        #expect(contract.operations.count == operations)
    }
}
