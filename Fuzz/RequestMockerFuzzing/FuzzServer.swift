import Foundation
import RequestMocker
import RequestMockerServer

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `MockServer` in the fuzzing process, and a raw client that sends it one input per
/// connection, half-closes, and reads until the server closes (or a second passes).
final class FuzzServer: Sendable {
    static let shared = FuzzServer()

    private let server: MockServer
    private let port: UInt16

    private init() {
        let registry = MockRegistry()
        registry.journalCapacity = 100
        registry.register(.get("/users/<id>"), respond: .json(["id": 1]))
        registry.register(.post("/upload"), respond: .status(204))
        let script = WebSocketScript(
            onConnect: [.text("hello")],
            rules: [
                (try? .text("^say (.+)$", [.text("$1 $0 $$")])) ?? .any([]),
                .json(["type": "ping"], [.text("pong")]),
                (try? .binary("^\u{00}", [.binary(Data([1]))])) ?? .any([]),
                (try? .text("^bye$", [.close(code: 4000, reason: "bye")])) ?? .any([]),
                .any([.echo]),
            ],
            maximumMessageSize: 4096)
        registry.register(.webSocket("/ws"), respond: .webSocket(script))
        registry.register(.any("**"), respond: .string("anything"))
        var configuration = MockServer.Configuration()
        configuration.maximumBodySize = 64 * 1024
        configuration.requestHeadTimeout = .milliseconds(500)
        configuration.requestTimeout = .milliseconds(500)
        configuration.idleTimeout = .milliseconds(500)
        server = MockServer(registry: registry, configuration: configuration)
        guard let base = try? server.start(), let port = base.port else {
            preconditionFailure("the fuzzing server could not start")
        }
        self.port = UInt16(port)
    }

    func deliver(_ input: Data) {
        let descriptor = socket(AF_INET, Self.streamType, 0)
        guard descriptor >= 0 else { return }
        defer { close(descriptor) }
        Self.keepSIGPIPEAway(descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = input.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Self.sendFlags) }
        shutdown(descriptor, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while recv(descriptor, &buffer, buffer.count, 0) > 0 {}
    }

    #if canImport(Glibc)
        private static let streamType = Int32(SOCK_STREAM.rawValue)
        /// Linux reports a closed peer as `EPIPE` instead of raising `SIGPIPE` when asked per call.
        private static let sendFlags = Int32(MSG_NOSIGNAL)
        private static func keepSIGPIPEAway(_ descriptor: Int32) {}
    #else
        private static let streamType = SOCK_STREAM
        private static let sendFlags: Int32 = 0
        /// Darwin has no per-call `MSG_NOSIGNAL`; the socket option keeps `SIGPIPE` away instead.
        private static func keepSIGPIPEAway(_ descriptor: Int32) {
            var on: Int32 = 1
            setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        }
    #endif
}
