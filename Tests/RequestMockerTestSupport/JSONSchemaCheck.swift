import Foundation
import RequestMocker
import Testing

extension RealContracts {
    /// The keys of `values` (a JSON object file) whose value Python's `jsonschema` (Draft
    /// 2020-12) finds invalid against the schema at the JSON pointer `pointer(key)` of the
    /// contract at `contract`, each with its first error. The document's `nullable` and
    /// Boolean exclusive bounds are said first as 2020-12 says them, as the contract reader
    /// reads them (real 3.1 contracts write `nullable` too), and a `$ref` that stands where
    /// `properties` belong is read as what it names.
    package static func failingJSONSchema(
        values: URL, in contract: URL, pointer: (String) -> String
    ) async throws -> [String] {
        guard case .object(let members) = try JSONValue(parsing: Data(contentsOf: values)) else {
            return ["\(values.lastPathComponent) is not an object"]
        }
        var pointers: [String: JSONValue] = [:]
        for key in members.keys { pointers[key] = .string(pointer(key)) }
        let folder = try TemporaryFolder()
        let keys = try folder.write("pointers.json", try JSONValue.object(pointers).serialized())
        try await Tool.jsonschema.require()
        let python = try await ExternalProcess.python(
            """
            import json, sys
            from jsonschema import Draft202012Validator
            doc = json.load(open(sys.argv[1]))
            def upgrade(node):
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
                    # A $ref standing where properties belong, read as what it names, as our
                    # reader and the common resolvers read it.
                    properties = item.get("properties")
                    if (isinstance(properties, dict) and list(properties) == ["$ref"]
                            and isinstance(properties["$ref"], str)):
                        target = doc
                        for step in properties["$ref"].lstrip("#").split("/")[1:]:
                            target = target[step.replace("~1", "/").replace("~0", "~")]
                        item["properties"] = dict(target)
                    for bound, exclusive in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
                        if item.get(exclusive) is True:
                            item[exclusive] = item.pop(bound)
                        elif item.get(exclusive) is False:
                            del item[exclusive]
                    stack.extend(item.values())
            upgrade(doc)
            try:  # jsonschema 4.18 and later
                from referencing import Registry, Resource
                from referencing.jsonschema import DRAFT202012
                registry = Registry().with_resource("urn:doc", Resource(contents=doc, specification=DRAFT202012))
                def validator(pointer):
                    return Draft202012Validator({"$ref": "urn:doc" + pointer}, registry=registry)
            except ImportError:  # Debian 12's 4.10
                from jsonschema import RefResolver
                resolver = RefResolver.from_schema(doc)
                def validator(pointer):
                    return Draft202012Validator({"$ref": pointer}, resolver=resolver)
            pointers = json.load(open(sys.argv[3]))
            failed = []
            for key, value in sorted(json.load(open(sys.argv[2])).items()):
                error = next(iter(validator(pointers[key]).iter_errors(value)), None)
                if error is not None:
                    failed.append(key + ": " + error.message[-300:])
            print(json.dumps(failed))
            """, [contract.path, values.path, keys.path], timeout: .seconds(120))
        #expect(python.status == 0, "\(python.error)")
        return try JSONDecoder().decode([String].self, from: Data(python.output.utf8))
    }
}
