import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Every operation of OpenAI's and Twilio's contracts, asked with a request the contract allows:
/// the expected status, the same bytes from a second registry, and a body that passes its schema
/// by our validator and by Python's `jsonschema`.
@Suite(
    "Real contracts answering every operation", .enabled(if: RealContracts.available, RealContracts.skipped),
    .timeLimit(.minutes(3)), .hangGuard, .ownThread)
struct RealContractAnsweringTests {
    @Test(arguments: ["openai/openapi.json", "twilio/spec/json/twilio_api_v2010.json"])
    func everyOperationAnswersAsDeclared(file: String) async throws {
        let url = RealContracts.url(file)
        let contract = try OpenAPIContract(contentsOf: url)
        let (first, second) = (MockRegistry(), MockRegistry())
        first.register(contract)
        second.register(contract)
        let base = try #require(URL(string: "https://api.example"))
        var failures: [String] = []
        var bodies: [String: JSONValue] = [:]
        var brokenExamples = 0
        for (index, operation) in contract.operations.enumerated() {
            let request = contract.sampleRequest(forOperationAt: index, base: base)
            let (data, response) = try await first.makeSession().data(for: request)
            let (again, _) = try await second.makeSession().data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            let answer = first.journal.last?.contractAnswer
            let expected = Self.expectedStatus(operation)
            if status != expected || answer?.violations.isEmpty == false {
                failures.append(
                    "\(operation) \(request.url?.absoluteString ?? "") -> \(status), expected \(expected): "
                        + "\(answer?.violations ?? []) \(String(decoding: data.prefix(300), as: UTF8.self))")
            }
            if data != again { failures.append("\(operation): a second registry answered other bytes") }
            let type = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") ?? ""
            guard type.contains("json"),
                let schema = contract.responseSchema(of: index, status: status, mediaType: type)
            else { continue }
            let body = try JSONValue(parsing: data)
            let violations = SchemaValidator.violations(of: body, against: schema, direction: .response)
            if !violations.isEmpty {
                // A contract's own example that breaks its schema is served as written, and the
                // load notices name it.
                if let how = answer?.how, how.contains("example") {
                    let place = how == "example" ? "/example " : "/examples/\(how.dropFirst("example ".count)) "
                    let noticed = contract.notices.contains {
                        how == "schema example"
                            ? $0.contains("\(schema.pointer): its example breaks the schema")
                            : $0.contains("/responses/\(status)/content/") && $0.contains(place + "breaks its schema")
                    }
                    if !noticed { failures.append("\(operation) \(status) \(how) breaks its schema, unnoticed") }
                    brokenExamples += 1
                } else {
                    failures.append("\(operation) \(status): \(violations.prefix(3))")
                }
            }
            if answer?.how.contains("example") != true { bodies["\(operation)|\(schema.pointer)"] = body }
        }
        #expect(failures == [])
        let folder = try TemporaryFolder()
        let values = try folder.write("bodies.json", try JSONValue.object(bodies).serialized())
        let failed = try await RealContracts.failingJSONSchema(
            values: values, in: url, pointer: { String($0.split(separator: "|").last ?? "") })
        #expect(failed == [])
        print(
            "\(file): \(contract.operations.count) operations, \(bodies.count) generated JSON bodies, "
                + "\(brokenExamples) examples served that break their schemas (each in the load notices)")
    }

    /// The lowest declared 2xx, else 200 for `2XX` or `default`, else 501.
    static func expectedStatus(_ operation: OpenAPIContract.Operation) -> Int {
        if let lowest = operation.statuses.compactMap(Int.init).filter({ (200..<300).contains($0) }).min() {
            return lowest
        }
        return operation.statuses.contains { $0.uppercased() == "2XX" || $0 == "default" } ? 200 : 501
    }
}
