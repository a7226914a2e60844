import Foundation

/// A message on a WebSocket: text (UTF-8) or bytes.
///
/// ```swift
/// let transcript = try #require(registry.journal.last?.webSocket)
/// #expect(transcript.received == [.text("hello"), .binary(Data([0, 1, 0xFF]))])
/// ```
public enum WebSocketMessage: Sendable, Hashable, CustomStringConvertible {
    /// A text message.
    case text(String)
    /// A binary message.
    case binary(Data)

    public var description: String {
        switch self {
        case .text(let text): "text \(text.debugDescription)"
        case .binary(let data): "binary (\(data.count) bytes)"
        }
    }
}
