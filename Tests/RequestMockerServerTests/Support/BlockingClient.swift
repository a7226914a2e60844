import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A client that sends one request and reads the reply on the calling thread, with blocking
/// socket calls and nothing of Swift concurrency: for tests that park every thread of the
/// cooperative pool and see what the server still does. Bounded: each read gives up after
/// `timeout` without a byte.
enum BlockingClient {
    /// What arrived: the bytes, and when each read's bytes came (seconds since the request).
    struct Reply {
        var bytes: [UInt8] = []
        var arrivals: [(offset: Int, seconds: Double)] = []
        /// Whether the server ended the connection (rather than the client giving up).
        var closed = false
    }

    static func exchange(port: UInt16, _ request: String, timeout: Int = 60) throws -> Reply {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket", code: errno) }
        defer { _ = close(descriptor) }
        var limit = timeval(tv_sec: timeout, tv_usec: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw Failure(call: "connect", code: errno) }
        let clock = ContinuousClock()
        let start = clock.now
        let bytes = Array(request.utf8)
        let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
        guard sent == bytes.count else { throw Failure(call: "send", code: errno) }
        var reply = Reply()
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count == 0 {
                reply.closed = true
                return reply
            }
            guard count > 0 else {
                if errno == EINTR { continue }
                return reply
            }
            let elapsed = start.duration(to: clock.now).components
            reply.arrivals.append(
                (reply.bytes.count, Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18))
            reply.bytes += buffer[..<count]
        }
    }

    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32
        var description: String { "\(call) failed: \(String(cString: strerror(code)))" }
    }
}
