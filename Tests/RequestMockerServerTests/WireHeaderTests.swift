import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The header fields a filter can rely on are the same through `MockURLProtocol` and through
/// `MockServer`: the request's own, and those URL loading derives from it (`Host`,
/// `Content-Length`, a `POST` body's default `Content-Type`).
@Suite("Header fields through both transports", .timeLimit(.minutes(3)), .hangGuard)
struct WireHeaderTests {
    static func registry() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(
            .post("/login").header("Content-Length", "7").header("Content-Type", "application/x-www-form-urlencoded")
                .header("Host"),
            respond: .string("matched"))
        registry.register(.any("/fields")) { request, _ in
            .string(
                ["Host", "Content-Length", "Content-Type", "Transfer-Encoding"].map {
                    "\($0 == "Transfer-Encoding" ? "TE" : $0)=\(request.header(HTTPHeaders.Name($0)) ?? "-")"
                }.joined(
                    separator: " "))
        }
        return registry
    }

    func post(_ url: URL, body: String?) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.httpBody = body.map { Data($0.utf8) }
        return request
    }

    @Test("Host, Content-Length and the default Content-Type match alike through both transports")
    func sameFieldsThroughBoth() async throws {
        let registry = Self.registry()
        try await withServer(registry) { _, base in
            let port = base.port ?? 0
            let throughServer = try await plainSession().data(
                for: post(base.appendingPathComponent("login"), body: "payload"))
            let throughProtocol = try await registry.makeSession().data(
                for: post(url("http://127.0.0.1:\(port)/login"), body: "payload"))
            #expect(String(decoding: throughServer.0, as: UTF8.self) == "matched")
            #expect(String(decoding: throughProtocol.0, as: UTF8.self) == "matched")

            for (body, expected) in [
                (
                    "payload",
                    "Host=127.0.0.1:\(port) Content-Length=7 Content-Type=application/x-www-form-urlencoded TE=-"
                ),
                ("", "Host=127.0.0.1:\(port) Content-Length=0 Content-Type=- TE=-"),
            ] {
                let server = try await plainSession().data(for: post(base.appendingPathComponent("fields"), body: body))
                let mocked = try await registry.makeSession().data(
                    for: post(url("http://127.0.0.1:\(port)/fields"), body: body))
                #expect(String(decoding: server.0, as: UTF8.self) == expected)
                #expect(String(decoding: mocked.0, as: UTF8.self) == expected)
            }
            // A request's own Host and type win.
            var own = post(url("https://api.test/fields"), body: "{}")
            own.setValue("application/json", forHTTPHeaderField: "Content-Type")
            #expect(
                String(decoding: try await registry.makeSession().data(for: own).0, as: UTF8.self)
                    == "Host=api.test Content-Length=2 Content-Type=application/json TE=-")
        }
    }

    @Test("a streamed body goes chunked, without a length, through both transports")
    func streamedBody() async throws {
        let registry = Self.registry()
        try await withServer(registry) { _, base in
            let port = base.port ?? 0
            func streamed(_ url: URL) -> URLRequest {
                var request = post(url, body: nil)
                request.httpBodyStream = InputStream(data: Data("payload".utf8))
                return request
            }
            let expected =
                "Host=127.0.0.1:\(port) Content-Length=- Content-Type=application/x-www-form-urlencoded TE=chunked"
            let server = try await plainSession().data(for: streamed(base.appendingPathComponent("fields")))
            let mocked = try await registry.makeSession().data(for: streamed(url("http://127.0.0.1:\(port)/fields")))
            #expect(String(decoding: server.0, as: UTF8.self) == expected)
            #expect(String(decoding: mocked.0, as: UTF8.self) == expected)
        }
    }

    @Test(
        "Host leaves out the port a scheme implies",
        arguments: [
            ("http://api.test:80/fields", "api.test"), ("https://api.test:443/fields", "api.test"),
            ("http://api.test:443/fields", "api.test:443"), ("https://api.test:8443/fields", "api.test:8443"),
            ("http://[::1]:80/fields", "[::1]"), ("http://[::1]:8080/fields", "[::1]:8080"),
        ])
    func defaultPortLeftOut(address: String, host: String) async throws {
        let (data, _) = try await Self.registry().makeSession().data(from: url(address))
        #expect(String(decoding: data, as: UTF8.self).hasPrefix("Host=\(host) "))
    }

    #if os(Linux)
        /// Measured: libcurl sends `Content-Length: 0` for every method but `GET` and `HEAD`
        /// without a body.
        @Test(
            "a body-less request's Content-Length, by method", arguments: ["GET", "DELETE", "PATCH", "OPTIONS", "PUT"])
        func emptyLengthByMethod(method: String) async throws {
            let registry = Self.registry()
            try await withServer(registry) { _, base in
                let port = base.port ?? 0
                func request(_ url: URL) -> URLRequest {
                    var request = URLRequest(url: url)
                    request.httpMethod = method
                    return request
                }
                let length = method == "GET" ? "-" : "0"
                let expected = "Host=127.0.0.1:\(port) Content-Length=\(length) Content-Type=- TE=-"
                let server = try await plainSession().data(for: request(base.appendingPathComponent("fields")))
                let mocked = try await registry.makeSession().data(for: request(url("http://127.0.0.1:\(port)/fields")))
                #expect(String(decoding: server.0, as: UTF8.self) == expected)
                #expect(String(decoding: mocked.0, as: UTF8.self) == expected)
            }
        }

        /// Measured: FoundationNetworking's loader adds these on the wire, where only the server
        /// sees them; a URL protocol sees the request before they are added.
        @Test("the loader's own fields reach only the server")
        func loaderFieldsOnlyOnTheServer() async throws {
            let registry = MockRegistry()
            registry.register(.any("/ua")) { request, _ in
                .string(
                    ["User-Agent", "Accept", "Accept-Encoding"].map {
                        request.header(HTTPHeaders.Name($0)) == nil ? "-" : "+"
                    }.joined())
            }
            try await withServer(registry) { _, base in
                let server = try await plainSession().data(from: base.appendingPathComponent("ua"))
                let mocked = try await registry.makeSession().data(from: url("https://api.test/ua"))
                #expect(String(decoding: server.0, as: UTF8.self) == "+++")
                #expect(String(decoding: mocked.0, as: UTF8.self) == "---")
            }
        }
    #endif
}
