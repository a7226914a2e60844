import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// Every kind of response, sent through `MockURLProtocol` and through `MockServer` from one
/// registry: both transports give the same status, headers and body, or the failure `Outcome`
/// documents for what a transport can't express.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct TransportParityTests {
    /// What a URLSession call ended with.
    enum Received: Equatable, CustomStringConvertible {
        case response(status: Int, headers: [String: String], body: String, path: String)
        case failure(URLError.Code)

        var description: String {
            switch self {
            case .response(let status, let headers, let body, let path):
                "\(status) \(path) \(headers.sorted { $0.key < $1.key }) \(body.debugDescription)"
            case .failure(let code): "URLError \(code.rawValue)"
            }
        }
    }

    /// A mock whose result differs by transport, as documented on `Outcome`. `nil`: a failure
    /// whose code wasn't measured on this platform (see `MeasuredFaultCode`), so only the failure
    /// is checked.
    struct Expected {
        let viaProtocol: Received?
        let viaServer: Received?

        init(viaProtocol: URLError.Code?, viaServer: URLError.Code?) {
            self.viaProtocol = viaProtocol.map { .failure($0) }
            self.viaServer = viaServer.map { .failure($0) }
        }

        /// A fault both transports report alike where that was measured.
        init(both code: URLError.Code?) {
            self.init(viaProtocol: code, viaServer: code)
        }
    }

    /// Whether `received` is what `expected` says (any failure, for `nil`).
    static func matches(_ received: Received, _ expected: Received?) -> Bool {
        guard let expected else {
            if case .failure = received { return true }
            return false
        }
        return received == expected
    }

    /// The paths and what each answers with. Nothing answers `/real`, which passes through to
    /// the upstream server, or `/recorded`, which a cassette records from it.
    static func register(in registry: MockRegistry, file: URL) {
        let bytes = Data((0..<200).map { UInt8($0 % 26 + 97) })
        registry.register(.get("/data"), respond: .data(Data("hello".utf8), headers: ["X-Kind": "data"]))
        registry.register(.get("/json"), respond: .json(["id": 7, "name": "Ada"]))
        registry.register(.get("/file"), respond: .file(file))
        registry.register(.get("/sync")) { request, _ in .string("sync \(request.method)", status: 201) }
        registry.register(.get("/async")) { _, _ in
            try await Task.sleep(for: .milliseconds(20))
            return .string("async", headers: ["X-Kind": "async"])
        }
        registry.register(.get("/delay"), respond: .string("late").delayed(by: .milliseconds(50)))
        registry.register(.get("/throttle"), respond: .data(bytes).throttled(bytesPerSecond: 2_000))
        registry.register(.get("/close"), respond: .fault(.closeBeforeResponding))
        registry.register(.get("/reset"), respond: .fault(.reset))
        registry.register(.get("/malformed"), respond: .fault(.malformedStatusLine))
        registry.register(.get("/stall"), respond: .fault(.stall))
        registry.register(.get("/cut"), respond: .data(bytes).truncated(afterBytes: 10))
        registry.register(.get("/error"), respond: .error(URLError(.notConnectedToInternet)))
        registry.register(.get("/redirect"), respond: .redirect(to: "/json", status: 307))
    }

    static let same: [String] = [
        "/data", "/json", "/file", "/sync", "/async", "/delay", "/throttle", "/redirect", "/real", "/recorded",
    ]

    static let differing: [String: Expected] = [
        "/close": Expected(both: MeasuredFaultCode.closeBeforeResponding),
        "/reset": Expected(both: MeasuredFaultCode.reset),
        "/malformed": Expected(both: MeasuredFaultCode.malformedStatusLine),
        "/stall": Expected(both: .timedOut),
        "/cut": Expected(both: MeasuredFaultCode.truncatedBody),
        // A server can't send an error: it resets the connection.
        "/error": Expected(viaProtocol: .notConnectedToInternet, viaServer: MeasuredFaultCode.reset),
    ]

    @Test(arguments: same + differing.keys.sorted())
    func bothTransportsAnswerAlike(path: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("body.json")
        try Data(#"{"from":"file"}"#.utf8).write(to: file)

        // The real server that pass-through and recording reach.
        let upstreamRegistry = MockRegistry()
        upstreamRegistry.register(.get("/real"), respond: .string("real", headers: ["X-Upstream": "yes"]))
        upstreamRegistry.register(.get("/recorded"), respond: .json(["recorded": true]))
        try await withServer(upstreamRegistry) { _, upstream in
            // Each transport gets its own registry and cassette, so one's recording doesn't
            // answer the other.
            let viaProtocol = try await Self.receive(
                path, upstream: upstream, folder: folder, file: file, name: "protocol"
            ) { registry, url in
                try await Self.fetch(url, in: registry.makeSession(), host: nil)
            }
            let viaServer = try await Self.receive(path, upstream: upstream, folder: folder, file: file, name: "server")
            { registry, url in
                try await withServer(registry) { _, base in
                    let target = URL(string: base.absoluteString + url.path)!
                    return try await Self.fetch(target, in: plainSession(), host: "\(upstream.host!):\(upstream.port!)")
                }
            }
            if let expected = Self.differing[path] {
                #expect(Self.matches(viaProtocol, expected.viaProtocol), "\(viaProtocol)")
                #expect(Self.matches(viaServer, expected.viaServer), "\(viaServer)")
            } else {
                #expect(viaProtocol == viaServer)
                if case .failure = viaProtocol {
                    Issue.record("\(path) failed through both transports: \(viaProtocol)")
                }
            }
        }
        #expect(
            upstreamRegistry.journal.map(\.request.url.path)
                == (["/real", "/recorded"].contains(path) ? [path, path] : []))
    }

    @Test func aMistakeInTheMocksIsTheErrorThroughTheProtocolAnd500OnTheServer() async throws {
        let registry = MockRegistry()
        registry.register(.get("/mistake"), respond: .file(URL(fileURLWithPath: "/nonexistent/parity.json")))
        let url = URL(string: "http://parity.test/mistake")!
        let error = await #expect(throws: RequestMockerError.self) {
            _ = try await registry.makeSession().data(from: url)
        }
        let mistake = try #require(error)
        #expect("\(mistake)".hasPrefix("cannot read response file /nonexistent/parity.json: "))
        try await withServer(registry) { _, base in
            let (data, response) = try await plainSession().data(from: base.appendingPathComponent("mistake"))
            #expect(response.status == 500)
            #expect(String(decoding: data, as: UTF8.self) == "\(mistake)\n")
        }
    }

    @Test func aResponseThatCantBeSentAsHTTPIsTheSameMistakeThroughBothTransports() async throws {
        let registry = MockRegistry()
        registry.register(.get("/splits"), respond: .string("x", headers: ["X\r\nX-Smuggled": "1"]))
        registry.register(.get("/breaks"), respond: .string("x", headers: ["X-Value": "1\r\n\r\nHTTP/1.1 200 OK"]))
        registry.register(.get("/negative"), respond: .status(-7))
        registry.register(.get("/huge"), respond: .status(1_000_000))
        let reasons = [
            "/splits": #"header name "X\r\nX-Smuggled" is not a token (RFC 9110 §5.1)"#,
            "/breaks": "the value of header X-Value holds a carriage return, line feed or NUL",
            "/negative": "status -7 is not three digits from 100 to 999",
            "/huge": "status 1000000 is not three digits from 100 to 999",
        ]
        try await withServer(registry) { _, base in
            for (path, reason) in reasons {
                let error = await #expect(throws: RequestMockerError.self) {
                    _ = try await registry.makeSession().data(from: URL(string: "http://parity.test\(path)")!)
                }
                let mistake = try #require(error)
                #expect("\(mistake)".contains("can't be sent as HTTP: \(reason); fix the response"), "\(mistake)")
                let reply = try await RawClient.exchange(
                    port: UInt16(base.port ?? 0),
                    ["GET \(path) HTTP/1.1\r\nHost: parity.test\r\nConnection: close\r\n\r\n"])
                #expect(reply.response.hasPrefix("HTTP/1.1 500 Internal Server Error\r\n"))
                // The raw client reads bytes as Latin-1.
                let body = try #require(String(data: Data("\(mistake)\n".utf8), encoding: .isoLatin1))
                #expect(reply.response.hasSuffix("\r\n\r\n" + body))
                #expect(!reply.response.contains("X-Smuggled:"))
            }
        }
    }

    /// Runs one request through a new registry (pass-through policy, a cassette recording into
    /// `folder`) with `send`.
    static func receive(
        _ path: String, upstream: URL, folder: URL, file: URL, name: String,
        send: (MockRegistry, URL) async throws -> Received
    ) async throws -> Received {
        let registry = MockRegistry(unmatchedPolicy: .passThrough)
        register(in: registry, file: file)
        let cassette = try Cassette(contentsOf: folder.appendingPathComponent("\(name).har"), record: .all)
        if path == "/recorded" { registry.register(cassette) }
        let received = try await send(registry, upstream.appendingPathComponent(String(path.dropFirst())))
        if path == "/recorded" {
            #expect(cassette.interactions.map(\.request.url.path) == ["/recorded"], "\(name) recorded it")
        }
        return received
    }

    static func fetch(_ url: URL, in session: URLSession, host: String?) async throws -> Received {
        var request = URLRequest(url: url)
        // Set as a property: FoundationNetworking's HTTP loader ignores the timeout given to
        // `URLRequest(url:timeoutInterval:)` and waits for the session's. The stall is expected
        // to time out, after three seconds; anything else gets sixty, which only guards against
        // a hang: the whole suite runs in parallel, and in its first seconds other tests' work
        // can hold Swift concurrency's two threads (which an async block, a forwarded request
        // and the server's wait for them need too) for longer than three seconds (seen once in
        // five runs of the whole suite on a two-core machine), the more so with every core busy.
        request.timeoutInterval = url.path == "/stall" ? 3 : 60
        if let host { request.setValue(host, forHTTPHeaderField: "Host") }
        do {
            let (data, response) = try await session.data(for: request)
            let http = try #require(response as? HTTPURLResponse)
            var headers: [String: String] = [:]
            for case (let name as String, let value as String) in http.allHeaderFields { headers[name] = value }
            return .response(
                status: http.statusCode, headers: headers, body: String(decoding: data, as: UTF8.self),
                path: http.url?.path ?? "")
        } catch let error as URLError {
            return .failure(error.code)
        }
    }
}
