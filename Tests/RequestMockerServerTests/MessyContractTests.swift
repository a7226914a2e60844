import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// A contract written from the shapes real vendors publish that break the specification or push
/// the generator (an undeclared security scheme, `$ref`s where maps and lists belong, `enum`s and
/// `const`s beside `allOf`s of wider ones, bounds beside `$ref`, a `oneOf` whose branches differ
/// only in `required`, a wide recursive page of messages, a query parameter its style can't
/// carry): it loads with a notice for each liberty, and every operation answers its declared
/// status with a body that passes its schema, by our validator and by Python's `jsonschema`,
/// through both transports.
@Suite("A messy contract, as vendors publish them", .timeLimit(.minutes(3)), .hangGuard)
struct MessyContractTests {
    static func url() throws -> URL {
        try #require(Bundle.module.url(forResource: "Fixtures/OpenAPI/messy/openapi", withExtension: "json"))
    }

    static func contract() throws -> OpenAPIContract {
        try OpenAPIContract(contentsOf: try url())
    }

    /// A status, the `RequestMocker-OpenAPI` header and the body, as one line.
    struct Answered: Equatable, CustomStringConvertible {
        let status: Int
        let how: String
        let body: String
        var description: String { "\(status) \(how) \(body)" }
    }

    /// Sends `request` through `MockURLProtocol` and through a server on `registry` (the one at
    /// `server`, else one started for it); expects the two to answer alike, and returns the answer.
    static func bothTransports(
        _ request: URLRequest, _ registry: MockRegistry, server: URL? = nil,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Answered {
        func answered(_ request: URLRequest, _ session: URLSession) async throws -> Answered {
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            return Answered(
                status: http.statusCode, how: http.value(forHTTPHeaderField: "RequestMocker-OpenAPI") ?? "",
                body: String(decoding: data, as: UTF8.self))
        }
        let viaProtocol = try await answered(request, registry.makeSession())
        func viaServer(at base: URL) async throws -> Answered {
            var rebased = request
            let url = try #require(request.url)
            var components = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false))
            (components.scheme, components.host, components.port) = ("http", base.host, base.port)
            rebased.url = components.url
            return try await answered(rebased, plainSession())
        }
        let viaServer =
            if let server {
                try await viaServer(at: server)
            } else {
                try await withServer(registry) { _, base in try await viaServer(at: base) }
            }
        #expect(viaServer == viaProtocol, sourceLocation: sourceLocation)
        return viaProtocol
    }

    static let base = URL(string: "https://messy.example")!

    /// A `GET` of `path` under the contract's base path, through both transports.
    static func get(
        _ path: String, _ registry: MockRegistry, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> Answered {
        let url = try #require(URL(string: "https://messy.example/api" + path))
        return try await bothTransports(URLRequest(url: url), registry, sourceLocation: sourceLocation)
    }

    @Test("each liberty taken with the contract is one notice, with where, what was wrong and what was assumed")
    func notices() throws {
        #expect(
            try Self.contract().notices == [
                "openapi.json:163:22: #/paths/~1droplets~1{dropletId}/get/responses: a $ref stands where the "
                    + "specification wants the map or list itself — read as what the $ref names, as common $ref "
                    + "resolvers do (also at openapi.json:1512:20: #/x-responses/droplet/200/headers, "
                    + "openapi.json:1467:23: #/components/schemas/Droplet/properties, 1 more)",
                "openapi.json:17:11: #/paths/~1channels~1{channelId}~1threads/get/security/0: the security scheme "
                    + #""sessionToken" is not among components/securitySchemes — a security requirement naming an "#
                    + "undeclared scheme is not checked",
                "openapi.json:172:11: #/paths/~1contacts/get/parameters/0: the query parameter \"filter\" declares "
                    + #"members "tags" that are objects or lists that its style (form) can't carry as text — what a "#
                    + "parameter's style can't carry is not checked",
            ])
    }

    /// What each operation answers its sample request with, static.
    static let answers: [String: Answered] = [
        "listThreads": Answered(
            status: 200, how: "listThreads 200 generated minimal", body: #"{"threads":[],"members":[],"has_more":true}"#
        ),
        "listComponents": Answered(
            status: 200, how: "listComponents 200 generated",
            body: "["
                + Array(
                    repeating: #"{"type":1,"components":[{"type":2,"style":1,"label":"string","custom_id":"string","#
                        + #""disabled":true}]}"#, count: 3
                ).joined(separator: ",") + "]"),
        "lastLogin": Answered(
            status: 200, how: "lastLogin 200 generated",
            body: #"{"method":"password","at":0,"email":"user@example.com"}"#),
        "getSession": Answered(
            status: 200, how: "getSession 200 generated",
            body: #"{"method":"password","at":0,"email":"user@example.com"}"#),
        "getLimits": Answered(
            status: 200, how: "getLimits 200 generated",
            body: #"{"share":10,"burst":91,"stage":"archived","mode":"fast","amount":0,"ratio":0.5}"#),
        "setLimits": Answered(
            status: 200, how: "setLimits 200 generated",
            body: #"{"share":10,"burst":91,"stage":"archived","mode":"fast","amount":0,"ratio":0.5}"#),
        "getDroplet": Answered(
            status: 200, how: "getDroplet 200 generated", body: #"{"id":1,"name":"string","droplet_ids":[0]}"#),
        "searchContacts": Answered(status: 200, how: "searchContacts 200 generated", body: #"[{"id":0}]"#),
    ]

    @Test("every operation answers a request its contract allows with its declared status and a valid body")
    func everyOperation() async throws {
        let contract = try Self.contract()
        let registry = MockRegistry()
        registry.register(contract)
        // Dynamic bodies too, from two seeds.
        let seeded = [UInt64(1), 2].map { seed in
            let registry = MockRegistry()
            registry.register(contract, generation: .dynamic(seed: seed))
            return registry
        }
        // One server per registry, for all of its requests.
        let servers = ([registry] + seeded).map { MockServer(registry: $0, configuration: MockServer.Configuration()) }
        defer { for server in servers { server.stop() } }
        let bases = try servers.map { try $0.start() }
        var bodies: [String: JSONValue] = [:]
        for (index, operation) in contract.operations.enumerated() {
            let name = operation.description
            let request = contract.sampleRequest(forOperationAt: index, base: Self.base)
            let answered = try await Self.bothTransports(request, registry, server: bases[0])
            #expect(answered == Self.answers[name], "\(name)")
            bodies["\(name)|\(index)"] = try JSONValue(parsing: Data(answered.body.utf8))
            for (seed, registry) in seeded.enumerated() {
                let answer = try await Self.bothTransports(request, registry, server: bases[seed + 1])
                #expect(answer.status == 200 && answer.how.hasPrefix("\(name) 200 dynamic"), "\(name): \(answer.how)")
                bodies["\(name) dynamic \(seed + 1)|\(index)"] = try JSONValue(parsing: Data(answer.body.utf8))
            }
        }
        // Every body passes its schema by our validator and by Python's jsonschema.
        var pointers: [String: String] = [:]
        for (key, body) in bodies {
            let index = Int(key.split(separator: "|").last ?? "") ?? 0
            let schema = try #require(contract.responseSchema(of: index, status: 200, mediaType: "application/json"))
            #expect(SchemaValidator.violations(of: body, against: schema, direction: .response) == [], "\(key)")
            pointers[key] = schema.pointer
        }
        let folder = try TemporaryFolder()
        let values = try folder.write("bodies.json", try JSONValue.object(bodies).serialized())
        let failed = try await RealContracts.failingJSONSchema(
            values: values, in: try Self.url(), pointer: { pointers[$0] ?? "" })
        #expect(failed == [])
    }

    @Test("an undeclared security scheme isn't checked; a declared one still is")
    func security() async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract())
        let threads = try await Self.get("/channels/7/threads", registry)
        #expect(threads.status == 200)
        let components = try await Self.get("/components", registry)
        #expect(components.status == 401)
        #expect(components.how == "listComponents 401 problem")
    }

    @Test("a parameter is checked as far as its style carries it: the members it can't carry aren't required")
    func parameterStyle() async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract())
        let bare = try await Self.get("/contacts", registry)
        #expect(bare == Answered(status: 200, how: "searchContacts 200 generated", body: #"[{"id":0}]"#))
        let limited = try await Self.get("/contacts?limit=3", registry)
        #expect(limited.status == 200)
        let refused = try await Self.get("/contacts?limit=0", registry)
        #expect(refused.status == 422)
        #expect(refused.body.contains(#""message":"0 is less than the minimum 1""#))
    }

    @Test("numbers past Int64, in a body and in a parameter, are judged as written by format: int64")
    func exactNumbers() async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract())
        func put(_ amount: String) -> URLRequest {
            var request = URLRequest(url: URL(string: "https://messy.example/api/limits")!)
            request.httpMethod = "PUT"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(
                #"{"share": 10, "burst": 95, "stage": "archived", "mode": "fast", "amount": \#(amount)}"#.utf8)
            return request
        }
        let below = try await Self.bothTransports(put("-9223372036854775809"), registry)
        #expect(below.status == 422)
        #expect(
            below.body.contains(
                #""message":"-9223372036854775809 is not an int64 (between -9223372036854775808 and "#
                    + #"9223372036854775807)""#
            ))
        #expect(try await Self.bothTransports(put("-9223372036854775808"), registry).status == 200)
        let past = try await Self.get("/limits?cursor=9223372036854775808", registry)
        #expect(past.status == 422)
        #expect(past.body.contains(#""message":"9223372036854775808 is not an int64"#))
        let bound = try await Self.get("/limits?cursor=-9223372036854775808", registry)
        #expect(bound.status == 200)
    }
}
