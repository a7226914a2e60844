import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The petstore set of `../shared/openapi`, answered with state: each collection's create, read,
/// list and delete, from the contract's own sample requests, through both transports; every
/// stored answer passes its response schema, by our validator and by Python's `jsonschema`.
@Suite(
    "The petstore set, answered with state", .enabled(if: RealContracts.available, RealContracts.skipped),
    .timeLimit(.minutes(3)), .hangGuard, .ownThread)
struct RealContractStateTests {
    /// A create, a read of what it made (by `Location`), the list, a delete and a read after it,
    /// for each top-level collection: each answer as `METHOD path -> status how body`.
    ///
    /// A create that answers no `Location` (the contract declares a `200` without headers) is
    /// followed by the id the registry's resources show it got.
    static func flow(
        _ contract: OpenAPIContract, base: URL, session: URLSession, registry: MockRegistry
    ) async throws -> [String] {
        let map = contract.resourceMap
        var lines: [String] = []
        func send(_ request: URLRequest) async throws -> (HTTPURLResponse, String) {
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            let body = String(decoding: data, as: UTF8.self)
            lines.append(
                "\(request.httpMethod ?? "GET") \(request.url?.path ?? "") -> \(http.statusCode) "
                    + "\(http.value(forHTTPHeaderField: "RequestMocker-OpenAPI") ?? "-") \(body)")
            return (http, body)
        }
        for collection in map.collections where collection.parentParameters.isEmpty {
            guard let create = collection.operations[.create] else { continue }
            let (created, _) = try await send(contract.sampleRequest(forOperationAt: create, base: base))
            var location = created.value(forHTTPHeaderField: "Location")
            if location == nil, case .array(let items)? = registry.resources[collection.path],
                let id = items.last?[collection.idProperty]
            {
                let text = id.stringValue ?? id.description
                location =
                    contract.basePath
                    + collection.itemPath.replacingOccurrences(of: "{\(collection.itemParameter)}", with: text)
            }
            guard let location, let item = URL(string: base.absoluteString + location) else { continue }
            if collection.operations[.read] != nil { _ = try await send(URLRequest(url: item)) }
            if let list = collection.operations[.list] {
                _ = try await send(contract.sampleRequest(forOperationAt: list, base: base))
            }
            if collection.operations[.delete] != nil {
                var delete = URLRequest(url: item)
                delete.httpMethod = "DELETE"
                _ = try await send(delete)
                if collection.operations[.read] != nil { _ = try await send(URLRequest(url: item)) }
            }
        }
        return lines
    }

    static let contracts = [
        "petstore/openapi-spec-validator/v3.0/petstore.yaml", "petstore/openapi-spec-validator/v3.1/petstore.yaml",
        "petstore/openapi-spec-validator/v3.2/petstore.yaml",
        "petstore/openapi-spec-validator/v3.0/petstore-separate/spec/openapi.yaml",
        "petstore/prism/petstore.no-auth.circular.oas3.yaml",
    ]

