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
/// bytes, until ``maximumKeptPayloadInAll`` bytes of payload are kept; later frames keep their
/// length only. So a long or busy connection holds bounded memory, and the messages assembled
/// from its frames are whole only while those bounds weren't reached.
public final class WebSocketTranscript: Sendable {
    /// One frame.
    public struct Frame: Sendable, Hashable, CustomStringConvertible {
        /// Which way the frame went.
        public enum Direction: Sendable, Hashable {
            /// From the client.
            case received
            /// From the server.
            case sent
        }

        /// The frame's opcode (RFC 6455 §5.2).
        public enum Kind: Sendable, Hashable {
            case text, binary, continuation, close, ping, pong
        }

        /// Which way it went.
        public let direction: Direction
        /// Its opcode.
        public let kind: Kind
        /// Whether it is the last frame of its message (always for control frames).
        public let isFinal: Bool
        /// The payload (unmasked), or as much of it as the transcript keeps (see its bounds).
        public let payload: Data
        /// The payload's whole length.
        public let length: Int
        /// When it was read or written.
        public let date: Date

        /// A frame whose payload is `length` bytes, of which `kept` are kept (a copy, so the
        /// frame holds no more than that).
        package init(
            direction: Direction, kind: Kind, isFinal: Bool, kept: some Collection<UInt8>, length: Int,
            date: Date = Date()
        ) {
            self.direction = direction
            self.kind = kind
            self.isFinal = isFinal
            payload = Data(kept)
            self.length = length
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
    /// The most payload bytes kept of one connection: frames after those keep only their length,
    /// so a busy connection's transcript, which its journal entry holds after it ends, stays small.
    public static let maximumKeptPayloadInAll = 256 * 1024

    private struct Kept: Sendable {
        var frames = RingBuffer<Frame>(capacity: WebSocketTranscript.maximumFrames)
        var payloadBytes = 0
    }

    private let kept = LockedState(Kept())

    package init() {}

    /// Records a frame, keeping as much of its payload as the bounds allow.
    package func record(
        _ direction: Frame.Direction, _ kind: Frame.Kind, isFinal: Bool, payload: some Collection<UInt8>
    ) {
        kept.withLock { kept in
            let room = min(Self.maximumKeptPayload, Self.maximumKeptPayloadInAll - kept.payloadBytes)
            let prefix = payload.prefix(max(0, room))
            kept.payloadBytes += prefix.count
            kept.frames.append(
                Frame(direction: direction, kind: kind, isFinal: isFinal, kept: prefix, length: payload.count))
        }
    }

    /// The frames kept, oldest first.
    public var frames: [Frame] { kept.withLock { $0.frames.elements } }

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
