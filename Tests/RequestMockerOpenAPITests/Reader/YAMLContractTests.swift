import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Contracts written in YAML, read as their JSON would be.
@Suite("Contracts in YAML", .timeLimit(.minutes(3)), .hangGuard)
struct YAMLContractTests {
    @Test("a contract in YAML across three folders, its $refs between YAML and JSON files")
    func multiFileContract() throws {
        let folder = try TemporaryFolder()
        try folder.write(
            "common/schemas/pet.yaml",
            """
            Pet:
              type: object
              required: [id, name]
              properties:
                id: {type: integer, format: int64}
                name: {type: string}
                owner: {$ref: '../../people/person.json#/Person'}
            """)
        try folder.write(
            "people/person.json",
            #"{"Person": {"type": "object", "properties": {"name": {"type": "string"}, "#
                + #""pets": {"type": "array", "items": {"$ref": "../common/schemas/pet.yaml#/Pet"}}}}}"#)
        let url = try folder.write(
            "api/openapi.yaml",
            """
            openapi: 3.1.0
            info: {title: Pets, version: 2024-10-01}
            paths:
              /pets/{id}:
                get:
                  operationId: getPet
                  responses:
                    '200':
                      description: A pet
                      content:
                        application/json:
                          schema: {$ref: '../common/schemas/pet.yaml#/Pet'}
            """)
        let contract = try OpenAPIContract(contentsOf: url)
        #expect(contract.operations.map(\.description) == ["getPet"])
        #expect(contract.sourceFiles.map(\.lastPathComponent).sorted() == ["openapi.yaml", "person.json", "pet.yaml"])
        let schema = try contract.schema(at: "#/paths/~1pets~1{id}/get/responses/200/content/application~1json/schema")
        let value = try SchemaGenerator.value(for: schema, direction: .response).jsonValue
        #expect(value == ["id": 0, "name": "string", "owner": ["name": "string", "pets": []]])
    }
}
