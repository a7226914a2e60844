import Foundation
import RequestMocker

/// Recorded exchanges for drafting a contract (issue 38): hand-made, one or more per rule of
/// the draft, with `https://api.example`.
package enum DraftCorpus {
    /// One recorded `GET` with `https://api.example`.
    package static func exchange(
        _ target: String, headers: HTTPHeaders = [:], status: Int = 200,
        responseHeaders: HTTPHeaders = ["Content-Type": "application/json"], response: String = "{}"
    ) -> Interaction {
        exchange("GET", target, headers: headers, status: status, responseHeaders: responseHeaders, response: response)
    }

    /// One recorded exchange with `https://api.example`.
    package static func exchange(
        _ method: String, _ target: String, headers: HTTPHeaders = [:], body: String? = nil,
        status: Int = 200, responseHeaders: HTTPHeaders = ["Content-Type": "application/json"],
        response: String = "{}"
    ) -> Interaction {
        var requestHeaders = headers
        if body != nil, requestHeaders[.contentType] == nil { requestHeaders.add(.contentType, "application/json") }
        return Interaction(
            request: MockRequest(
                method: HTTPMethod(rawValue: method), url: URL(string: "https://api.example" + target)!,
                headers: requestHeaders, body: body.map { Data($0.utf8) }),
            result: .success(
                RecordedResponse(status: HTTPStatus(status), headers: responseHeaders, body: Data(response.utf8))),
            startedAt: Date(timeIntervalSince1970: 0), duration: .milliseconds(1))
    }

    /// Every rule's recordings at once.
    package static var interactions: [Interaction] {
        [
            exchange("/users/1", response: #"{"id": 1, "name": "Ada", "tags": ["a"], "manager": null}"#),
            exchange(
                "/users/2", response: #"{"id": 2, "name": "Grace", "tags": [], "manager": {"id": 1, "name": "Ada"}}"#),
            exchange("/users/me", headers: ["Authorization": "Bearer x"], response: #"{"id": 3, "name": "Me"}"#),
            exchange(
                "/users/3", status: 404, responseHeaders: ["Content-Type": "application/problem+json"],
                response: #"{"title": "Not Found", "status": 404}"#),
            exchange(
                "POST", "/users", body: #"{"name": "Linus", "email": "l@example.com"}"#, status: 201,
                responseHeaders: ["Content-Type": "application/json", "X-Request-Id": "r1"],
                response: #"{"id": 4, "name": "Linus"}"#),
            exchange("DELETE", "/users/4", status: 204, responseHeaders: [:], response: ""),
            exchange(
                "/search?q=a&page=1", headers: ["X-Api-Key": "k"],
                response: #"{"hits": [{"id": 1, "name": "Ada"}], "total": 1}"#),
            exchange("/files/a.txt/checkpoints", response: "[]"),
            exchange("/files/b.txt/checkpoints", response: #"[{"id": "c1", "last_modified": "2026-11-28T10:00:00Z"}]"#),
            exchange("/files/c.txt/checkpoints", response: "[]"),
            exchange(
                "/events", response: #"[{"type": "click", "x": 1}, {"type": "key", "code": "KeyA"}]"#),
            exchange("/scores", response: #"{"1001": {"points": 3}}"#),
            exchange("/scores", status: 999, response: #"{"error": "a status past 599"}"#),
            exchange("/report", responseHeaders: [:], response: "raw bytes"),
            exchange(
                "/report", responseHeaders: ["Content-Type": "text/csv"], response: "a,b\n1,2\n"),
            exchange(
                "PUT", "/form", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: "a=1&b=two",
                status: 200, responseHeaders: ["Content-Type": "text/plain"], response: "ok"),
        ]
    }

}
