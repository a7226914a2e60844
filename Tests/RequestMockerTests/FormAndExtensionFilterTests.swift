import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `.formBody` (token endpoints post forms) and `.pathExtension`, through real `URLSession`
/// tasks.
@Suite("Form-body and path-extension filters", .timeLimit(.minutes(3)), .hangGuard)
struct FormAndExtensionFilterTests {
    let registry = MockRegistry()

    private func post(_ body: String, contentType: String? = "application/x-www-form-urlencoded") -> URLRequest {
        var request = URLRequest(url: url("https://auth.test/oauth/token"))
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
        return request
    }

    /// The reason the nearest filter gave for not matching `request`.
    private func nearMiss(_ request: URLRequest) async -> String? {
        do {
            _ = try await registry.makeSession().data(for: request)
            Issue.record("\(request) matched")
            return nil
        } catch let RequestMockerError.unmatched(report) {
            return report.candidates.first?.reason
        } catch {
            Issue.record("\(error)")
            return nil
        }
    }

    @Test("form fields match in any order, decoded; a nil value asks only for the name; others may be present")
    func formFields() async throws {
        registry.register(
            .post("/oauth/token").formBody(["grant_type": "password", "username": "ada@example.com", "scope": nil]),
            respond: .json(["access_token": "t"]))
        let session = registry.makeSession()
        for body in [
            "scope=read+write&username=ada%40example.com&grant_type=password",
            "grant_type=password&scope&username=ada@example.com&client_id=app",
            "username=ada%40example.com&scope=&grant_type=password",
        ] {
            let (data, response) = try await session.data(for: post(body))
            #expect(response.status == 200, "\(body)")
            #expect(data == Data(#"{"access_token":"t"}"#.utf8), "\(body)")
        }
        // Without a Content-Type the body is read as a form, as URL loading sends it.
        #expect(
            try await session.data(
                for: post("grant_type=password&username=ada%40example.com&scope=x", contentType: nil)
            ).1.status == 200)
    }

    @Test(
        "the near-miss report names the field that differed",
        arguments: [
            (
                "grant_type=client_credentials&username=ada%40example.com&scope=read",
                "application/x-www-form-urlencoded",
                #"form field grant_type is "client_credentials", filter wants "password""#
            ),
            (
                "grant_type=password&scope=read", "application/x-www-form-urlencoded",
                "form has no field username, filter wants username=ada@example.com"
            ),
            (
                "grant_type=password&username=ada%40example.com", "application/x-www-form-urlencoded; charset=utf-8",
                "form has no field scope, filter wants scope"
            ),
            (
                #"{"grant_type": "password"}"#, "application/json",
                "body is application/json, filter wants a form (application/x-www-form-urlencoded)"
            ),
            (
                "", "application/x-www-form-urlencoded",
                "request has no body, filter wants a form with grant_type=password&username=ada@example.com&scope"
            ),
        ])
    func formNearMisses(body: String, contentType: String, reason: String) async throws {
        registry.register(
            .post("/oauth/token").formBody(["grant_type": "password", "username": "ada@example.com", "scope": nil]),
            respond: .status(200))
        var request = post(body, contentType: contentType)
        if body.isEmpty { request.httpBody = nil }
        #expect(await nearMiss(request) == reason)
    }

    @Test("a secret field's values are hidden in the report and the description")
    func secretFieldsAreRedacted() async throws {
        let filter = RequestFilter.post("/oauth/token").formBody(["password": "hunter2"])
        registry.register(filter, respond: .status(200))
        #expect(
            await nearMiss(post("password=wrong")) == #"form field password is "REDACTED", filter wants "REDACTED""#)
        #expect(filter.description.hasPrefix("POST /oauth/token form password=REDACTED ("))
    }

    @Test("a path extension matches the last segment's, ignoring case and a leading dot")
    func pathExtensions() async throws {
        registry.register(.get("https://cdn.test/**").pathExtension(".png"), respond: .data(Data([0x89, 0x50])))
        let session = registry.makeSession()
        for path in ["/logo.png", "/img/2x/logo.PNG", "/a.b/icon.tar.png"] {
            let (data, response) = try await session.data(from: url("https://cdn.test" + path))
            #expect(response.status == 200, "\(path)")
            #expect(data == Data([0x89, 0x50]), "\(path)")
        }
        #expect(
            await nearMiss(URLRequest(url: url("https://cdn.test/logo.jpg")))
                == #"path extension is "jpg", filter wants "png""#)
        #expect(
            await nearMiss(URLRequest(url: url("https://cdn.test/logo")))
                == #"path has no extension, filter wants "png""#)
        #expect(
            await nearMiss(URLRequest(url: url("https://cdn.test/png")))
                == #"path has no extension, filter wants "png""#)
        #expect(RequestFilter.get("/**").pathExtension("PNG").description.hasPrefix("GET /** *.png ("))
    }
}
