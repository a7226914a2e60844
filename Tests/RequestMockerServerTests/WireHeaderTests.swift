import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The header fields a filter can rely on are the same through `MockURLProtocol` and through
/// `MockServer`: the request's own, and those URL loading derives from it (`Host`,
/// `Content-Length`, a `POST` body's default `Content-Type`).
@Suite("Header fields through both transports")
struct WireHeaderTests {
    static func registry() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(
            .post("/login").header("Content-Length", "7").header("Content-Type", "application/x-www-form-urlencoded")
                .header("Host"),
            respond: .string("matched"))
        registry.register(.any("/fields")) { request, _ in
            .string(
                ["Host", "Content-Length", "Content-Type"].map {
                    "\($0)=\(request.header(HTTPHeaders.Name($0)) ?? "-")"
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
                ("payload", "Host=127.0.0.1:\(port) Content-Length=7 Content-Type=application/x-www-form-urlencoded"),
                ("", "Host=127.0.0.1:\(port) Content-Length=0 Content-Type=-"),
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
                    == "Host=api.test Content-Length=2 Content-Type=application/json")
        }
    }

    #if os(Linux)
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
