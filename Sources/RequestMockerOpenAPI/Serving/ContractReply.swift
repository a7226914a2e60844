import Foundation
import RequestMocker

/// A reply of the contract source: status, headers, body, and how it was chosen.
struct ContractReply {
    var status: Int
    var headers: HTTPHeaders
    var body: Data
    var answer: OpenAPIContract.Answer

    /// An RFC 9457 problem (`application/problem+json`), with `extra` members beside the four.
    static func problem(
        _ status: Int, operation: String, detail: String, extra: [String: JSONValue] = [:],
        violations: [String] = []
    ) -> ContractReply {
        var members: [String: JSONValue] = [
            "type": "about:blank", "title": .string(HTTPStatus(status).reasonPhrase), "status": .int(status),
            "detail": .string(detail),
        ]
        members.merge(extra) { first, _ in first }
        let body = (try? JSONValue.object(members).serialized()) ?? Data()
        let answer = OpenAPIContract.Answer(
            operation: operation, status: status, how: "problem", violations: violations)
        return ContractReply(
            status: status, headers: [.contentType: "application/problem+json", "RequestMocker-OpenAPI": "\(answer)"],
            body: body, answer: answer)
    }

    var response: MockResponse {
        MockResponse(content: .body(body, defaultContentType: nil), status: HTTPStatus(status), headers: headers)
    }

    func answer(from url: URL) -> SourceAnswer {
        .respond(response, captures: Captures(), from: .contract(url, answer))
    }
}
