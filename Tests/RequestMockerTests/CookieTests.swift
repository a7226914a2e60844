import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// A mocked `Set-Cookie` lands where the platform's own HTTP loader would put it, and later
/// requests of the same session carry it: the same flows against a real server (Python's
/// `http.server`) and against mocks of it, comparing the `Cookie` field that arrives.
@Suite("Cookies as the platform keeps them", .timeLimit(.minutes(3)), .hangGuard)
struct CookieTests {
    let server: PythonEchoServer

    init() async throws {
        server = try await PythonEchoServer.shared(script: "redirect_server")
    }

    /// Mocks of the real server: `/login` sets `session`, `/r/302?cookie=1` sets `hop` and
    /// redirects, and every other path echoes the `Cookie` field as the real one does
    /// (`{"headers": {"cookie": …}}`).
    func mocks() -> MockRegistry {
        let registry = MockRegistry()
        let base = server.baseURL
        registry.register(
            .any(base + "/login"), respond: .string("in", headers: ["Set-Cookie": "session=abc123; Path=/"]))
        registry.register(.any(base + "/r/302")) { request, _ in
            let target = request.queryItems.first { $0.name == "to" }?.value ?? "/final"
            return .redirect(to: target, status: 302, headers: ["Set-Cookie": "hop=302; Path=/"])
        }
        registry.register(.any(base + "/**")) { request, _ in
            .json(["headers": request.header(.cookie).map { ["cookie": .string($0)] } ?? [:]])
        }
        return registry
    }

    /// The `Cookie` field the real server, or the mock, saw on the flow's last request.
    /// The cookies are sorted: a cookie storage hands them out in no fixed order.
    static func cookieSent(_ data: Data) throws -> String {
        let field = try JSONValue(parsing: data)["headers"]?["cookie"]?.stringValue ?? ""
        return field.components(separatedBy: "; ").sorted().joined(separator: "; ")
    }

    /// Logs in, then asks for `/profile`, then follows a redirect that sets a cookie; returns
    /// the `Cookie` field of the second and third requests.
    func flow(_ session: URLSession) async throws -> [String] {
        var login = URLRequest(url: URL(string: server.baseURL + "/login")!)
        login.httpMethod = "POST"
        _ = try await session.data(for: login)
        let profile = try await session.data(from: URL(string: server.baseURL + "/profile")!).0
        let redirected = try await session.data(from: URL(string: server.baseURL + "/r/302?cookie=1&to=/final")!).0
        return [try Self.cookieSent(profile), try Self.cookieSent(redirected)]
    }

    @Test(
        "the login flow sends the same cookies to a real server and to mocks",
        arguments: [
            ("default", true, true), ("httpShouldSetCookies off", false, true), ("accept policy never", true, false),
        ])
    func sameCookiesAsTheRealServer(name: String, sends: Bool, accepts: Bool) async throws {
        func configuration() -> URLSessionConfiguration {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpShouldSetCookies = sends
            if !accepts { configuration.httpCookieAcceptPolicy = .never }
            return configuration
        }
        let realSession = URLSession(configuration: configuration())
        let mockedSession = mocks().makeSession(configuration: configuration())
        defer {
            realSession.finishTasksAndInvalidate()
            mockedSession.finishTasksAndInvalidate()
        }
        let real = try await flow(realSession)
        let mocked = try await flow(mockedSession)
        #expect(real == mocked, "\(name)")
        #if os(Linux)
            // Measured with FoundationNetworking 6.3.1.
            let expected: [String: [String]] = [
                "default": ["session=abc123", "hop=302; session=abc123"],
                "httpShouldSetCookies off": ["", ""],
                "accept policy never": ["", ""],
            ]
            #expect(real == expected[name], "\(name)")
        #endif
    }

    @Test("a cookie the real server sets through a pass-through stays with the session that got it")
    func passThroughKeepsCookiesApart() async throws {
        func passing() -> MockRegistry {
            let registry = MockRegistry()
            registry.register(.any(server.baseURL + "/**"), respond: .passThrough)
            return registry
        }
        // Two tests' registries, one process: the pass-through session is shared, its cookies aren't.
        let (first, second) = (passing(), passing())
        var login = URLRequest(url: URL(string: server.baseURL + "/login")!)
        login.httpMethod = "POST"
        let firstSession = first.makeSession()
        let secondSession = second.makeSession()
        defer {
            firstSession.finishTasksAndInvalidate()
            secondSession.finishTasksAndInvalidate()
        }
        _ = try await firstSession.data(for: login)
        let profile = URL(string: server.baseURL + "/profile")!
        #expect(try Self.cookieSent(try await firstSession.data(from: profile).0) == "session=abc123")
        #expect(try Self.cookieSent(try await secondSession.data(from: profile).0) == "")
        #expect(first.journal.count == 2)
        #expect(second.journal.count == 1)
    }

    @Test("each session keeps its own cookies; a cookie the test puts in the storage is sent")
    func sessionsKeepTheirOwn() async throws {
        let registry = mocks()
        let first = registry.makeSession()
        let second = registry.makeSession()
        defer {
            first.finishTasksAndInvalidate()
            second.finishTasksAndInvalidate()
        }
        _ = try await first.data(from: URL(string: server.baseURL + "/login")!)
        let profile = URL(string: server.baseURL + "/profile")!
        #expect(try Self.cookieSent(try await first.data(from: profile).0) == "session=abc123")
        #expect(try Self.cookieSent(try await second.data(from: profile).0) == "")
        let cookie = try #require(
            HTTPCookie(properties: [.name: "theme", .value: "dark", .path: "/", .domain: "127.0.0.1"]))
        second.configuration.httpCookieStorage?.setCookie(cookie)
        #expect(try Self.cookieSent(try await second.data(from: profile).0) == "theme=dark")
    }
}
