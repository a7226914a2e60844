import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// Requests checked against the contract, through both transports: credentials, media types,
/// parameters by their styles, bodies; refused (`strict`), answered with the violations beside
/// (`warn`), or not checked (`off`).
@Suite("Validating requests against an OpenAPI contract", .timeLimit(.minutes(3)), .hangGuard)
struct ContractValidationTests {
    typealias Case = ContractAnsweringTests.Case

    static func json(_ how: String, _ extra: [String: String] = [:]) -> [String: String] {
        ContractAnsweringTests.json(how, extra)
    }

    static func problem(_ how: String, _ extra: [String: String] = [:]) -> [String: String] {
        ContractAnsweringTests.problem(how, extra)
    }

    static func problemBody(_ status: Int, _ title: String, _ detail: String, _ extra: String = "") -> String {
        ContractAnsweringTests.problemBody(status, title, detail, extra)
    }
    static let jsonBody = ["Content-Type": "application/json"]
    static let key = ["X-API-Key": "k", "Content-Type": "application/json"]
    static let newPet = #"{"id":0,"name":"string","kind":"dog","born":"2026-01-01"}"#

    static let strict: [Case] = [
        // getPet declares no 422, 400 or default: the problem lists the violations.
        Case(
            "GET", "/v2/pets/abc", [:], 422,
            problem("getPet 422 problem", ["RequestMocker-Violations": #"path petId: expected integer, got "abc""#]),
            problemBody(
                422, "Unprocessable Content", "the request breaks the contract in 1 place; see errors",
                #","errors":[{"in":"path","keyword":"type","message":"expected integer, got \"abc\"","#
                    + #""name":"petId","pointer":""}]"#)),
        // listPets declares a default: it is sent as 422, its message and code saying what is wrong.
        Case(
            "GET", "/v2/pets?limit=0&tags=a", [:], 422,
            json("listPets 422 generated", ["RequestMocker-Violations": "query limit: 0 is less than the minimum 1"]),
            #"{"code":422,"message":"query limit: 0 is less than the minimum 1"}"#),
        Case(
            "GET", "/v2/pets?limit=5&tags=a&tags=b&__code=200", [:], 200,
            json("listPets 200 generated", ContractAnsweringTests.listed),
            #"[{"id":0,"name":"string","kind":"dog","born":"2026-01-01"}]"#),
        Case(
            "POST", "/v2/pets", jsonBody, sending: #"{"name":"Rex"}"#, 401,
            problem(
                "createPet 401 problem",
                [
                    "WWW-Authenticate":
                        #"APIKey realm="Pet shop", name="X-API-Key", in="header", Bearer realm="Pet shop""#,
                    "RequestMocker-Violations":
                        "security: no credentials; send an API key in the header X-API-Key, "
                        + "or Authorization: Bearer with a token",
                ]),
            problemBody(
                401, "Unauthorized",
                "no credentials; send an API key in the header X-API-Key, or Authorization: Bearer with a token")),
        Case(
            "POST", "/v2/pets", ["X-API-Key": "k", "Content-Type": "text/plain"], sending: "Rex", 415,
            problem(
                "createPet 415 problem",
                [
                    "RequestMocker-Violations":
                        "body: Content-Type text/plain is not one the operation takes: application/json"
                ]),
            problemBody(
                415, "Unsupported Media Type",
                "Content-Type text/plain is not one the operation takes: application/json")),
        // The operation's own 400 is served, with the violations beside it.
        Case(
            "POST", "/v2/pets", ["Authorization": "Bearer t", "Content-Type": "application/json"],
            sending: #"{"name":12}"#,
            400, json("createPet 400 example", ["RequestMocker-Violations": "body /name: expected string, got 12"]),
            #"{"code":400,"message":"the contract's own 400"}"#),
        Case(
            "POST", "/v2/pets", key, sending: #"{"kind":"bird"}"#, 400,
            json(
                "createPet 400 example",
                [
                    "RequestMocker-Violations":
                        #"body: missing the required property "name"; "#
                        + #"body /kind: expected one of "dog", "cat"; got "bird""#
                ]),
            #"{"code":400,"message":"the contract's own 400"}"#),
        Case("POST", "/v2/pets", key, sending: #"{"name":"Rex"}"#, 201, json("createPet 201 generated"), newPet),
    ]

    @Test(arguments: strict)
    func strictRefusesWhatTheContractDoesNotAllow(_ example: Case) async throws {
        let registry = MockRegistry()
        registry.register(try ContractAnsweringTests.contract())
        try await ContractAnsweringTests.expectBothTransports(answer: example, from: registry)
        // The journal has the findings the header shows, for both requests.
        let findings = registry.journal.map { $0.contractAnswer?.violations.joined(separator: "; ") }
        let shown = example.expectedHeaders["RequestMocker-Violations"] ?? ""
        #expect(findings == [shown, shown])
    }

    @Test("warn answers as if the request were valid, with the violations beside; off doesn't check")
    func warnAndOff() async throws {
        let contract = try ContractAnsweringTests.contract()
        let warned = MockRegistry()
        warned.register(contract, validation: .warn)
        let broken = Case(
            "GET", "/v2/pets/abc", [:], 200,
            Self.json(
                "getPet 200 example dog", ["RequestMocker-Violations": #"path petId: expected integer, got "abc""#]),
            ContractAnsweringTests.dog)
        let base = try #require(URL(string: "https://petshop.example"))
        #expect(
            try await ContractAnsweringTests.receive(broken, from: base, in: warned.makeSession()) == broken.expected)
        #expect(warned.journal.first?.contractAnswer?.violations == [#"path petId: expected integer, got "abc""#])
        let unchecked = MockRegistry()
        unchecked.register(contract, validation: .off)
        let answered = Case(
            "GET", "/v2/pets/abc", [:], 200, Self.json("getPet 200 example dog"), ContractAnsweringTests.dog)
        #expect(
            try await ContractAnsweringTests.receive(answered, from: base, in: unchecked.makeSession())
                == answered.expected)
        #expect(unchecked.journal.first?.contractAnswer?.violations == [])
    }
}
