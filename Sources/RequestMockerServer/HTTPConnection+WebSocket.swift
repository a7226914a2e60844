import Foundation
import RequestMocker

// Switching a connection to the WebSocket protocol, once its handshake was answered.
extension HTTPConnection {
    /// Writes the `101` head and plays the WebSocket script on this connection until it ends.
    /// Returns `false`: the connection is never an HTTP one again.
    func switchToWebSocket(
        _ upgrade: WebSocketUpgrade, head: RequestHead, request: MockRequest, entry: JournalEntry?,
        since arrival: ContinuousClock.Instant, leftover: ArraySlice<UInt8>
    ) -> Bool {
        guard head.minorVersion > 0 else {
            return refuse(.webSocketNeedsHTTP11, head: head, request: request, entry: entry, since: arrival)
        }
        let switching = ResponseHead.bytes(
            status: .switchingProtocols, version: "HTTP/1.1", headers: upgrade.response.headers,
            connection: "Upgrade")
        guard (try? socket.write(switching)) != nil else {
            report(request, entry, .abandoned, since: arrival)
            return false
        }
        var session = WebSocketSession(
            connection: connection, upgrade: upgrade, idleTimeout: server.configuration.idleTimeout,
            leftover: leftover)
        let ending = session.run()
        report(
            request, entry, .webSocket(closeCode: ending.closeCode, received: ending.received, sent: ending.sent),
            since: arrival)
        return false
    }
}
