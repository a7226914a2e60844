import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// stubs.schema.json and the stubs reader agree: what one accepts the other accepts. The schema
/// is checked with Python's `jsonschema`.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct StubsSchemaTests {
    static let schema = Command.packageRoot.appendingPathComponent("stubs.schema.json")

    /// Whether the schema accepts each document, in order.
    func schemaAccepts(_ documents: [String]) async throws -> [Bool] {
        try await Tool.jsonschema.require()
        let folder = try TemporaryFolder()
        var paths: [String] = []
        for (index, document) in documents.enumerated() {
            paths.append(try folder.write("\(index).json", document).path)
        }
        let result = try await ExternalProcess.python(
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            print(json.dumps([validator.is_valid(json.load(open(path))) for path in sys.argv[2:]]))
            """, [Self.schema.path] + paths)
        #expect(result.status == 0, "\(result.error)")
        guard case .array(let answers) = try JSONValue(parsing: Data(result.output.utf8)) else { return [] }
        return answers.compactMap(\.boolValue)
    }

    @Test func theExampleFileIsValidForBoth() async throws {
        let example = Command.packageRoot.appendingPathComponent("Examples/stubs.json")
        #expect(try Stub.stubs(contentsOf: example).count == 11)
        #expect(try await schemaAccepts([String(contentsOf: example, encoding: .utf8)]) == [true])
    }

    @Test func theSchemaAndTheReaderAgree() async throws {
        let stubs = [
            (#"{"request": {}, "response": {}}"#, true),
            (
                #"{"request": {"method": "get", "host": "*.api.test", "path": "/a/<b>/**"}, "#
                    + #""response": {"status": 204}}"#,
                true
            ),
            (
                #"{"request": {"query": {"q": null, "page": "2"}, "headers": {"Accept": null}}, "#
                    + #""response": {"body": "x"}}"#,
                true
            ),
            (#"{"request": {"jsonBody": [1, {"a": null}]}, "response": {"json": null, "delay": 0.5}}"#, true),
            (
                #"{"request": {}, "response": {"sequence": [{"status": 503}, {"fault": "stall"}], "#
                    + #""afterLast": "stopMatching"}}"#,
                true
            ),
            (
                #"{"id": "login", "request": {}, "response": {"template": true, "headers": {"X-A": "{{query.a}}"}}}"#,
                true
            ),
            (
                #"{"request": {}, "response": {"chunks": [{"text": "a"}, {"base64": "AAE=", "pause": 0.1}], "#
                    + #""headers": {"Content-Type": "text/plain"}}}"#,
                true
            ),
            (
                #"{"request": {}, "response": {"events": [{"event": "t", "data": "x\ny", "id": "1", "retry": 10}, "#
                    + #"{"comment": "hi"}], "interval": 0.5}}"#,
                true
            ),
            (#"{"request": {}, "response": {"webSocket": "echo", "headers": {"X-A": "b"}}}"#, true),
            (
                #"{"request": {}, "response": {"webSocket": {"onConnect": [{"text": "hi"}], "rules": ["#
                    + #"{"text": "^a (.+)$", "reply": [{"text": "$1"}, {"pause": 0.1}]}, "#
                    + #"{"json": {"t": 1}, "reply": []}, "#
                    + #"{"binary": null, "reply": [{"echo": true}]}, {"binary": "^x"}, "#
                    + #"{"any": true, "reply": [{"base64": "AA=="}, {"close": {"code": 4000, "reason": "bye"}}]}], "#
                    + #""subprotocols": ["chat"], "maximumMessageSize": 4096}}}"#,
                true
            ),
            (
                #"{"request": {"formBody": {"a": "1", "flag": null}, "pathExtension": ".png"}, "#
                    + #""response": {"passThrough": true, "delay": 0.1}}"#,
                true
            ),
            (#"{"request": {"pathExtension": "tar.gz"}, "response": {}}"#, false),
            (#"{"request": {"pathExtension": ""}, "response": {}}"#, false),
            (#"{"request": {"pathExtension": "png/\u0301"}, "response": {}}"#, false),
            (#"{"request": {"pathExtension": ".\u0301png"}, "response": {}}"#, true),
            (#"{"request": {"formBody": {"a": 1}}, "response": {}}"#, false),
            (#"{"request": {}, "response": {"passThrough": false}}"#, false),
            (#"{"request": {}, "response": {"passThrough": true, "status": 200}}"#, false),
            (#"{"request": {}, "response": {"passThrough": true, "headers": {}}}"#, false),
            (#"{"request": {}, "response": {"passThrough": true, "body": "x"}}"#, false),
            (#"{"request": {}, "response": {"passThrough": true, "template": false}}"#, false),
            (#"{"request": {}, "response": {"webSocket": "mirror"}}"#, false),
            (#"{"request": {}, "response": {"webSocket": "echo", "status": 200}}"#, false),
            (#"{"request": {}, "response": {"webSocket": {"rules": [{"reply": []}]}}}"#, false),
            (#"{"request": {}, "response": {"webSocket": {"rules": [{"text": "a", "any": true}]}}}"#, false),
            (#"{"request": {}, "response": {"webSocket": {"onConnect": [{"close": {"code": 1005}}]}}}"#, false),
            (#"{"request": {}, "response": {"webSocket": {"onConnect": [{"text": "a", "echo": true}]}}}"#, false),
            (#"{"request": {}, "response": {"webSocket": {"maximumMessageSize": 10}}}"#, false),
            (#"{"request": {}, "response": {"webSocket": {"subprotocols": ["a b"]}}}"#, false),
            (#"{"request": {}, "response": {"webSocket": "echo", "body": "x"}}"#, false),
            (#"{"request": {}, "response": {"chunks": [{"text": "a", "base64": "AA=="}]}}"#, false),
            (#"{"request": {}, "response": {"chunks": [{"pause": 1}]}}"#, false),
            (#"{"request": {}, "response": {"chunks": [{"text": "a", "pause": -1}]}}"#, false),
            (#"{"request": {}, "response": {"events": [{"id": "a\nb"}]}}"#, false),
            (#"{"request": {}, "response": {"events": [{"event": "a\rb"}]}}"#, false),
            (#"{"request": {}, "response": {"events": [{"retry": -5}]}}"#, false),
            (#"{"request": {}, "response": {"events": [{"name": "x"}]}}"#, false),
            (#"{"request": {}, "response": {"body": "x", "interval": 1}}"#, false),
            (#"{"request": {}, "response": {"template": true, "chunks": []}}"#, false),
            (#"{"request": {}, "response": {"events": [], "chunks": []}}"#, false),
            (#"{"request": {}, "response": {"status": 99}}"#, false),
            (#"{"request": {}, "response": {"status": 101}}"#, false),
            (#"{"request": {}, "response": {"status": "200"}}"#, false),
            (#"{"request": {}, "response": {"json": 1, "base64Body": "AA=="}}"#, false),
            (#"{"request": {}, "response": {"fault": "reset", "headers": {}}}"#, false),
            (#"{"request": {}, "response": {"fault": "explode"}}"#, false),
            (#"{"request": {}, "response": {"sequence": [{"sequence": [{}]}]}}"#, false),
            (#"{"request": {}, "response": {"afterLast": "repeatLast"}}"#, false),
            (#"{"request": {}, "response": {"delay": 4000}}"#, false),
            (#"{"request": {}, "response": {"headers": {"Bad Name": "x"}}}"#, false),
            (#"{"request": {"method": "GE T"}, "response": {}}"#, false),
            (#"{"request": {"host": "a/b"}, "response": {}}"#, false),
            (#"{"request": {"query": {"q": 1}}, "response": {}}"#, false),
            (
                #"{"request": {}, "response": {"openapi": {"operation": "getPet", "status": 404, "#
                    + #""example": "notFound"}, "delay": 0.1}}"#,
                true
            ),
            (#"{"request": {}, "response": {"openapi": {"operation": "getPet"}}}"#, true),
            (#"{"request": {}, "response": {"openapi": {"operation": "getPet"}, "status": 404}}"#, false),
            (#"{"request": {}, "response": {"openapi": {"operation": "getPet"}, "passThrough": true}}"#, false),
            (#"{"request": {}, "response": {"openapi": {"operation": "getPet"}, "json": 1}}"#, false),
            (#"{"request": {}, "response": {"openapi": {"status": 404}}}"#, false),
            (#"{"request": {}, "response": {"openapi": {"operation": "getPet", "status": 700}}}"#, false),
            (#"{"request": {}, "response": {"openapi": {"operation": "getPet", "extra": 1}}}"#, false),
            (#"{"request": {}, "response": {}, "extra": 1}"#, false),
            (#"{"response": {}}"#, false),
        ]
        let documents = stubs.map { #"{"stubs": ["# + $0.0 + "]}" }
        let schemaAnswers = try await schemaAccepts(documents)
        #expect(schemaAnswers == stubs.map(\.1))
        // The reader checks an "openapi" response against the contract it serves.
        let folder = try TemporaryFolder()
        let contract = try OpenAPIContract(
            contentsOf: try folder.write(
                "pets.json",
                #"{"openapi": "3.1.0", "info": {"title": "Pets", "version": "1"}, "paths": {"/pets/{id}": {"get": {"#
                    + #""operationId": "getPet", "responses": {"200": {"description": "A pet"}, "404": {"#
                    + #""description": "None", "content": {"application/json": {"examples": {"notFound": "#
                    + #"{"value": {"code": 404}}}}}}}}}}}"#))
        for (stub, valid) in stubs {
            let accepted = (try? Stub(json: JSONValue(parsing: Data(stub.utf8)), contract: contract)) != nil
            #expect(accepted == valid, "\(stub)")
        }
    }
}
