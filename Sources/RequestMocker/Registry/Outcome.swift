/// What a transport carries for one request: the end of the pipeline, built in the core by
/// ``MockRegistry/answer(_:forwarding:)`` and only carried by `MockURLProtocol` and
/// `MockServer`.
///
/// Each case, and how each transport carries it (decided here, so the two can't drift):
///
/// - `response`: `MockURLProtocol` delivers the response and body; a throttled body arrives
///   after the time it would take, a truncated one is cut and then fails with
///   ``ConnectionFault/truncatedBodyErrorCode``. `MockServer` writes the bytes, paced and cut on
///   the wire.
/// - `fault`: `MockURLProtocol` fails with the `URLError` the platform reports for a server doing
///   that (``ConnectionFault/urlErrorCode``), and a stall waits for the timeout. `MockServer`
///   breaks the connection that way.
/// - `error`: `MockURLProtocol` fails with the error, unchanged. `MockServer` resets the
///   connection, since a server can't send an error.
/// - `refusal`: `MockURLProtocol` fails with the refusal's error. `MockServer` answers
///   `text/plain` with the refusal's status and message.
/// - `webSocket`: a completed WebSocket handshake. `MockServer` switches protocols and plays the
///   script on the connection; `MockURLProtocol`, which can't, fails with
///   ``RequestMockerError/webSocketNeedsServer(request:)``.
///
/// `delay` comes first in both: the URL protocol waits before it delivers, the server before it
/// writes the head.
package struct Outcome: Sendable {
    package enum Result: Sendable {
        case response(ResolvedResponse)
        case fault(ConnectionFault)
        /// The mock's own error: a `URLError` that simulates the network, a recorded transport
        /// error, or whatever a block threw that was not a mistake in the mocks.
        case error(any Error)
        case refusal(Refusal)
        case webSocket(WebSocketUpgrade)
    }

    package var result: Result
    package var delay: Duration

    package init(_ result: Result, delay: Duration = .zero) {
        self.result = result
        self.delay = delay
    }

    /// An error a response produced: a ``RequestMockerError`` is a mistake in the mocks (a
    /// block that threw, an unreadable file) and is refused; any other error is the mock's own.
    init(error: any Error, delay: Duration = .zero) {
        if let mistake = error as? RequestMockerError {
            self.init(.refusal(Refusal(mistake)), delay: delay)
        } else {
            self.init(.error(error), delay: delay)
        }
    }
}
