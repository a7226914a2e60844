import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// What real contracts and a first-time user tripped on (issue 43), through both transports: form
/// and multipart fields read by their schemas, a discriminator that decides, refusals in the
/// contract's own shape that still say what is wrong, an exploded object's members as query
/// names, and an undeclared query parameter as a warning.
@Suite("Contracts as real users meet them", .timeLimit(.minutes(3)), .hangGuard)
struct ContractTripsTests {
    typealias Case = ContractAnsweringTests.Case

    static func contract() throws -> OpenAPIContract {
        try OpenAPIContract(
            contentsOf: try #require(
                Bundle.module.url(forResource: "Fixtures/OpenAPI/trips", withExtension: "yaml"),
                "Fixtures/OpenAPI/trips.yaml is missing from the test bundle"))
    }

    static let form = ["Content-Type": "application/x-www-form-urlencoded"]
    static let multipart = ["Content-Type": "multipart/form-data; boundary=Bound"]
    static let key = ["X-Key": "k"]

    /// A multipart body of `fields` (text parts) and a file part named `file`, when given.
    static func parts(_ fields: [(String, String)], file: String? = nil, json: (String, String)? = nil) -> String {
        var body = fields.map { "--Bound\r\nContent-Disposition: form-data; name=\"\($0)\"\r\n\r\n\($1)\r\n" }.joined()
        if let (name, value) = json {
            body +=
                "--Bound\r\nContent-Disposition: form-data; name=\"\(name)\"\r\nContent-Type: application/json\r\n\r\n"
                + value + "\r\n"
        }
        if let file {
            body +=
                "--Bound\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.txt\"\r\n"
                + "Content-Type: text/plain\r\n\r\n\(file)\r\n"
        }
        return body + "--Bound--\r\n"
    }

    static func problem(_ how: String, _ violations: String) -> [String: String] {
        ContractAnsweringTests.problem(how, ["RequestMocker-Violations": violations])
    }

    static let cases: [Case] = [
        // Form fields are text on the wire: each is read by its property's schema and encoding.
        Case(
            "POST", "/v1/settings", form, sending: "lookup=true&count=3&tag=a&tag=b&ids=1,2&filter%5Bn%5D=4", 204,
            ["RequestMocker-OpenAPI": "saveSettings 204 empty"], ""),
        Case(
            "POST", "/v1/settings", form, sending: "lookup=yes&tag=a&ids=1,x&filter%5Bn%5D=q", 422,
            problem(
                "saveSettings 422 problem",
                #"body /lookup: expected boolean, got "yes"; body /ids/1: expected integer, got "x"; "#
                    + #"body /filter/n: expected integer, got "q""#),
            ContractAnsweringTests.problemBody(
                422, "Unprocessable Content", "the request breaks the contract in 3 places; see errors",
                #","errors":[{"in":"body","keyword":"type","message":"expected boolean, got \"yes\"","#
                    + #""pointer":"/lookup"},{"in":"body","keyword":"type","message":"expected integer, got \"x\"","#
                    + #""pointer":"/ids/1"},{"in":"body","keyword":"type","message":"expected integer, got \"q\"","#
                    + #""pointer":"/filter/n"}]"#)),
        // So are a multipart body's text parts; a file stays a file, a JSON part is JSON.
        Case(
            "POST", "/v1/uploads", multipart,
            sending: parts(
                [("title", "Notes"), ("pages", "12"), ("public", "true")], file: "hello", json: ("meta", #"{"a": 1}"#)),
            204, ["RequestMocker-OpenAPI": "upload 204 empty"], ""),
        Case(
            "POST", "/v1/uploads", multipart, sending: parts([("title", "Notes"), ("pages", "x")]), 422,
            problem(
                "upload 422 problem",
                #"body: missing the required property "file"; body /pages: expected integer, got "x""#),
            ContractAnsweringTests.problemBody(
                422, "Unprocessable Content", "the request breaks the contract in 2 places; see errors",
                #","errors":[{"in":"body","keyword":"required","message":"missing the required property \"file\"","#
                    + #""pointer":""},{"in":"body","keyword":"type","message":"expected integer, got \"x\"","#
                    + #""pointer":"/pages"}]"#)),
        // Every member of an exploded object is a query name, even one no style can carry; an
        // undeclared one (a cache-buster) is a warning, and the request is answered.
        Case(
            "GET", "/v1/items?color=red&sizes=x&cache=1", key, 200,
            ContractAnsweringTests.json(
                "listItems 200 generated",
                [
                    "RequestMocker-Violations":
                        "warning: query cache: the operation declares no query parameter of this name"
                ]
            ), #"["string"]"#),
        // Refusals in the contract's own shape, saying what is wrong; the status stays ours.
        Case(
            "GET", "/v1/items?limit=abc", key, 422,
            ContractAnsweringTests.json(
                "listItems 422 generated", ["RequestMocker-Violations": #"query limit: expected integer, got "abc""#]),
            #"{"code":422,"message":"query limit: expected integer, got \"abc\""}"#),
        Case(
            "GET", "/v1/items", [:], 401,
            ContractAnsweringTests.json(
                "listItems 401 generated",
                [
                    "RequestMocker-Violations": "security: no credentials; send an API key in the header X-Key",
                    "WWW-Authenticate": #"APIKey realm="Trips", name="X-Key", in="header""#,
                ]),
            #"{"code":401,"message":"no credentials; send an API key in the header X-Key"}"#),
        // Its 4XX, one object down (`{"error": {"message": …}}`), an enum member left as it is.
        Case(
            "POST", "/v1/notes", ["Content-Type": "text/plain"], sending: "hi", 415,
            ContractAnsweringTests.json(
                "addNote 415 generated",
                [
                    "RequestMocker-Violations":
                        "body: Content-Type text/plain is not one the operation takes: application/json"
                ]),
            #"{"error":{"message":"Content-Type text/plain is not one the operation takes: application/json","#
                + #""type":"invalid_request_error"}}"#),
        // A discriminator with a mapping decides: a value it doesn't name is refused, naming those it takes.
        Case(
            "POST", "/v1/animals", ["Content-Type": "application/json"], sending: #"{"animalType": "goat2"}"#, 422,
            problem(
                "addAnimal 422 problem",
                #"body /animalType: "goat2" names no schema of the oneOf; expected one of "hen", "goat""#),
            ContractAnsweringTests.problemBody(
                422, "Unprocessable Content", "the request breaks the contract in 1 place; see errors",
                #","errors":[{"in":"body","keyword":"discriminator","message":"\"goat2\" names no schema of the "#
                    + #"oneOf; expected one of \"hen\", \"goat\"","pointer":"/animalType"}]"#)),
        // A mapping's key replaces the branch's own name (OpenAPI's implicit mapping) for that branch.
        Case(
            "POST", "/v1/animals", ["Content-Type": "application/json"], sending: #"{"animalType": "Hen", "eggs": 2}"#,
            422,
            problem(
                "addAnimal 422 problem",
                #"body /animalType: "Hen" names no schema of the oneOf; expected one of "hen", "goat""#),
            ContractAnsweringTests.problemBody(
                422, "Unprocessable Content", "the request breaks the contract in 1 place; see errors",
                #","errors":[{"in":"body","keyword":"discriminator","message":"\"Hen\" names no schema of the "#
                    + #"oneOf; expected one of \"hen\", \"goat\"","pointer":"/animalType"}]"#)),
        Case(
            "POST", "/v1/animals", ["Content-Type": "application/json"], sending: #"{"animalType": "hen", "eggs": 2}"#,
            204, ["RequestMocker-OpenAPI": "addAnimal 204 empty"], ""),
        // A refusal's status is ours: an Accept that takes none of its media types gets the first.
        Case(
            "GET", "/v1/items?limit=abc", key.merging(["Accept": "text/html"]) { first, _ in first }, 422,
            ContractAnsweringTests.json(
                "listItems 422 generated", ["RequestMocker-Violations": #"query limit: expected integer, got "abc""#]),
            #"{"code":422,"message":"query limit: expected integer, got \"abc\""}"#),
        // A message member too short for the text is left; the next one that takes it carries it.
        Case(
            "GET", "/v1/short?n=x", [:], 422,
            ContractAnsweringTests.json(
                "short 422 generated", ["RequestMocker-Violations": #"query n: expected integer, got "x""#]),
            #"{"code":422,"detail":"query n: expected integer, got \"x\"","message":"string"}"#),
        // A generated body names its branch by the mapping's key, as a client decoding by it expects.
        Case(
            "GET", "/v1/animals", [:], 200, ContractAnsweringTests.json("listAnimals 200 generated"),
            #"[{"animalType":"hen","eggs":0}]"#),
    ]

    @Test(arguments: cases)
    func bothTransportsAnswerAsTheContractSays(_ example: Case) async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract())
        try await ContractAnsweringTests.expectBothTransports(answer: example, from: registry)
    }

    @Test("a dynamic body's discriminator is the mapping's key of the branch it generates, every time")
    func dynamicBodiesNameTheirBranch() async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract(), generation: .dynamic(seed: 3))
        let session = registry.makeSession()
        for page in 0..<20 {
            let url = try #require(URL(string: "https://trips.example/v1/animals?page=\(page)"))
            let (data, _) = try await session.data(from: url)
            guard case .array(let animals) = try JSONValue(parsing: data), !animals.isEmpty else {
                Issue.record("not a list of animals: \(String(decoding: data, as: UTF8.self))")
                return
            }
            for animal in animals {
                let type = animal["animalType"]?.stringValue
                #expect(type == "hen" || type == "goat", "\(animal)")
                #expect(type != "hen" || animal["eggs"]?.intValue != nil, "\(animal)")
            }
        }
    }

    @Test("a path outside the contract's base path says where the contract serves")
    func outsideTheBasePath() async throws {
        let registry = MockRegistry()
        registry.register(try Self.contract())
        let (status, body) = try await withServer(registry) { _, base in
            try await ContractAnsweringTests.send(base, "/animals", method: "GET", body: nil)
        }
        #expect(status == 404)
        #expect(
            body.contains(
                "the contract trips.yaml has no path for GET /animals; it serves under /v1: send GET /v1/animals"))
    }
}
