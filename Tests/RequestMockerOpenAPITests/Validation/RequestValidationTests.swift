import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

/// Parameters read by their styles, credentials by their shapes, and form and multipart bodies,
/// checked through `MockURLProtocol` with `warn`, so the journal shows what each request broke.
@Suite("Validating parameters, credentials and bodies", .timeLimit(.minutes(3)), .hangGuard)
struct RequestValidationTests {
    static let contract = ##"""
        {"openapi": "3.1.0", "info": {"title": "Styles", "version": "1"},
         "components": {"securitySchemes": {
           "basic": {"type": "http", "scheme": "basic"},
           "queryKey": {"type": "apiKey", "in": "query", "name": "key"},
           "cookieKey": {"type": "apiKey", "in": "cookie", "name": "sid"}}},
         "paths": {
          "/s/{lab}/{mat}/{ids}": {"get": {"operationId": "styles", "parameters": [
            {"name": "lab", "in": "path", "required": true, "style": "label", "schema": {"type": "integer"}},
            {"name": "mat", "in": "path", "required": true, "style": "matrix", "schema": {"type": "integer"}},
            {"name": "ids", "in": "path", "required": true, "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "tags", "in": "query", "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "csv", "in": "query", "explode": false, "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "sp", "in": "query", "style": "spaceDelimited", "explode": false,
             "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "pipe", "in": "query", "style": "pipeDelimited", "explode": false,
             "schema": {"type": "array", "items": {"type": "integer"}}},
            {"name": "filter", "in": "query", "style": "deepObject", "schema": {"type": "object",
             "properties": {"min": {"type": "integer"}, "max": {"type": "integer"}}, "additionalProperties": false}},
            {"name": "page", "in": "query", "schema": {"type": "object",
             "properties": {"size": {"type": "integer", "maximum": 50}, "after": {"type": "string"}}}},
            {"name": "X-Range", "in": "header",
             "schema": {"type": "object", "properties": {"from": {"type": "integer"}}}},
            {"name": "session", "in": "cookie", "required": true, "schema": {"type": "string", "minLength": 3}},
            {"name": "q", "in": "query",
             "content": {"application/json": {"schema": {"type": "object", "required": ["a"]}}}},
            {"name": "flag", "in": "query", "schema": {"type": "boolean"}},
            {"name": "ratio", "in": "query", "schema": {"type": "number", "maximum": 1}}],
            "responses": {"204": {"description": "ok"}}}},
          "/basic": {"get": {"security": [{"basic": []}], "responses": {"204": {"description": "ok"}}}},
          "/keys": {"get": {"security": [{"queryKey": [], "cookieKey": []}, {}],
            "responses": {"204": {"description": "ok"}}}},
          "/query-key": {"get": {"security": [{"queryKey": []}], "responses": {"204": {"description": "ok"}}}},
          "/forms": {"post": {"requestBody": {"required": true, "content": {
             "application/x-www-form-urlencoded": {"schema": {"type": "object", "required": ["name"], "properties": {
               "name": {"type": "string"}, "age": {"type": "integer"},
               "tags": {"type": "array", "items": {"type": "integer"}}}}},
             "multipart/form-data": {"schema": {"type": "object", "required": ["file", "meta"]}}}},
           "responses": {"204": {"description": "ok"}}}}
         }}
        """##

    /// The violations the contract's journal shows for each request, in order.
    static func findings(_ requests: [URLRequest]) async throws -> [[String]] {
        let folder = try TemporaryFolder()
        let registry = MockRegistry()
        registry.register(try OpenAPIContract(contentsOf: try folder.write("styles.json", contract)), validation: .warn)
        let session = registry.makeSession()
        for request in requests { _ = try await session.data(for: request) }
        return registry.journal.map { entry in
            entry.contractAnswer.map { $0.violations + $0.warnings } ?? ["(not answered by the contract)"]
        }
    }

    static func request(
        _ path: String, _ headers: [String: String] = [:], method: String = "GET", body: String? = nil
    ) -> URLRequest {
        var request = URLRequest(url: URL(string: "http://styles.test" + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    @Test("every style reads its values: label, matrix, simple, form exploded and not, delimited, deepObject, JSON")
    func styles() async throws {
        let headers = ["X-Range": "from,5", "Cookie": "session=abcd"]
        let valid =
            "/s/.5/;mat=6/1,2,3?tags=1&tags=2&csv=1,2&sp=1%202&pipe=1%7C2&filter%5Bmin%5D=1&filter%5Bmax%5D=9"
            + "&size=10&after=x&q=%7B%22a%22:1%7D&flag=true&ratio=0.5"
        let invalid =
            "/s/.x/;mat=y/1,z?tags=1&tags=t&csv=1,c&sp=1%20s&pipe=1%7Cp&filter%5Bmin%5D=m&filter%5Bother%5D=1"
            + "&size=99&q=%7B%7D&flag=yes&ratio=2"
        let findings = try await Self.findings([
            Self.request(valid, headers),
            Self.request(invalid, ["X-Range": "from,f"]),
            Self.request("/s/.1/;mat=2/3?q=%7Bnot", ["Cookie": "session=ab"]),
        ])
        #expect(findings[0] == [])
        #expect(
            findings[1] == [
                #"path lab: expected integer, got "x""#,
                #"path mat: expected integer, got "y""#,
                #"path ids /1: expected integer, got "z""#,
                #"query tags /1: expected integer, got "t""#,
                #"query csv /1: expected integer, got "c""#,
                #"query sp /1: expected integer, got "s""#,
                #"query pipe /1: expected integer, got "p""#,
                #"query filter /min: expected integer, got "m""#,
                #"query filter /other: the property "other" is not allowed here"#,
                "query page /size: 99 is more than the maximum 50",
                #"header X-Range /from: expected integer, got "f""#,
                "cookie session: the required cookie parameter is missing",
                #"query q: missing the required property "a""#,
                #"query flag: expected boolean, got "yes""#,
                "query ratio: 2 is more than the maximum 1",
            ])
        #expect(
            findings[2] == [
                "cookie session: is 2 characters long; at least 3 expected",
                "query q: the value is not JSON: invalid JSON at byte 1: expected a string key",
            ])
    }

    @Test("credentials: their shape is checked, never their truth; a list is any-of, a requirement all-of, {} optional")
    func credentials() async throws {
        let findings = try await Self.findings([
            Self.request("/basic", ["Authorization": "Basic dXNlcg=="]),  // "user": no colon
            Self.request("/basic", ["Authorization": "Basic dXNlcjpwdw=="]),  // "user:pw"
            Self.request("/basic", ["Authorization": "Bearer t"]),
            Self.request("/query-key?key=k"),
            Self.request("/query-key"),
            Self.request("/keys"),
            // A query item the operation doesn't declare is drift, a warning (an API key's and __code
            // are declared).
            Self.request("/query-key?key=k&debug=1&__code=204&debug=2"),
        ])
        let basic = "security: no credentials; send Authorization: Basic with user:password"
        #expect(
            findings == [
                [basic], [], [basic], [], ["security: no credentials; send an API key in the query key"], [],
                ["warning: query debug: the operation declares no query parameter of this name"],
            ])
    }

    @Test("a form body is read as an object; so is a multipart body, which must have its required parts")
    func bodies() async throws {
        let form = ["Content-Type": "application/x-www-form-urlencoded"]
        let multipart = ["Content-Type": "multipart/form-data; boundary=XyZ"]
        let parts = "--XyZ\r\nContent-Disposition: form-data; name=\"meta\"\r\n\r\n{}\r\n--XyZ--\r\n"
        let findings = try await Self.findings([
            Self.request("/forms", form, method: "POST", body: "name=Rex+the+dog&age=3&tags=1&tags=2"),
            Self.request("/forms", form, method: "POST", body: "age=x&tags=1"),
            Self.request("/forms", multipart, method: "POST", body: parts),
            Self.request("/forms", ["Content-Type": "text/plain"], method: "POST", body: "Rex"),
            Self.request("/forms", form, method: "POST"),
        ])
        #expect(
            findings == [
                [],
                [#"body: missing the required property "name""#, #"body /age: expected integer, got "x""#],
                [#"body: missing the required property "file""#],
                [
                    "body: Content-Type text/plain is not one the operation takes: application/x-www-form-urlencoded, "
                        + "multipart/form-data"
                ],
                ["body: the operation needs a body (application/x-www-form-urlencoded, multipart/form-data)"],
            ])
    }
}
