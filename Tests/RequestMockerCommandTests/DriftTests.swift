import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// `request-mocker check --cassette`: drift between a contract and recorded traffic, each kind of
/// finding once with its rule, operation, pointer and count; as text, JSON and SARIF; coverage.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct DriftTests {
    static let contract = """
        openapi: 3.1.0
        info: {title: Shop, version: "1"}
        paths:
          /pets/{petId}:
            get:
              operationId: getPet
              parameters: [{name: petId, in: path, required: true, schema: {type: integer}}]
              security: [{key: []}]
              responses:
                "200": {description: a pet, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
                "404": {description: no such pet}
          /pets:
            get:
              operationId: listPets
              parameters: [{name: limit, in: query, schema: {type: integer}}]
              responses:
                "200":
                  description: pets
                  content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}
        components:
          securitySchemes: {key: {type: apiKey, in: header, name: X-Api-Key}}
          schemas:
            Pet: {type: object, required: [id, name], properties: {id: {type: integer}, name: {type: string}}}
        """

    /// A server's traffic that breaks the contract in each way a backend drifts.
    static var traffic: [Interaction] {
        let key: HTTPHeaders = ["X-Api-Key": "k-123"]
        return [
            DraftCorpus.exchange("/pets/1", headers: key, response: #"{"id": 1, "name": "Rex"}"#),
            DraftCorpus.exchange("/pets/2", headers: key, response: #"{"id": "2", "name": "Bo"}"#),
            DraftCorpus.exchange("/pets/3", headers: key, response: #"{"id": "3", "name": "Cy"}"#),
            DraftCorpus.exchange("/pets/4", headers: key, response: #"{"id": 4}"#),
            DraftCorpus.exchange("/pets/5", headers: key, response: #"{"id": 5, "name": "Al", "color": "red"}"#),
            DraftCorpus.exchange("/pets/6", headers: key, status: 500, response: #"{"error": "boom"}"#),
            DraftCorpus.exchange("/toys", response: "[]"),
            DraftCorpus.exchange(
                "/pets?limit=2&sort=name", responseHeaders: ["Content-Type": "text/csv"], response: "id,name\n"),
            DraftCorpus.exchange("/pets/7", response: #"{"id": 7, "name": "Di"}"#),
        ]
    }

    static func folder() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("openapi.yaml", contract)
        try TrafficConversion.writeHAR(
            traffic, to: folder.url.appendingPathComponent("traffic.har"), redaction: .default)
        return folder
    }

    @Test func eachKindOfDriftIsFoundOnceWithItsCountAsText() async throws {
        let folder = try Self.folder()
        let result = try await Command.run(
            ["check", "--openapi", "openapi.yaml", "--cassette", "traffic.har", "--coverage"], in: folder.url)
        #expect(result.status == 1)
        let expected: [String] = [
            #"traffic.har:57: error: GET /pets/{petId} 200: /id: expected integer, got "2" (2 times; also at "#
                + "traffic.har:106)",
            #"traffic.har:155: error: GET /pets/{petId} 200: /: missing the required property "name""#,
            "traffic.har:204: warning: GET /pets/{petId} 200: /color is not declared in the schema",
            "traffic.har:253: error: GET /pets/{petId} 500: the status is not declared; getPet declares 200, 404",
            "traffic.har:302: warning: GET /toys is not in the contract",
            "traffic.har:346: warning: GET /pets request: query sort: the operation declares no query parameter "
                + "of this name",
            "traffic.har:346: error: GET /pets 200: Content-Type text/csv is not declared; it declares "
                + "application/json",
            "traffic.har:399: warning: GET /pets/7 request: no credentials; send an API key in the header X-Api-Key",
            "checked 9 mocks and the contract's examples against openapi.yaml: 5 errors, 4 warnings",
            "coverage: 2 of 2 operations, 2 of 3 declared statuses",
            "  never seen: getPet 404",
        ]
        #expect(result.output.split(separator: "\n").map(String.init) == expected)
    }

    @Test func theJSONReportNamesRuleOperationPointerAndCount() async throws {
        let folder = try Self.folder()
        let result = try await Command.run(
            ["check", "--openapi", "openapi.yaml", "--cassette", "traffic.har", "--format", "json"], in: folder.url)
        #expect(result.status == 1)
        let report = try JSONValue(parsing: Data(result.output.utf8))
        let findings = try JSONValue(
            parsing: Data(
                #"""
                [
                  {
                    "count": 2,
                    "examples": [
                      {
                        "entry": 1,
                        "file": "traffic.har",
                        "line": 57
                      },
                      {
                        "entry": 2,
                        "file": "traffic.har",
                        "line": 106
                      }
                    ],
                    "in": "response",
                    "mediaType": "application/json",
                    "message": "GET /pets/{petId} 200: /id: expected integer, got \"2\"",
                    "operation": "getPet",
                    "pointer": "/id",
                    "rule": "schema",
                    "severity": "error",
                    "status": 200
                  },
                  {
                    "count": 1,
                    "examples": [
                      {
                        "entry": 3,
                        "file": "traffic.har",
                        "line": 155
                      }
                    ],
                    "in": "response",
                    "mediaType": "application/json",
                    "message": "GET /pets/{petId} 200: /: missing the required property \"name\"",
                    "operation": "getPet",
                    "pointer": "",
                    "rule": "schema",
                    "severity": "error",
                    "status": 200
                  },
                  {
                    "count": 1,
                    "examples": [
                      {
                        "entry": 4,
                        "file": "traffic.har",
                        "line": 204
                      }
                    ],
                    "in": "response",
                    "mediaType": "application/json",
                    "message": "GET /pets/{petId} 200: /color is not declared in the schema",
                    "operation": "getPet",
                    "pointer": "/color",
                    "rule": "undocumented-property",
                    "severity": "warning",
                    "status": 200
                  },
                  {
                    "count": 1,
                    "examples": [
                      {
                        "entry": 5,
                        "file": "traffic.har",
                        "line": 253
                      }
                    ],
                    "in": "response",
                    "mediaType": null,
                    "message": "GET /pets/{petId} 500: the status is not declared; getPet declares 200, 404",
                    "operation": "getPet",
                    "pointer": null,
                    "rule": "undocumented-status",
                    "severity": "error",
                    "status": 500
                  },
                  {
                    "count": 1,
                    "examples": [
                      {
                        "entry": 6,
                        "file": "traffic.har",
                        "line": 302
                      }
                    ],
                    "in": "response",
                    "mediaType": null,
                    "message": "GET /toys is not in the contract",
                    "operation": "GET /toys",
                    "pointer": null,
                    "rule": "undocumented-operation",
                    "severity": "warning",
                    "status": 200
                  },
                  {
                    "count": 1,
                    "examples": [
                      {
                        "entry": 7,
                        "file": "traffic.har",
                        "line": 346
                      }
                    ],
                    "in": "request",
                    "mediaType": null,
                    "message": "GET /pets request: query sort: the operation declares no query parameter of this name",
                    "operation": "listPets",
                    "pointer": "query sort",
                    "rule": "undocumented-parameter",
                    "severity": "warning",
                    "status": 200
                  },
                  {
                    "count": 1,
                    "examples": [
                      {
                        "entry": 7,
                        "file": "traffic.har",
                        "line": 346
                      }
                    ],
                    "in": "response",
                    "mediaType": "text/csv",
                    "message": "GET /pets 200: Content-Type text/csv is not declared; it declares application/json",
                    "operation": "listPets",
                    "pointer": null,
                    "rule": "undocumented-media-type",
                    "severity": "error",
                    "status": 200
                  },
                  {
                    "count": 1,
                    "examples": [
                      {
                        "entry": 8,
                        "file": "traffic.har",
                        "line": 399
                      }
                    ],
                    "in": "request",
                    "mediaType": null,
                    "message": "GET /pets/7 request: no credentials; send an API key in the header X-Api-Key",
                    "operation": "getPet",
                    "pointer": null,
                    "rule": "security",
                    "severity": "warning",
                    "status": 200
                  }
                ]
                """#.utf8))
        #expect(report["findings"] == findings)
        #expect(
            report["coverage"] == [
                "operations": ["declared": 2, "exercised": 2, "neverSeen": []],
                "statuses": ["declared": 3, "exercised": 2, "neverSeen": ["getPet 404"]],
            ])
    }

    @Test func theSARIFLogHasOneResultPerKindOfFinding() async throws {
        let folder = try Self.folder()
        let result = try await Command.run(
            ["check", "--openapi", "openapi.yaml", "--cassette", "traffic.har", "--format", "sarif"], in: folder.url)
        #expect(result.status == 1)
        let log = try JSONValue(parsing: Data(result.output.utf8))
        #expect(log["version"] == "2.1.0")
        let run = try #require(log["runs"]?[0])
        #expect(run["tool"]?["driver"]?["name"] == "request-mocker")
        guard case .array(let rules)? = run["tool"]?["driver"]?["rules"], case .array(let results)? = run["results"]
        else {
            Issue.record("no rules or results: \(result.output)")
            return
        }
        #expect(rules.compactMap { $0["id"]?.stringValue } == DriftRule.allCases.map(\.rawValue))
        #expect(results.count == 8)
        let first: JSONValue = [
            "ruleId": "schema", "level": "error",
            "message": ["text": #"GET /pets/{petId} 200: /id: expected integer, got "2""#],
            "locations": [
                ["physicalLocation": ["artifactLocation": ["uri": "traffic.har"], "region": ["startLine": 57]]],
                ["physicalLocation": ["artifactLocation": ["uri": "traffic.har"], "region": ["startLine": 106]]],
            ],
            "properties": [
                "count": 2, "operation": "getPet", "status": 200, "mediaType": "application/json", "in": "response",
                "pointer": "/id",
            ],
        ]
        #expect(results.first == first)
        #expect(
            results.compactMap { $0["ruleId"]?.stringValue } == [
                "schema", "schema", "undocumented-property", "undocumented-status", "undocumented-operation",
                "undocumented-parameter", "undocumented-media-type", "security",
            ])
    }
}
