import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// The same redirected tasks against a real server (Python's `http.server`, answering 301, 302,
/// 303, 307 and 308) and against mocks of it: the request that reaches the final URL must be
/// the same, method, body and header fields, except where RequestMocker differs on purpose (a
/// hop to another origin leaves `Authorization` and `Cookie` behind).
@Suite("Redirects as the platform follows them", .timeLimit(.minutes(3)), .hangGuard)
struct RedirectParityTests {
    let server: PythonEchoServer

    init() async throws {
        server = try await PythonEchoServer.shared(script: "redirect_server")
    }

    /// The fields compared: what the test sets, and what URL loading derives from the request.
    static let compared = ["authorization", "cookie", "x-custom", "content-type", "content-length", "host"]

    /// What reached the final URL.
    struct Arrival: Equatable, CustomStringConvertible {
        let method: String
        let body: String
        let headers: [String: String]

        var description: String { "\(method) body=\(body.debugDescription) \(headers.sorted { $0.key < $1.key })" }
    }

    /// Reads the echo the final URL put in `X-Echo` (a `HEAD` response has no body).
    static func arrival(_ response: URLResponse) throws -> Arrival {
        let echo = try #require((response as? HTTPURLResponse)?.value(forHTTPHeaderField: "X-Echo"))
        let json = try JSONValue(parsing: try #require(Data(base64Encoded: echo)))
        var headers: [String: String] = [:]
        for name in compared {
            if let value = json["headers"]?[name]?.stringValue { headers[name] = value }
        }
        return Arrival(
            method: json["method"]?.stringValue ?? "", body: json["body"]?.stringValue ?? "", headers: headers)
    }

    /// Mocks of the real server: the same redirects, and an echo at the final URLs.
    func mocks() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(.any("http://127.0.0.1:\(server.port)/r/<status>")) { request, captures in
            let target = request.queryItems.first { $0.name == "to" }?.value ?? "/final"
            return .redirect(to: target, status: HTTPStatus(captures.int("status") ?? 302))
        }
        for host in ["127.0.0.1", "localhost"] {
            registry.register(.any("http://\(host):\(server.port)/final")) { request, _ in
                var headers: [String: JSONValue] = [:]
                for field in request.headers { headers[field.name.rawValue.lowercased()] = .string(field.value) }
                let echo: JSONValue = [
                    "method": .string(request.method.rawValue), "body": .string(request.bodyText ?? ""),
                    "headers": .object(headers),
                ]
                let data = (try? echo.serialized()) ?? Data()
                return .data(data, headers: ["X-Echo": data.base64EncodedString()])
            }
        }
        return registry
    }

    func task(_ status: Int, _ method: String, crossOrigin: Bool) -> URLRequest {
        let target = crossOrigin ? "http://localhost:\(server.port)/final" : "/final"
        var request = URLRequest(url: URL(string: "\(server.baseURL)/r/\(status)?to=\(target)")!)
        request.httpMethod = method
        request.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        request.setValue("c=1", forHTTPHeaderField: "Cookie")
        request.setValue("x", forHTTPHeaderField: "X-Custom")
        if method == "POST" || method == "PUT" {
            request.httpBody = Data("payload".utf8)
            request.setValue("text/plain", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    @Test(
        "the request after a redirect is the platform's: method, body and fields",
        arguments: [301, 302, 303, 307, 308], ["GET", "HEAD", "POST", "PUT"])
    func sameAsTheRealServer(status: Int, method: String) async throws {
        let real = URLSession(configuration: .ephemeral)
        let mocked = mocks().makeSession()
        defer {
            real.finishTasksAndInvalidate()
            mocked.finishTasksAndInvalidate()
        }
        for crossOrigin in [false, true] {
            let request = task(status, method, crossOrigin: crossOrigin)
            let fromServer = try Self.arrival(try await real.data(for: request).1)
            let fromMocks = try Self.arrival(try await mocked.data(for: request).1)
            let place = "\(status) \(method)\(crossOrigin ? " to another origin" : "")"
            if crossOrigin {
                // Left behind on purpose, as curl and browsers do.
                #expect(fromMocks.headers["authorization"] == nil, "\(place)")
                #expect(fromMocks.headers["cookie"] == nil, "\(place)")
                #if os(Linux)
                    // Measured: FoundationNetworking 6.3.1 sends them on to the other origin.
                    #expect(fromServer.headers["authorization"] == "Bearer t", "\(place)")
                    #expect(fromServer.headers["cookie"] == "c=1", "\(place)")
                #endif
                var sent = fromServer.headers
                sent["authorization"] = nil
                sent["cookie"] = nil
                #expect(
                    Arrival(method: fromServer.method, body: fromServer.body, headers: sent) == fromMocks, "\(place)")
            } else {
                #expect(fromServer == fromMocks, "\(place)")
            }
        }
    }

    #if os(Linux)
        /// What FoundationNetworking 6.3.1 measured: 301 and 302 turn only a `POST` into a
        /// `GET`, 303 turns everything into a `GET` (a `HEAD` too), and no redirect keeps the
        /// body, not even 307 and 308; `Content-Type` stays.
        @Test("FoundationNetworking's measured rules")
        func measuredRules() async throws {
            let real = URLSession(configuration: .ephemeral)
            defer { real.finishTasksAndInvalidate() }
            var seen: [String] = []
            for status in [301, 303, 307] {
                for method in ["HEAD", "POST", "PUT"] {
                    let arrival = try Self.arrival(try await real.data(for: task(status, method, crossOrigin: false)).1)
                    seen.append(
                        "\(status) \(method) -> \(arrival.method) \(arrival.body.isEmpty ? "no body" : arrival.body) "
                            + "\(arrival.headers["content-type"] ?? "-") \(arrival.headers["content-length"] ?? "-")")
                }
            }
            #expect(
                seen == [
                    "301 HEAD -> HEAD no body - -", "301 POST -> GET no body text/plain -",
                    "301 PUT -> PUT no body text/plain 0",
                    "303 HEAD -> GET no body - -", "303 POST -> GET no body text/plain -",
                    "303 PUT -> GET no body text/plain -",
                    "307 HEAD -> HEAD no body - -", "307 POST -> POST no body text/plain 0",
                    "307 PUT -> PUT no body text/plain 0",
                ])
        }
    #endif

    @Test("a filter can make its redirect the final answer; the registry's switch does it for all")
    func notFollowed() async throws {
        let registry = MockRegistry()
        registry.register(.get("/logout").followingRedirects(false), respond: .redirect(to: "/login"))
        registry.register(.get("/old"), respond: .redirect(to: "/login", status: 301))
        registry.register(.get("/login"), respond: .string("sign in"))
        let session = registry.makeSession()
        defer { session.finishTasksAndInvalidate() }
        let (body, response) = try await session.data(from: url("https://api.test/logout"))
        #expect(response.status == 302)
        #expect(response.header("Location") == "/login")
        #expect(body.isEmpty)
        #expect(try await session.data(from: url("https://api.test/old")).0 == Data("sign in".utf8))
        registry.followsRedirects = false
        #expect(try await session.data(from: url("https://api.test/old")).1.status == 301)
        registry.register(.get("/moved").followingRedirects(true), respond: .redirect(to: "/login"), at: .first)
        #expect(try await session.data(from: url("https://api.test/moved")).0 == Data("sign in".utf8))
    }
}
