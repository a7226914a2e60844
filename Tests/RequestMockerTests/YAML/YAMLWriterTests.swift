import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// The YAML writer (issue 38's drafts are written with it): its layout, and trees that come back
/// the same from our reader and from PyYAML, a YAML 1.1 reader no one here wrote.
@Suite("Writing YAML", .timeLimit(.minutes(3)), .hangGuard, .ownThread)
struct YAMLWriterTests {
    static func tree(_ json: String) throws -> DocumentNode {
        try DocumentNode.parseJSON(Array(json.utf8))
    }

    @Test("block style: members in order, two spaces a level, an entry's object on its dash's line")
    func layout() throws {
        let tree = try Self.tree(
            ##"""
            {"openapi": "3.1.0", "paths": {"/pets/{petId}": {"get": {"parameters": [{"name": "petId", "in": "path"},
            {"$ref": "#/components/parameters/Limit"}], "responses": {"200": {"description": "A pet"}}}}},
            "tags": [["a", "b"], []], "empty": {}, "none": null, "count": 3, "ratio": 0.5, "big": 1e20}
            """##)
        #expect(
            YAMLWriter.text(of: tree) == """
                openapi: "3.1.0"
                paths:
                  /pets/{petId}:
                    get:
                      parameters:
                        - name: petId
                          in: path
                        - $ref: "#/components/parameters/Limit"
                      responses:
                        "200":
                          description: "A pet"
                tags:
                  -
                    - a
                    - b
                  - []
                empty: {}
                none: null
                count: 3
                ratio: 0.5
                big: 1.0e+20

                """)
    }

    /// Keys and strings that a plain scalar would turn into something else, in either YAML.
    static let tricky = ##"""
        {"null": "null", "True": "True", "yes": "yes", "on": "off", "y": "n", "~": "~", "200": "012",
         "1e3": "1e3", "0x1F": "0x1F", "": "", " lead": "trail ", "a: b": "a: b", "#x": "# not a comment",
         "-x": "- item", "[x]": "{x}", "*alias": "&anchor", "!tag": "%directive", "multi": "line\nbreaks\n",
         "tab": "a\tb", "quote": "say \"hi\" 'there'", "back\\slash": "C:\\temp", "unicode": "héllo ✓ 𝄞",
         "control": "\u0001\u001f", ".inf": ".nan", "<<": "=", "plain_key": "plain/value-1.0_{x}$",
         "numbers": [0, -1, 9223372036854775807, -9223372036854775808, 1.5, -0.0, 5e-324, 1.7976931348623157e308,
          18446744073709551616, 0.1000000000000000055511151231257827],
         "nested": [[[]], [{}], [{"a": [{"b": null}]}], {"c": {"d": [1, [2, [3]]]}}], "bools": [true, false]}
        """##

    @Test("tricky keys, strings and numbers come back the same from our reader and from PyYAML")
    func roundTrips() async throws {
        let tree = try Self.tree(Self.tricky)
        let yaml = YAMLWriter.bytes(of: tree)
        #expect(try YAMLReader.parse(yaml).jsonBytes == tree.jsonBytes)
        try await Tool.pyyaml.require()
        let folder = try TemporaryFolder()
        let yamlFile = try folder.write("tree.yaml", Data(yaml))
        let jsonFile = try folder.write("tree.json", Self.tricky)
        let python = try await ExternalProcess.python(
            """
            import json, sys, yaml
            loaded = yaml.safe_load(open(sys.argv[1], encoding="utf-8"))
            expected = json.load(open(sys.argv[2], encoding="utf-8"))
            same = json.dumps(loaded, sort_keys=True) == json.dumps(expected, sort_keys=True)
            print("same" if same else json.dumps(loaded, sort_keys=True))
            """, [yamlFile.path, jsonFile.path])
        #expect(python.output == "same\n", "\(python.error)")
    }

    @Test("a tree as deep as the YAML reader allows is written on the smallest stack and read back")
    func deep() async throws {
        let depth = YAMLReader.maximumNesting - 1
        var json = ""
        for level in 0..<depth { json += level.isMultiple(of: 2) ? #"{"k":"# : "[" }
        json += "1"
        for level in (0..<depth).reversed() { json += level.isMultiple(of: 2) ? "}" : "]" }
        let tree = try Self.tree(json)
        let yaml = try await onThread { YAMLWriter.bytes(of: tree) }
        #expect(try YAMLReader.parse(yaml).jsonBytes == tree.jsonBytes)
    }

    @Test(
        "real contracts, JSON and YAML, come back the same",
        .enabled(if: RealContracts.available, RealContracts.skipped),
        arguments: [
            "openai/openapi.json", "twilio/spec/json/twilio_api_v2010.json", "openai/openapi.yaml",
            "petstore/prism/petstore.no-auth.circular.oas3.yaml",
        ])
    func realContracts(path: String) throws {
        let bytes = [UInt8](try Data(contentsOf: RealContracts.url(path)))
        let tree = path.hasSuffix(".json") ? try DocumentNode.parseJSON(bytes) : try YAMLReader.parse(bytes)
        #expect(try YAMLReader.parse(YAMLWriter.bytes(of: tree)).jsonBytes == tree.jsonBytes)
    }
}
