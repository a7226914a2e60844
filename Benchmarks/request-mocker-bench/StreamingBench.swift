import Foundation
import RequestMocker
import RequestMockerServer

// The streaming rows: server-sent events through `MockServer`, read by curl, and WebSocket echo
// clients (written here, on raw sockets: there is no WebSocket client on this machine that
// wouldn't measure itself).

/// Events a second through `MockServer`: 10,000 events at no interval, read whole by `curl -N`,
/// best of five; `nil` without curl, or when curl didn't get them all (which it prints).
func eventThroughput() throws -> Double? {
    guard installed("curl") else { return nil }
    let count = 10_000
    let registry = MockRegistry()
    let events = (0..<count).map { ServerSentEvent(event: "token", data: "event \($0)", id: String($0)) }
    registry.register(.get("/events"), respond: .events(events))
    let server = MockServer(registry: registry)
    let base = try server.start()
    defer { server.stop() }
    let expected = events.reduce(0) { total, event in total + event.wireLength }
    var best: Double?
    for _ in 0..<5 {
        let started = ContinuousClock.now
        let download = runToEnd(
            "curl",
            [
                "-s", "-N", "-o", "/dev/null", "-w", "%{size_download}",
                base.appendingPathComponent("events").absoluteString,
            ])
        let elapsed = seconds(started.duration(to: .now))
        guard download.output == String(expected) else {
            print("  server-sent events: curl read \(download.output) bytes of \(expected) (status \(download.status))")
            return nil
        }
        best = min(best ?? elapsed, elapsed)
    }
    return best.map { Double(count) / $0 }
}

extension ServerSentEvent {
    /// The bytes this event takes on the wire (as the format writes `event`, `id` and `data`).
    fileprivate var wireLength: Int {
        "event: \(event ?? "")\nid: \(id ?? "")\ndata: \(data ?? "")\n\n".utf8.count
    }
}

/// Prints the streaming rows of the table.
func printStreamingRows() throws {
    print("")
    print("streaming:")
    if let rate = try eventThroughput() {
        print(
            String(format: "  10,000 server-sent events at no interval through MockServer: %.0f events/s  ", rate)
                + (rate >= 50_000 ? "ok (budget ≥ 50,000)" : "UNDER BUDGET (≥ 50,000)"))
    } else if !installed("curl") {
        print("  server-sent events: skipped (needs curl)")
    }
    if let rate = try webSocketEchoRate(clients: 100, messages: 1_000) {
        print(
            String(format: "  WebSocket echo, 100 clients at once × 1,000 messages: 0 lost, %.0f messages/s  ", rate)
                + "ok (budget: none lost)")
    }
}

/// Messages a second through a `MockServer` echo endpoint: `clients` clients at once, each on
/// its own thread, each sending `messages` text messages and waiting for each echo; `nil` when
/// a message was lost or came back wrong (which it prints).
func webSocketEchoRate(clients: Int, messages: Int) throws -> Double? {
    let registry = MockRegistry()
    registry.register(.webSocket("/echo"), respond: .webSocket(.echo))
    var configuration = MockServer.Configuration()
    configuration.maximumConnections = clients + 16
    let server = MockServer(registry: registry, configuration: configuration)
    let base = try server.start()
    defer { server.stop() }
    let port = base.port ?? 0
    let failures = LockedFailures()
    let group = DispatchGroup()
    let started = ContinuousClock.now
    for client in 0..<clients {
        group.enter()
        Thread.detachNewThread {
            defer { group.leave() }
            if let failure = echoClient(port: port, client: client, messages: messages) { failures.add(failure) }
        }
    }
    group.wait()
    let elapsed = seconds(started.duration(to: .now))
    if let first = failures.first {
        print("  WebSocket echo: \(failures.count) clients failed; the first: \(first)")
        return nil
    }
    return Double(clients * messages) / elapsed
}

/// The failures of the echo clients, gathered from their threads.
final class LockedFailures: @unchecked Sendable {
    // @unchecked Sendable: `failures` is only touched under `lock`.
    private let lock = NSLock()
    private var failures: [String] = []

    func add(_ failure: String) { lock.withLock { failures.append(failure) } }
    var count: Int { lock.withLock { failures.count } }
    var first: String? { lock.withLock { failures.first } }
}

#if canImport(Glibc)
    /// One client: the handshake, then `messages` masked text frames, each echo read and
    /// checked. Returns what went wrong, or `nil`.
    func echoClient(port: Int, client: Int, messages: Int) -> String? {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { return "socket() failed" }
        defer { close(descriptor) }
        var noDelay: Int32 = 1
        setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return "connect() failed: \(errno)" }
        let handshake =
            "GET /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        guard sendAll(descriptor, Array(handshake.utf8)) else { return "the handshake wasn't sent" }
        var input: [UInt8] = []
        while input.count < 4 || input.suffix(4) != [13, 10, 13, 10] {
            guard receive(descriptor, into: &input, atMost: 1) else { return "no handshake answer" }
        }
        guard String(decoding: input, as: UTF8.self).hasPrefix("HTTP/1.1 101") else { return "no 101" }
        input.removeAll()
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        for index in 0..<messages {
            let text = Array("client \(client) message \(index)".utf8)
            var frame: [UInt8] = [0x81, 0x80 | UInt8(text.count)] + mask
            frame += text.enumerated().map { $0.element ^ mask[$0.offset & 3] }
            guard sendAll(descriptor, frame) else { return "message \(index) wasn't sent" }
            while input.count < 2 + text.count {
                guard receive(descriptor, into: &input, atMost: 4096) else { return "message \(index) was lost" }
            }
            guard input[0] == 0x81, Int(input[1]) == text.count, Array(input[2..<(2 + text.count)]) == text else {
                return "message \(index) came back wrong"
            }
            input.removeFirst(2 + text.count)
        }
        _ = sendAll(descriptor, [0x88, 0x82] + mask + [0x03 ^ mask[0], 0xE8 ^ mask[1]])
        return nil
    }

    private func sendAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes {
                send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            guard count > 0 else { return false }
            sent += count
        }
        return true
    }

    private func receive(_ descriptor: Int32, into buffer: inout [UInt8], atMost limit: Int) -> Bool {
        var chunk = [UInt8](repeating: 0, count: limit)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, limit, 0) }
        guard count > 0 else { return false }
        buffer += chunk[..<count]
        return true
    }
#else
    func echoClient(port: Int, client: Int, messages: Int) -> String? { "measured on Linux only" }
#endif
