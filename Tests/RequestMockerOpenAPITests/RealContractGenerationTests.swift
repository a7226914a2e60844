import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

@Suite(
    "Real contracts' generated values", .enabled(if: RealContracts.available, RealContracts.skipped),
    .timeLimit(.minutes(3)), .hangGuard, .ownThread)
struct RealContractGenerationTests {
    /// Every schema under `components/schemas`, generated statically for responses and
    /// requests and dynamically from two seeds, passes its own schema by our validator, and the
    /// response values by Python's `jsonschema` too (with the document's `nullable` and Boolean
    /// exclusive bounds said as Draft 2020-12 says them, as the contract reader reads them).
    @Test(arguments: ["openai/openapi.json", "twilio/spec/json/twilio_api_v2010.json"])
    func everyGeneratedValuePassesItsSchema(file: String) async throws {
        let url = RealContracts.url(file)
        let contract = try OpenAPIContract(contentsOf: url)
        let schemas = try RealContracts.componentSchemas(of: url)
        var failures: [String] = []
        var generated: [String: JSONValue] = [:]
        for name in schemas.keys.sorted() {
            let schema = try contract.schema(at: "#/components/schemas/" + name)
            for (direction, seed) in [
                (SchemaValidator.Direction.response, nil), (.request, nil), (.response, 1), (.response, 2),
            ] as [(SchemaValidator.Direction, UInt64?)] {
                do {
                    let value = try SchemaGenerator.value(for: schema, direction: direction, seed: seed)
                    if direction == .response {
                        generated[name + "/" + (seed.map(String.init) ?? "static")] = value.jsonValue
                    }
                    let violations = SchemaValidator.violations(
                        of: value.jsonValue, against: schema, direction: direction)
                    if !violations.isEmpty {
                        let shown = String(decoding: value.jsonBytes.prefix(300), as: UTF8.self)
                        let mode = seed.map(String.init) ?? "static"
                        failures.append("\(name) \(direction) \(mode): \(violations.prefix(3)) \(shown)")
                    }
                } catch {
                    failures.append("\(name) \(direction) \(seed.map(String.init) ?? "static"): \(error)")
                }
            }
        }
        #expect(failures == [])
        let folder = try TemporaryFolder()
        let values = try folder.write("values.json", try JSONValue.object(generated).serialized())
        try await Tool.jsonschema.require()
        let failed = try await RealContracts.failingJSONSchema(
            values: values, in: url, pointer: { "#/components/schemas/" + $0.split(separator: "/")[0] })
        #expect(failed == [])
    }
}
