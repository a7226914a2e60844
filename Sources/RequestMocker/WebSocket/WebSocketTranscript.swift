import Foundation

/// Every frame of one WebSocket connection, both ways, as it happens: the journal entry of the
/// upgrade request holds it (``JournalEntry/webSocket``).
///
/// ```swift
/// let transcript = try #require(registry.journal.last?.webSocket)
/// #expect(transcript.received == [.text("hello")])
/// #expect(transcript.sent == [.text("hi")])
/// ```
///
/// It keeps the last ``maximumFrames`` frames and, of each, the first ``maximumKeptPayload``
/// bytes, so a long or busy connection holds bounded memory.
public final class WebSocketTranscript: Sendable {
    /// One frame.
    public struct Frame: Sendable, Hashable, CustomStringConvertible {
        public enum Direction: Sendable, Hashable {
            /// From the client.
            case received
            /// From the server.
            case sent
        }

        public enum Kind: Sendable, Hashable {
            case text, binary, continuation, close, ping, pong
        }

        public let direction: Direction
        public let kind: Kind
        /// Whether it is the last frame of its message (always for control frames).
        public let isFinal: Bool
        /// The payload (unmasked), or its first ``WebSocketTranscript/maximumKeptPayload`` bytes.
        public let payload: Data
        /// The payload's whole length.
        public let length: Int
        /// When it was read or written.
        public let date: Date

        package init(direction: Direction, kind: Kind, isFinal: Bool, payload: Data, date: Date = Date()) {
            self.direction = direction
            self.kind = kind
            self.isFinal = isFinal
            self.payload = payload.prefix(WebSocketTranscript.maximumKeptPayload)
            length = payload.count
            self.date = date
        }

        /// A close frame's status code, if it has one.
        public var closeCode: Int? {
            guard kind == .close, payload.count >= 2 else { return nil }
            return Int(payload[payload.startIndex]) << 8 | Int(payload[payload.startIndex + 1])
        }

        /// `sent text "hi"`, `received close 1000 "bye"`, `sent binary (3 bytes)`.
        public var description: String {
            let way = direction == .sent ? "sent" : "received"
            let final = isFinal ? "" : " (not final)"
            switch kind {
            case .text:
                return "\(way) text \(String(decoding: payload, as: UTF8.self).debugDescription)\(final)"
            case .close:
                let reason = String(decoding: payload.dropFirst(2), as: UTF8.self)
                return "\(way) close" + (closeCode.map { " \($0) \(reason.debugDescription)" } ?? "")
            case .binary, .continuation, .ping, .pong:
                return "\(way) \(kind) (\(length) bytes)\(final)"
            }
        }
    }

    /// The most frames kept; older ones are dropped.
    public static let maximumFrames = 1_000
    /// The most payload bytes kept of each frame.
    public static let maximumKeptPayload = 16 * 1024

    private let ring = LockedState(RingBuffer<Frame>(capacity: WebSocketTranscript.maximumFrames))

    package init() {}

    package func record(_ frame: Frame) {
        ring.withLock { $0.append(frame) }
    }

    /// The frames kept, oldest first.
    public var frames: [Frame] { ring.withLock { $0.elements } }

    /// The text and binary messages the client sent, each assembled from its frames (from what
    /// the transcript kept of them).
    public var received: [WebSocketMessage] { messages(.received) }

    /// The text and binary messages the server sent.
    public var sent: [WebSocketMessage] { messages(.sent) }

    private func messages(_ direction: Frame.Direction) -> [WebSocketMessage] {
        var messages: [WebSocketMessage] = []
        var current: (kind: Frame.Kind, data: Data)?
        for frame in frames where frame.direction == direction {
            switch frame.kind {
            case .text, .binary: current = (frame.kind, frame.payload)
            case .continuation: current?.data.append(frame.payload)
            case .close, .ping, .pong: continue
            }
            guard frame.isFinal, let message = current else { continue }
            messages.append(
                message.kind == .text ? .text(String(decoding: message.data, as: UTF8.self)) : .binary(message.data))
            current = nil
        }
        return messages
    }
}
