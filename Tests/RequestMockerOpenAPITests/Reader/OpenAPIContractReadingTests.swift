import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Reading a contract: its operations through `$ref`s within and across files, and every
/// refusal with the file, line, column and pointer of the problem.
@Suite("Reading an OpenAPI contract", .timeLimit(.minutes(3)), .hangGuard)
struct OpenAPIContractReadingTests {
    static func fixture(_ path: String) throws -> URL {
        try #require(
            Bundle.module.url(forResource: "Fixtures/OpenAPI/" + path, withExtension: nil),
            "Fixtures/OpenAPI/\(path) is missing from the test bundle")
    }

    /// The error reading `text` (written as `openapi.json` beside `others`) gives.
    static func error(reading text: String, with others: [String: String] = [:]) throws -> OpenAPIContract.Error {
        let folder = try TemporaryFolder()
        for (name, contents) in others { try folder.write(name, contents) }
        let url = try folder.write("openapi.json", text)
        do {
            _ = try OpenAPIContract(contentsOf: url)
        } catch {
            #expect(error.file.lastPathComponent.hasSuffix(".json"))
            return error
        }
        throw ReadAnyway()
    }

    /// A contract that should have been refused was read.
    struct ReadAnyway: Error {}

    @Test("operations in document order, through $refs to path items, operations and responses in other files")
    func operationsThroughReferences() throws {
        let contract = try OpenAPIContract(contentsOf: try Self.fixture("shop/openapi.json"))
        #expect(contract.version == "3.1.0")
        #expect(contract.title == "Shop")
        #expect(contract.operations.map(\.description) == ["listPets", "createPet", "getPet", "deletePet", "getPhoto"])
        #expect(
            contract.operations.map { "\($0.method) \($0.path)" } == [
                "GET /pets", "POST /pets", "GET /pets/{petId}", "DELETE /pets/{petId}", "GET /pets/{petId}/photo",
            ])
        #expect(
            contract.operations.map(\.statuses) == [
                ["200", "default"], ["201", "4XX"], ["200", "404"], ["204"], ["200"],
            ])
        #expect(
            contract.operations.map(\.mediaTypes) == [
                ["application/json", "application/problem+json"], ["application/problem+json"],
                ["application/json", "application/xml", "application/problem+json"], [], ["image/png"],
            ])
        #expect(contract.operations[1].requestMediaTypes == ["application/json", "application/x-www-form-urlencoded"])
        #expect(contract.operations.map(\.isDeprecated) == [false, false, false, true, false])
        #expect(contract.operations.map(\.pointer).last == "#/paths/~1pets~1{petId}~1photo/get")
        #expect(
            contract.notices == [
                "1 operation is given as a $ref, which the specification doesn't allow there; read from what the "
                    + "$ref names: GET /pets/{petId}/photo"
            ])
    }

    @Test("Swagger 2.0, a file that isn't a contract, and an unknown version are refused with what to do")
    func versions() throws {
        let swagger = try Self.error(reading: #"{"swagger": "2.0", "paths": {}}"#)
        #expect("\(swagger.line ?? 0):\(swagger.column ?? 0) \(swagger.pointer)" == "1:13 #/swagger")
        #expect(swagger.reason == "this is a Swagger 2.0 document; convert it to OpenAPI 3 first")
        #expect(
            try Self.error(reading: #"{"info": {}}"#).reason
                == #"not an OpenAPI contract: there is no "openapi" field at the top"#)
        #expect(
            try Self.error(reading: "[1]").reason
                == #"a contract is a JSON object with an "openapi" field; this is an array"#)
        let four = try Self.error(reading: "{\n  \"openapi\": \"4.0.0\"\n}")
        #expect("\(four.line ?? 0):\(four.column ?? 0)" == "2:14")
        #expect(four.reason == "OpenAPI 4.0.0 is not read; OpenAPI 3.0 and 3.1 are (and 3.2, read as 3.1)")
        #expect(
            try Self.error(reading: #"{"openapi": true}"#).reason
                == #""openapi" is a Boolean; write the version as a string, such as "3.1.0""#)
    }

    @Test("3.2 is read as 3.1, with one notice; a contract without paths has no operations")
    func version32() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write("openapi.json", #"{"openapi": "3.2.0", "info": {"title": "t", "version": "1"}}"#)
        let contract = try OpenAPIContract(contentsOf: url)
        #expect(contract.operations.isEmpty)
        #expect(contract.notices == ["OpenAPI 3.2.0 is read as 3.1: what 3.2 adds is not used"])
    }

    @Test("the notices: unused features counted once, and examples and defaults that break their schemas")
    func notices() throws {
        let folder = try TemporaryFolder()
        let url = try folder.write(
            "openapi.json",
            ##"""
            {"openapi": "3.1.0", "info": {"title": "t", "version": "1"}, "webhooks": {"ping": {}},
             "paths": {"/pets": {"get": {"callbacks": {"done": {}},
               "responses": {"200": {"description": "ok", "links": {"self": {}}, "content": {"application/json": {
                 "schema": {"type": "object", "properties": {"links": {"type": "string"}, "xml": {"type": "string"},
                   "age": {"type": "integer", "default": "old"}}, "patternProperties": {"^x": {}}},
                 "examples": {"good": {"value": {"age": 1}}, "bad": {"value": {"age": "x"}}}}}}}}}}}
            """##)
        let contract = try OpenAPIContract(contentsOf: url)
        #expect(
            contract.notices == [
                #"openapi.json#/paths/~1pets/get/responses/200/content/application~1json/examples/bad breaks its "#
                    + #"schema (/age: expected integer, got "x"); served as written"#,
                #"openapi.json#/paths/~1pets/get/responses/200/content/application~1json/schema/properties/age: "#
                    + #"its default breaks the schema (/: expected integer, got "old"); generated values leave it out"#,
                "not used by the mock: callbacks (1), webhooks (1), links (1), patternProperties (1)",
            ])
    }

    @Test("a $ref on the network is refused at its place, with what to do")
    func networkReference() throws {
        let error = try Self.error(
            reading: """
                {"openapi": "3.0.3", "paths": {"/a": {"get": {"responses": {
                  "200": {"$ref": "https://example.com/responses.json#/Ok"}}}}}}
                """)
        #expect("\(error.line ?? 0):\(error.column ?? 0)" == "2:10")
        #expect(error.pointer == "#/paths/~1a/get/responses/200")
        #expect(
            error.reason
                == #"the $ref "https://example.com/responses.json#/Ok" is on the network, and the mock never touches "#
                + "the network; download it and refer to it by path")
    }

    @Test("a $ref to nothing, to a missing file, or to an anchor says which")
    func brokenReferences() throws {
        let contract = #"{"openapi": "3.0.3", "paths": {"/a": {"get": {"responses": {"200": {"$ref": "REF"}}}}}}"#
        func reason(_ reference: String) throws -> String {
            try Self.error(reading: contract.replacingOccurrences(of: "REF", with: reference)).reason
        }
        #expect(
            try reason("#/components/responses/Ok")
                == ##"the $ref "#/components/responses/Ok" names nothing: "##
                + #"openapi.json has no "components" at the top; "#
                + "check the spelling")
        let missing = try reason("missing.json")
        #expect(missing.hasPrefix(#"the $ref "missing.json" names a file that isn't there: /"#))
        #expect(
            missing.hasSuffix("/missing.json (a relative $ref is resolved against the folder of the file it is in)"))
        #expect(
            try reason("#Ok")
                == ##"the $ref "#Ok" names an anchor (#Ok), which isn't read; use a JSON pointer (#/…)"##)
    }

    @Test("a $ref chain that comes back to itself is refused; a schema that refers to itself, across files, is not")
    func cycles() throws {
        let error = try Self.error(
            reading: """
                {"openapi": "3.0.3", "paths": {"/a": {"$ref": "#/x"}}, "x": {"$ref": "more.json#/y"}}
                """, with: ["more.json": #"{"y": {"$ref": "openapi.json#/x"}}"#])
        #expect(error.pointer == "#/paths/~1a")
        #expect(
            error.reason
                == "the $ref chain openapi.json#/paths/~1a → openapi.json#/x → more.json#/y → openapi.json#/x "
                + "comes "
                + "back to itself and never reaches a value; point one of them at a value")
        var chain = ##"{"openapi": "3.0.3", "paths": {"/a": {"$ref": "#/x0"}}"##
        for index in 0..<65 { chain += ##", "x\##(index)": {"$ref": "#/x\##(index + 1)"}"## }
        let long = try Self.error(reading: chain + #", "x65": {"get": {}}}"#)
        #expect(long.reason == "more than 64 $refs in a row; point it at the value directly")
        // The shop's Pet refers to itself and, through owner.json, back to pet.json: it loads.
        #expect(try OpenAPIContract(contentsOf: try Self.fixture("shop/openapi.json")).operations.count == 5)
    }

    @Test("invalid JSON and a duplicated key point at the line and column, with the pointer of the value")
    func syntax() throws {
        let broken = try Self.error(reading: "{\n  \"openapi\": \"3.0.0\",\n  \"paths\": {\"/a\": {\"get\": tru}}\n}")
        #expect("\(broken.line ?? 0):\(broken.column ?? 0) \(broken.pointer)" == "3:27 #/paths/~1a/get")
        #expect(broken.reason == "invalid JSON: expected true")
        let duplicate = try Self.error(reading: "{\"openapi\": \"3.0.0\",\n \"paths\": {},\n \"paths\": {}}")
        #expect("\(duplicate.line ?? 0):\(duplicate.column ?? 0) \(duplicate.pointer)" == "3:2 #/paths")
        #expect(
            duplicate.reason
                == #"invalid JSON: the key "paths" appears twice in one object (first at line 2, column 2); "#
                + "remove one of them")
        let deep = try Self.error(reading: #"{"openapi": "3.0.0", "x": "# + String(repeating: "[", count: 600))
        #expect("\(deep.line ?? 0):\(deep.column ?? 0)" == "1:538")
        #expect(deep.pointer == "#/x" + String(repeating: "/0", count: 511))
        #expect(deep.reason == "invalid JSON: nesting deeper than 512 levels")
        // YAML, by its content: its errors point into it too.
        let yaml = try Self.error(reading: "openapi: 3.1.0\npaths:\n  /a: [1, 2\n")
        #expect("\(yaml.line ?? 0):\(yaml.column ?? 0)" == "3:7")
        #expect(yaml.reason == "invalid YAML: this collection never ends; close it with ]")
    }

    @Test("a contract without a map of paths is refused where it is")
    func shapes() throws {
        #expect(
            try Self.error(reading: #"{"openapi": "3.0.0", "paths": []}"#).reason
                == #""paths" is an array; it must be an object"#)
    }

    @Test("a missing file is told apart from a broken one")
    func missingFile() throws {
        let folder = try TemporaryFolder()
        do {
            _ = try OpenAPIContract(contentsOf: folder.url.appendingPathComponent("nothing.json"))
            Issue.record("a missing file was read")
        } catch {
            #expect(error.isFileMissing)
            #expect(error.description == folder.url.path + "/nothing.json: #: no such file; check the path")
        }
    }
}