    @Test(arguments: contracts)
    func aFlowPassesTheContract(path: String) async throws {
        let file = RealContracts.url(path)
        let contract = try OpenAPIContract(contentsOf: file)
        let viaProtocol = MockRegistry()
        viaProtocol.register(contract, state: .resources)
        let protocolLines = try await Self.flow(
            contract, base: try #require(URL(string: "https://petstore.example")), session: viaProtocol.makeSession(),
            registry: viaProtocol)
        let viaServer = MockRegistry()
        viaServer.register(contract, state: .resources)
        let serverLines = try await withServer(viaServer) { _, base in
            try await Self.flow(contract, base: base, session: plainSession(), registry: viaServer)
        }
        #expect(protocolLines == serverLines)
        #expect(protocolLines == Self.expected[path], "\(protocolLines)")
        // Every stored answer with a body passes its response schema.
        var bodies: [String: JSONValue] = [:]
        var pointers: [String: String] = [:]
        for (number, line) in protocolLines.enumerated() {
            let words = line.split(separator: " ", maxSplits: 7).map(String.init)
            guard words.count == 8, words[6] == "stored", let status = Int(words[5]),
                let index = contract.operations.firstIndex(where: { $0.description == words[4] }),
                let schema = contract.responseSchema(of: index, status: status, mediaType: "application/json")
            else { continue }
            let body = try JSONValue(parsing: Data(words[7].utf8))
            #expect(SchemaValidator.violations(of: body, against: schema, direction: .response) == [], "\(line)")
            bodies["step \(number)"] = body
            pointers["step \(number)"] = schema.pointer
        }
        #expect(!bodies.isEmpty)
        // Python's check reads one JSON file: the YAML contract as JSON (the one whose schemas
        // live in other files is checked by our validator alone).
        guard !path.contains("separate") else { return }
        let folder = try TemporaryFolder()
        let values = try folder.write("bodies.json", try JSONValue.object(bodies).serialized())
        let json = try folder.write(
            "contract.json", Data(try YAMLReader.parse([UInt8](try Data(contentsOf: file))).jsonBytes))
        #expect(
            try await RealContracts.failingJSONSchema(values: values, in: json, pointer: { pointers[$0] ?? "" }) == [])
    }

    /// The classic petstore: its `POST /pets` declares no body and a bare `201`, so the pet is
    /// made of generated members; `GET /pets/{petId}` answers `Pets`, so the pet comes alone in
    /// an array; there is no delete.
    static let classic = [
        "POST /v1/pets -> 201 createPets 201 stored ",
        #"GET /v1/pets/1 -> 200 showPetById 200 stored [{"id":1,"name":"string"}]"#,
        #"GET /v1/pets -> 200 listPets 200 stored [{"id":1,"name":"string"}]"#,
    ]

    static let expected: [String: [String]] = [
        "petstore/openapi-spec-validator/v3.0/petstore.yaml": classic,
        "petstore/openapi-spec-validator/v3.1/petstore.yaml": classic,
        "petstore/openapi-spec-validator/v3.2/petstore.yaml": classic,
        "petstore/openapi-spec-validator/v3.0/petstore-separate/spec/openapi.yaml": classic,
        // Swagger's petstore: creates answer a bare `200` (no `Location`: the flow reads the id the
        // store gave); the list requires `name`, whose sample ("string") matches no pet; its
        // deletes declare no 2xx, so they answer `204`; an order id must be 1 to 10, so the
        // order the sample made (id 0, sent by the client) is refused by validation.
        "petstore/prism/petstore.no-auth.circular.oas3.yaml": [
            "POST /v2/no_auth/pets -> 200 addPet 200 stored ",
            #"GET /v2/no_auth/pets/0 -> 200 getPetById 200 stored {"category":{"id":0,"name":"string"},"id":0,"#
                + #""name":"doggie","photoUrls":["string"],"status":"available","tags":[{"id":0,"name":"string"}]}"#,
            "GET /v2/no_auth/pets -> 200 getPets 200 stored []",
            "POST /v2/pets -> 200 addPet 200 stored ",
            #"GET /v2/pets/0 -> 200 getPetById 200 stored {"category":{"id":0,"name":"string"},"id":0,"#
                + #""name":"doggie","photoUrls":["string"],"status":"available","tags":[{"id":0,"name":"string"}]}"#,
            "DELETE /v2/pets/0 -> 204 deletePet 204 stored ",
            "GET /v2/pets/0 -> 404 getPetById 404 empty ",
            #"POST /v2/store/order -> 200 placeOrder 200 stored {"complete":false,"id":0,"petId":0,"quantity":0,"#
                + #""shipDate":"2026-01-01T00:00:00Z","status":"placed"}"#,
            "GET /v2/store/order/0 -> 400 getOrderById 400 empty ",
            "DELETE /v2/store/order/0 -> 400 deleteOrder 400 empty ",
            "GET /v2/store/order/0 -> 400 getOrderById 400 empty ",
            "POST /v2/user -> 200 createUser 200 stored ",
            #"GET /v2/user/string -> 200 getUserByName 200 stored {"email":"string","firstName":"string","id":0,"#
                + #""lastName":"string","password":"string","phone":"string","userStatus":0,"username":"string"}"#,
            "DELETE /v2/user/string -> 204 deleteUser 204 stored ",
            "GET /v2/user/string -> 404 getUserByName 404 empty ",
        ],
    ]
}
