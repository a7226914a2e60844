import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Keywords beside `allOf`, `$ref` and `oneOf` (an `enum` of one beside an `allOf` of a wider
/// one, a `const` in a `oneOf` branch beside a shared `enum`, bounds beside a `$ref`, branches
/// that differ only in `required`): each case of `Fixtures/OpenAPI/sibling-cases.json` is
/// generated statically and from seeds, and every value passes the whole schema, by our
/// validator and by Python's `jsonschema`.
@Suite("Generating values where keywords stand beside combinators", .timeLimit(.minutes(3)), .hangGuard)
struct SiblingKeywordTests {
    static func corpus() throws -> URL {
        try #require(
            Bundle.module.url(forResource: "Fixtures/OpenAPI/sibling-cases", withExtension: "json"),
            "Fixtures/OpenAPI/sibling-cases.json is missing from the test bundle")
    }

    @Test func everyCasePassesBothValidators() async throws {
        let url = try Self.corpus()
        guard case .object(let cases)? = try JSONValue(parsing: Data(contentsOf: url))["$defs"] else {
            Issue.record("sibling-cases.json has no $defs")
            return
        }
        var values: [String: JSONValue] = [:]
        var failures: [String] = []
        for name in cases.keys.sorted() where !name.hasPrefix("_") {
            let schema = try SchemaCompiler.compile(
                json: [UInt8](try Data(contentsOf: url)), at: "#/$defs/\(name)", as: url)
            for seed in [nil] + (1...8).map(UInt64.init) {
                let value = try SchemaGenerator.value(for: schema, direction: .response, seed: seed).jsonValue
                let violations = SchemaValidator.violations(of: value, against: schema, direction: .response)
                if !violations.isEmpty {
                    failures.append("\(name) \(seed.map(String.init) ?? "static"): \(violations)")
                }
                values["\(name) \(seed.map(String.init) ?? "static")"] = value
            }
        }
        #expect(failures == [])
        // What each case gives statically, pinned: the sibling keyword decides.
        let expected: [String: JSONValue] = [
            "enumBesideAllOfOfConsts": 17, "enumBesideAllOfOfAnEnum": 17, "constBesideAllOfOfConsts": 4,
            "enumBesideRef": "archived", "constInAOneOfBranchBesideASharedEnum": "archived",
            "enumBesideAnyOfOfConsts": "c", "boundsBesideRef": 10, "exclusiveBoundBesideRef": 99.75,
            "enumBesideAllOfWithBounds": 40, "formatBesideAllOf": "2026-01-01", "patternBesideRef": "AAA",
            "lengthBesideRef": "stringxxxxxx",
            "itemsOfBranchesWithEnumsBesideAllOf": [
                ["type": 2, "style": 1, "label": "string"], ["type": 2, "style": 1, "label": "string"],
            ],
            "discriminatedBranchesWithEnumsBesideAllOf": ["kind": "dog", "barks": true],
            "branchesThatDifferOnlyInRequired": ["method": "password", "email": "user@example.com"],
            "requiredOnlyBranches": ["at": 0, "email": "string"],
            "enumBesideAllOfInsideAnyOf": "x",
        ]
        for (name, value) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(values["\(name) static"] == value, "\(name)")
        }
        let folder = try TemporaryFolder()
        let file = try folder.write("values.json", try JSONValue.object(values).serialized())
        let failed = try await RealContracts.failingJSONSchema(
            values: file, in: url, pointer: { "#/$defs/" + ($0.split(separator: " ").first.map(String.init) ?? "") })
        #expect(failed == [])
    }
}
