import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `request-mocker serve --openapi`, driven with curl: its summary, its log lines, its options,
/// reloading an edited contract, stubs that answer from it, and its exit codes.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ServeOpenAPITests {
    static let petshop = Command.packageRoot.appendingPathComponent(
        "Tests/RequestMockerServerTests/Fixtures/OpenAPI/petshop.json")

    func waitForLog(_ serving: BackgroundProcess, line: String) async throws {
        try await waitUntil(60, waitingFor: "the server to print \(line)") {
            serving.log.contains("\n" + line + "\n")
        }
    }

    @Test func aContractIsServedWithItsSummaryAndALogLinePerRequest() async throws {
        let (serving, base) = try await serving(["--openapi", Self.petshop.path])
        let url = base.absoluteString
        let dog = try await ExternalProcess.curl(["--include", url + "/v2/pets/7"])
        #expect(dog.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(dog.output.contains("\r\nRequestMocker-OpenAPI: getPet 200 example dog\r\n"))
        #expect(dog.output.hasSuffix(#"{"id":7,"name":"Rex","kind":"dog"}"#))
        let notFound = try await ExternalProcess.curl(["-H", "Prefer: code=404, example=notFound", url + "/v2/pets/7"])
        #expect(notFound.output == #"{"code":404,"message":"no such pet"}"#)
        _ = try await ExternalProcess.curl([url + "/v2/pets/abc"])
        #expect(await serving.interrupt() == 0)
        let lines = serving.log.split(separator: "\n").map { line in
            // The durations vary: `(example "dog", 1.2 ms)` is compared as `(example "dog", X ms)`.
            line.replacing(/\d+\.\d ms\)/, with: "X ms)")
        }
        #expect(
            lines == [
                #"petshop.json: OpenAPI 3.0.3 "Pet shop", 7 operations under /v2"#,
                "Serving \(Self.petshop.path) at \(base) (Ctrl-C to stop)",
                #"GET /v2/pets/7 -> 200 from openapi getPet (example "dog", X ms)"#,
                #"GET /v2/pets/7 -> 404 from openapi getPet (example "notFound", X ms)"#,
                "GET /v2/pets/abc -> 422 from openapi getPet (problem, X ms)",
                #"    path petId: expected integer, got "abc""#,
                "Stopped.",
            ])
    }

    @Test func aStatefulContractPrintsItsResourcesAndRemembersACreate() async throws {
        let shop = Command.packageRoot.appendingPathComponent(
            "Tests/RequestMockerOpenAPITests/Fixtures/OpenAPI/resources/shop.json")
        let (serving, base) = try await serving(["--openapi", shop.path, "--stateful"])
        let url = base.absoluteString + "/v1/pets"
        let created = try await ExternalProcess.curl(
            ["--include", "-H", "Content-Type: application/json", "-d", #"{"name": "Rex"}"#, url])
        #expect(created.output.hasPrefix("HTTP/1.1 201 Created\r\n"))
        #expect(created.output.contains("\r\nLocation: /v1/pets/1\r\n"))
        #expect(try await ExternalProcess.curl([url]).output == #"[{"name":"Rex","id":1}]"#)
        #expect(await serving.interrupt() == 0)
        let lines = serving.log.split(separator: "\n").prefix(12).map(String.init)
        #expect(
            lines == [
                #"shop.json: OpenAPI 3.1.0 "Shop", 26 operations under /v1"#,
                "Resources that remember (--stateful):",
                "    /pets: items /pets/{petId}, id id (integer), list bare, paged by limit/offset (20), filtered by "
                    + "kind, ignores sort",
                #"    /users: items /users/{userId}, id id (uuid), list in "results", item in "user", paged by "#
                    + "page/per_page (10), filtered by name",
                #"    /users/{userId}/posts: items /users/{userId}/posts/{post_id}, id post_id (string), list in "#
                    + #""data", paged by page/pageSize (5)"#,
                #"    /api/parts/: items /api/parts/{id}/, id pk (integer), list in "entries""#,
                "    /tags: items /tags/{label}, id label (string), list bare",
                "    /users/{userId}/settings: a singleton per parent item",
                "    POST /pets/{petId}/adopt: stateless (answered from the contract, remembers nothing)",
                "    GET /orders/{orderId}: stateless (answered from the contract, remembers nothing)",
                "    GET /search: stateless (answered from the contract, remembers nothing)",
                "Serving \(shop.path) at \(base) (Ctrl-C to stop)",
            ])
        let stray = try await Command.run(["serve", "--stateful"])
        #expect(stray.status == 64)
        #expect(stray.error == "request-mocker: --stateful goes with --openapi FILE, which serves a contract\n")
    }

    @Test func theOptionsSetTheBasePathTheValidationAndDynamicBodies() async throws {
        let (serving, base) = try await serving([
            "--openapi", Self.petshop.path, "--base-path", "/api", "--validate", "warn", "--dynamic", "--seed", "7",
        ])
        let url = base.absoluteString
        let warned = try await ExternalProcess.curl(["--include", url + "/api/pets/abc"])
        #expect(warned.output.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(warned.output.contains(#"RequestMocker-Violations: path petId: expected integer, got "abc""#))
        let first = try await ExternalProcess.curl(["--include", url + "/api/pets"])
        let again = try await ExternalProcess.curl([url + "/api/pets"])
        #expect(first.output.contains("\r\nRequestMocker-OpenAPI: listPets 200 dynamic "))
        #expect(first.output.hasSuffix("\r\n\r\n" + again.output))
        #expect(await serving.interrupt() == 0)
    }

    @Test func anEditedContractIsReloadedAndABrokenEditKeepsTheLastGoodOne() async throws {
        let folder = try TemporaryFolder()
        func contract(_ example: String) -> String {
            #"{"openapi": "3.1.0", "info": {"title": "T", "version": "1"}, "paths": {"/hello": {"get": {"#
                + #""operationId": "hello", "responses": {"200": {"description": "Hi", "content": {"#
                + #""application/json": {"example": \#(example)}}}}}}}}"#
        }
        let file = try folder.write("api.json", contract(#""hi""#))
        let (serving, base) = try await serving(["--openapi", file.path])
        #expect(try await ExternalProcess.curl([base.absoluteString + "/hello"]).output == #""hi""#)
        try Data(contract(#""hello again""#).utf8).write(to: file, options: .atomic)
        try await waitForLog(serving, line: #"reloaded api.json: OpenAPI 3.1.0 "T", 1 operation"#)
        #expect(try await ExternalProcess.curl([base.absoluteString + "/hello"]).output == #""hello again""#)
        try Data(##"{"openapi": "3.1.0", "paths": {"/hello": {"$ref": "#/nowhere"}}}"##.utf8).write(
            to: file, options: .atomic)
        try await waitForLog(
            serving,
            line: "\(file.path):1:42: #/paths/~1hello: the $ref \"#/nowhere\" names nothing: api.json has no "
                + "\"nowhere\" at the top; check the spelling; keeping the last good contract")
        #expect(try await ExternalProcess.curl([base.absoluteString + "/hello"]).output == #""hello again""#)
        #expect(await serving.interrupt() == 0)
    }

    @Test func stubsAnswerWithTheContractsDeclaredResponses() async throws {
        let folder = try TemporaryFolder()
        let stubs = try folder.write(
            "stubs.json",
            #"{"stubs": [{"request": {"path": "/v2/pets/<id>"}, "response": {"openapi": "#
                + #"{"operation": "getPet", "status": 404, "example": "notFound"}}}]}"#)
        let (serving, base) = try await serving(["--stubs", stubs.path, "--openapi", Self.petshop.path])
        #expect(
            try await ExternalProcess.curl([base.absoluteString + "/v2/pets/7"]).output
                == #"{"code":404,"message":"no such pet"}"#)
        #expect(await serving.interrupt() == 0)
    }

    @Test func aYAMLContractAndYAMLStubsAreServedAndReloaded() async throws {
        let folder = try TemporaryFolder()
        let contract = try folder.write(
            "api.yaml",
            """
            openapi: 3.1.0
            info: {title: Greeter, version: 2024-10-01}
            paths:
              /hello:
                get:
                  operationId: hello
                  responses:
                    '200':
                      description: Hi
                      content:
                        application/json:
                          examples:
                            plain: {value: {greeting: hi, formal: no}}
                            grand: {value: {greeting: good day, formal: yes}}
            """)
        let stubs = try folder.write(
            "stubs.yaml",
            """
            stubs:
              - request: {path: /grand}
                response:
                  openapi: {operation: hello, example: grand}
            """)
        let (serving, base) = try await serving(["--stubs", stubs.path, "--openapi", contract.path])
        // YAML 1.2: `no` and `yes` are text, not Booleans.
        #expect(
            try await ExternalProcess.curl([base.absoluteString + "/hello"]).output
                == #"{"greeting":"hi","formal":"no"}"#)
        #expect(
            try await ExternalProcess.curl([base.absoluteString + "/grand"]).output
                == #"{"greeting":"good day","formal":"yes"}"#)
        try Data("stubs:\n  - request: {path: /grand}\n    response: {status: 410, body: gone}\n".utf8)
            .write(to: stubs, options: .atomic)
        try await waitForLog(serving, line: "reloaded \(stubs.path): 1 stub")
        #expect(try await ExternalProcess.curl([base.absoluteString + "/grand"]).output == "gone")
        try Data("stubs:\n  - request: {path: /a}\n    response: {status: 200}\n    response: {status: 201}\n".utf8)
            .write(to: stubs, options: .atomic)
        try await waitForLog(
            serving,
            line: "stubs file \(stubs.path):4:5: at (root): invalid YAML: the key \"response\" appears twice in this "
                + "mapping; remove one (first at line 3, column 5); fix the file (its schema is stubs.schema.json); "
                + "keeping the last good stubs")
        #expect(await serving.interrupt() == 0)
    }

    @Test func aBrokenContractExits65AndAMissingOne66() async throws {
        let folder = try TemporaryFolder()
        let swagger = try folder.write("swagger.json", #"{"swagger": "2.0", "paths": {}}"#)
        let broken = try await Command.run(["serve", "--openapi", swagger.path])
        #expect(broken.status == 65)
        #expect(
            broken.error
                == "request-mocker: \(swagger.path):1:13: #/swagger: this is a Swagger 2.0 document; "
                + "convert it to OpenAPI 3 first\n")
        let missing = try await Command.run(["serve", "--openapi", folder.url.path + "/none.json"])
        #expect(missing.status == 66)
        #expect(missing.error == "request-mocker: \(folder.url.path)/none.json: #: no such file; check the path\n")
        for (arguments, message) in [
            (["--dynamic"], "--dynamic goes with --openapi FILE, which serves a contract"),
            (
                ["--openapi", "a.json", "--seed", "3"],
                "--seed goes with --dynamic, which draws generated bodies from it"
            ),
            (
                ["--openapi", "a.json", "--validate", "loose"],
                #"--validate "loose" is not a mode; use strict, warn or off"#
            ),
            (["--openapi", "a.json", "--base-path", "v2"], #"--base-path "v2" must start with /, such as /v2"#),
        ] {
            let result = try await Command.run(["serve"] + arguments)
            #expect(result.status == 64)
            #expect(result.error == "request-mocker: \(message)\n")
        }
    }
}
