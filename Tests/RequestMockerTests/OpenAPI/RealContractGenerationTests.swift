import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite(
    "Real contracts' generated values", .enabled(if: RealContracts.available, RealContracts.skipped),
    .timeLimit(.minutes(3)), .hangGuard)
struct RealContractGenerationTests {
    /// Every schema under `components/schemas`, generated statically for responses and
    /// requests and dynamically from two seeds, passes its own schema by our validator, and the
    /// response values by Python's `jsonschema` too (with the document's `nullable` and Boolean
    /// exclusive bounds said as Draft 2020-12 says them, as the contract reader reads them).
    @Test(arguments: ["openai/openapi.json", "twilio/spec/json/twilio_api_v2010.json"])
    func everyGeneratedValuePassesItsSchema(file: String) async throws {
        let url = RealContracts.url(file)
        let contract = try OpenAPIContract(contentsOf: url)
        guard case .object(let schemas)? = try JSONValue(parsing: Data(contentsOf: url))["components"]?["schemas"]
        else {
            Issue.record("\(file) has no components/schemas")
            return
        }
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
        let python = try await ExternalProcess.python(
            """
            import json, sys
            from jsonschema import Draft202012Validator
            doc = json.load(open(sys.argv[1]))
            def upgrade(node):  # 3.0's nullable and Boolean exclusive bounds, as 2020-12 says them
                stack = [node]
                while stack:
                    item = stack.pop()
                    if isinstance(item, list):
                        stack.extend(item)
                    if not isinstance(item, dict):
                        continue
                    if item.get("nullable") is True:
                        if isinstance(item.get("type"), str):
                            item["type"] = [item["type"], "null"]
                        if isinstance(item.get("enum"), list) and None not in item["enum"]:
                            item["enum"].append(None)
                        if "type" not in item:  # null is accepted outright, whatever else it says
                            rest = {key: value for key, value in item.items() if key != "nullable"}
                            item.clear()
                            item["anyOf"] = [{"type": "null"}, rest]
                    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
                        if item.get(exclusive) is True:
                            item[exclusive] = item.pop(bound)
                        elif item.get(exclusive) is False:
                            del item[exclusive]
                    stack.extend(item.values())
            upgrade(doc)  # real 3.1 contracts write nullable too, and both are read as their union
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
            failed = []
            for key, value in sorted(json.load(open(sys.argv[2])).items()):
                error = next(iter(validator(key.rsplit("/", 1)[0]).iter_errors(value)), None)
                if error is not None:
                    failed.append(key + ": " + error.message[-300:])
            print(json.dumps(failed))
            """, [url.path, values.path], timeout: .seconds(120))
        #expect(python.status == 0, "\(python.error)")
        let failed = try JSONDecoder().decode([String].self, from: Data(python.output.utf8))
        #expect(failed == [])
    }
}
