import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// Faults happen on the wire at the server, and `MockURLProtocol` reports each as the error
/// `URLSession` reports for the real thing.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct MockServerFaultTests {
    static func faultRegistry() -> MockRegistry {
        let registry = MockRegistry()
        registry.register(.get("/close"), respond: .fault(.closeBeforeResponding))
        registry.register(.get("/reset"), respond: .fault(.reset))
        registry.register(.get("/malformed"), respond: .fault(.malformedStatusLine))
        registry.register(.get("/cut"), respond: .string(String(repeating: "x", count: 100)).truncated(afterBytes: 5))
        registry.register(.get("/error"), respond: .error(URLError(.cannotLoadFromNetwork)))
        registry.register(.get("/stall"), respond: .fault(.stall))
        return registry
    }

    @Test func pythonSeesEachFault() async throws {
        try await withServer(Self.faultRegistry()) { _, base in
            let script = """
                import http.client, socket, sys
                for path in ["/close", "/reset", "/malformed", "/cut", "/error", "/stall"]:
                    # Only the stall should need its timeout; the rest end at once.
                    conn = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]),
                                                      timeout=0.5 if path == "/stall" else 60)
                    try:
                        conn.request("GET", path)
                        response = conn.getresponse()
                        print(path, response.status, response.read())
                    except Exception as error:
                        print(path, type(error).__name__)
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)], timeout: .seconds(120))
            #expect(
                result.output == """
                    /close RemoteDisconnected
                    /reset ConnectionResetError
                    /malformed BadStatusLine
                    /cut IncompleteRead
                    /error ConnectionResetError
                    /stall TimeoutError

                    """)
        }
    }

    /// Pins what FoundationNetworking reports for each fault from a real server, and that the
    /// URL protocol reports the same without one. On Apple platforms, where the codes are
    /// unmeasured (see `MeasuredFaultCode`), both must fail, and the protocol with the code
    /// `ConnectionFault` gives there.
    @Test(arguments: [
        ("/close", MeasuredFaultCode.closeBeforeResponding, ConnectionFault.closeBeforeResponding.urlErrorCode),
        ("/reset", MeasuredFaultCode.reset, ConnectionFault.reset.urlErrorCode),
        ("/malformed", MeasuredFaultCode.malformedStatusLine, ConnectionFault.malformedStatusLine.urlErrorCode),
        ("/cut", MeasuredFaultCode.truncatedBody, ConnectionFault.truncatedBodyErrorCode),
        // URLSession's own timeout, on every platform.
        ("/stall", URLError.Code.timedOut, URLError.Code.timedOut),
    ])
    func urlSessionReportsTheSameErrorFromTheServerAndTheProtocol(
        path: String, measured: URLError.Code?, delivered: URLError.Code
    ) async throws {
        let registry = Self.faultRegistry()
        // Only the stall needs its timeout; the rest fail at once, and their long one only bounds a hang.
        let timeout: TimeInterval = path == "/stall" ? 1 : 60
        try await withServer(registry) { _, base in
            var request = URLRequest(url: base.appendingPathComponent(path))
            request.timeoutInterval = timeout
            let fromServer = try await urlErrorCode { _ = try await plainSession().data(for: request) }
            let mocked = registry.makeSession()
            var direct = URLRequest(url: URL(string: "https://api.test\(path)")!)
            direct.timeoutInterval = timeout
            let fromProtocol = try await urlErrorCode { _ = try await mocked.data(for: direct) }
            #expect(isMeasuredFailure(fromServer, measured), "\(String(describing: fromServer))")
            #expect(fromProtocol == delivered)
            if measured != nil {
                #expect(fromProtocol == fromServer)
            }
        }
    }

    #if os(Linux)
        @Test func linuxCodesAreTheMeasuredOnes() {
            #expect(ConnectionFault.closeBeforeResponding.urlErrorCode == MeasuredFaultCode.closeBeforeResponding)
            #expect(ConnectionFault.reset.urlErrorCode == MeasuredFaultCode.reset)
            #expect(ConnectionFault.malformedStatusLine.urlErrorCode == MeasuredFaultCode.malformedStatusLine)
            #expect(ConnectionFault.truncatedBodyErrorCode == MeasuredFaultCode.truncatedBody)
        }
    #endif

    @Test func aTruncatedBodyDeliversItsFirstBytesThroughTheProtocol() async throws {
        let registry = Self.faultRegistry()
        let delegate = RecordingDelegate()
        let session = registry.makeSession(delegate: delegate)
        let task = session.dataTask(with: URL(string: "https://api.test/cut")!)
        task.resume()
        let (_, data, error) = await delegate.completion(of: task)
        #expect(String(decoding: data, as: UTF8.self) == "xxxxx")
        #expect((error as? URLError)?.code == ConnectionFault.truncatedBodyErrorCode)
    }

    @Test func theNextRequestAfterAFaultIsServed() async throws {
        let registry = Self.faultRegistry()
        registry.register(.get("/fine"), respond: .string("fine"))
        try await withServer(registry) { _, base in
            for path in ["/close", "/reset", "/malformed", "/cut", "/error"] {
                _ = try await ExternalProcess.curl([base.absoluteString + path])
                let next = try await ExternalProcess.curl([base.absoluteString + "/fine"])
                #expect(next.output == "fine", "after \(path)")
            }
        }
    }
}
