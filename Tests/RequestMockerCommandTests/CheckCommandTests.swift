import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `request-mocker check`: mocks, stubs and recordings against a contract, one compiler-style
/// line per finding, exit status 1 for an error.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct CheckCommandTests {
    static let petshop = ServeOpenAPITests.petshop

    @Test func eachMockIsCheckedAgainstItsOperation() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Mocks/GET|-v2-pets-7.json", #"{"id": 7, "name": "Rex"}"#)
        try folder.write(
            "Mocks/GET|-v2-pets-8.http",
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"id\": 8, \"name\": 12}")
        try folder.write("Mocks/GET|-v2-pets-9.http", "HTTP/1.1 418 I'm a teapot\r\n\r\n")
        try folder.write("Mocks/GET|-v2-pets.http", "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>pets</p>")
        try folder.write("Mocks/GET|-v2-toys.json", "[]")
        try folder.write(
            "stubs.json",
            """
            {"stubs": [
              {"request": {"method": "GET", "path": "/v2/pets/<id>"}, "response": {"json": {"id": "x", "name": "y"}}},
              {"request": {"path": "/v2/pets"}, "response": {"status": 204}},
              {"request": {"method": "DELETE", "path": "/v2/pets/<id>"}, "response": {"status": 204}}
            ]}
            """)
        let result = try await Command.run(
            ["check", "--openapi", Self.petshop.path, "Mocks", "--stubs", "stubs.json"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.output.split(separator: "\n") == [
                "Mocks/GET|-v2-pets-8.http:1: error: GET /pets/{petId} 200: /name: expected string, got 12",
                "Mocks/GET|-v2-pets-9.http:1: error: GET /pets/{petId} 418: the status is not declared; "
                    + "getPet declares 200, 404",
                "Mocks/GET|-v2-pets.http:1: error: GET /pets 200: Content-Type text/html is not declared; it "
                    + "declares application/json, text/csv",
                "Mocks/GET|-v2-toys.json:1: warning: GET /v2/toys is not in the contract",
                #"stubs.json:2: error: GET /pets/{petId} 200: /id: expected integer, got "x""#,
                "stubs.json:3: warning: the stub matches any method or path; give it a method and a path to check it",
                "checked 7 mocks and the contract's examples against petshop.json: 4 errors, 2 warnings",
            ])
    }

    @Test func aYAMLStubsFilesFindingsPointAtTheirStubsLines() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "stubs.yaml",
            """
            # Stubs for the pet shop.
            stubs:
              - request: {method: GET, path: /v2/pets/7}
                response: {json: {id: 7, name: Rex}}

              - request:
                  method: GET
                  path: /v2/pets/<id>
                response:
                  json: {id: x, name: y}
              - request: {path: /v2/pets}
                response: {status: 204}
            """)
        let result = try await Command.run(
            ["check", "--openapi", Self.petshop.path, "--stubs", "stubs.yaml"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.output.split(separator: "\n") == [
                #"stubs.yaml:6: error: GET /pets/{petId} 200: /id: expected integer, got "x""#,
                "stubs.yaml:11: warning: the stub matches any method or path; give it a method and a path to check it",
                "checked 2 mocks and the contract's examples against petshop.json: 1 error, 1 warning",
            ])
    }

    @Test func correctMocksPassAndTheContractsOwnExamplesAreChecked() async throws {
        let folder = try TemporaryFolder()
        try folder.write("Mocks/GET|-v2-pets-7.json", #"{"id": 7, "name": "Rex"}"#)
        let passing = try await Command.run(["check", "--openapi", Self.petshop.path, "Mocks"], in: folder.url)
        #expect(passing.status == 0)
        #expect(
            passing.output == "checked 1 mock and the contract's examples against petshop.json: 0 errors, 0 warnings\n")
        let contract = try folder.write(
            "api.json",
            """
            {"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {"/a": {"get": {"responses": {
              "200": {"description": "A", "content": {"application/json": {
                "schema": {"type": "integer"},
                "example": "seven"}}}}}}}}
            """)
        let broken = try await Command.run(["check", "--openapi", contract.path], in: folder.url)
        #expect(broken.status == 1)
        #expect(
            broken.output
                == "\(contract.path):4: error: #/paths/~1a/get/responses/200/content/application~1json/example: "
                + #"/: expected integer, got "seven""# + "\n"
                + "checked 0 mocks and the contract's examples against api.json: 1 error, 0 warnings\n")
    }

    @Test func theExampleFolderPassesCheckAndIsServedBeforeItsContract() async throws {
        let arguments = ["--openapi", "Examples/OpenAPI/petstore.json", "Examples/OpenAPI/Mocks"]
        let result = try await Command.run(["check"] + arguments, in: Command.packageRoot)
        #expect(result.status == 0)
        #expect(
            result.output == "checked 2 mocks and the contract's examples against petstore.json: 0 errors, 0 warnings\n"
        )
        let (serving, base) = try await serving(arguments)
        #expect(
            try await ExternalProcess.curl([base.absoluteString + "/v1/pets/3"]).output
                == #"{"id": 3, "name": "Polly", "kind": "bird"}"# + "\n")
        #expect(
            try await ExternalProcess.curl([base.absoluteString + "/v1/pets/1"]).output
                == #"{"id":1,"name":"Rex","kind":"dog"}"#)
        #expect(await serving.interrupt() == 0)
    }

    @Test func aCassettesRecordingsAreChecked() async throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "api.har",
            ##"""
            {"log": {"version": "1.2", "creator": {"name": "t", "version": "1"}, "entries": [
              {"startedDateTime": "2026-01-01T00:00:00.000Z", "time": 1,
               "request": {"method": "GET", "url": "http://x/v2/pets/7", "httpVersion": "HTTP/1.1", "headers": [],
                 "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 0},
               "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
                 "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
                 "content": {"size": 20, "mimeType": "application/json", "text": "{\"id\":\"x\",\"name\":\"a\"}"},
                 "redirectURL": "", "headersSize": -1, "bodySize": 20},
               "cache": {}, "timings": {"send": 0, "wait": 1, "receive": 0}}
            ]}}
            """##)
        let result = try await Command.run(
            ["check", "--openapi", Self.petshop.path, "--cassette", "api.har"], in: folder.url)
        #expect(result.status == 1)
        #expect(
            result.output
                == #"api.har:2: error: GET /pets/{petId} 200: /id: expected integer, got "x""# + "\n"
                + "checked 1 mock and the contract's examples against petshop.json: 1 error, 0 warnings\n")
    }

    @Test func wrongArgumentsAndMissingFilesHaveTheirStatuses() async throws {
        let usage = try await Command.run(["check", "Mocks"])
        #expect(usage.status == 64)
        #expect(
            usage.error
                == "request-mocker: check needs the contract: `request-mocker check --openapi openapi.json Mocks`, "
                + "or `request-mocker check --graphql schema.graphqls --cassette session.har`; or a stubs file whose "
                + "scenarios it checks: `request-mocker check --stubs stubs.json`\n")
        let noContract = try await Command.run(["check", "--openapi", "/nonexistent/api.json"])
        #expect(noContract.status == 66)
        let noFolder = try await Command.run(["check", "--openapi", Self.petshop.path, "/nonexistent/Mocks"])
        #expect(noFolder.status == 66)
        #expect(noFolder.error == "request-mocker: no folder at /nonexistent/Mocks\n")
    }
}
