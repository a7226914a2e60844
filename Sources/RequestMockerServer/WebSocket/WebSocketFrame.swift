import Foundation
import RequestMocker

/// One WebSocket frame (RFC 6455 §5.2): read strictly from a client, written unmasked by the
/// server.
struct WebSocketFrame: Equatable {
    enum Opcode: UInt8 {
        case continuation = 0x0
        case text = 0x1
        case binary = 0x2
        case close = 0x8
        case ping = 0x9
        case pong = 0xA

        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    var isFinal: Bool
    var opcode: Opcode
    /// Unmasked.
    var payload: [UInt8]

    /// Why a client's bytes end the connection, and the close code that says so.
    struct Violation: Error, Equatable {
        let code: Int
        let reason: String

        /// RFC 6455's "protocol error".
        static func protocolError(_ reason: String) -> Violation { Violation(code: 1002, reason: reason) }
    }

    /// The frame as the server sends it: unmasked, its length in the shortest form.
    func encoded() -> [UInt8] {
        var out: [UInt8] = [(isFinal ? 0x80 : 0) | opcode.rawValue]
        out.reserveCapacity(payload.count + 10)
        switch payload.count {
        case ..<126:
            out.append(UInt8(payload.count))
        case ..<65_536:
            out.append(126)
            out.append(contentsOf: [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)])
        default:
            out.append(127)
            out.append(contentsOf: (0..<8).map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> (56 - 8 * $0)) })
        }
        out.append(contentsOf: payload)
        return out
    }

    /// Reads one client frame from `bytes[start...]`: the frame and where it ends, or `nil`
    /// when more bytes are needed.
    ///
    /// - Throws: a ``Violation``: 1002 for reserved bits or opcodes, an unmasked frame, a
    ///   length not in its shortest form, or a control frame that is fragmented or over 125
    ///   bytes; 1009 for a data frame's payload over `maximumPayload` (what its message has room
    ///   for), found before it is read.
    static func parse(
        _ bytes: [UInt8], from start: Int, maximumPayload: Int
    ) throws(Violation) -> (frame: WebSocketFrame, end: Int)? {
        guard bytes.count - start >= 2 else { return nil }
        let first = bytes[start]
        let second = bytes[start + 1]
        guard first & 0x70 == 0 else {
            throw .protocolError("reserved bits are set, and no extension was agreed")
        }
        guard let opcode = Opcode(rawValue: first & 0x0F) else {
            throw .protocolError("opcode \(first & 0x0F) is reserved")
        }
        let isFinal = first & 0x80 != 0
        guard second & 0x80 != 0 else { throw .protocolError("a client's frames must be masked") }
        var at = start + 2
        var length = Int(second & 0x7F)
        if length == 126 {
            guard bytes.count - at >= 2 else { return nil }
            length = Int(bytes[at]) << 8 | Int(bytes[at + 1])
            at += 2
            guard length >= 126 else { throw .protocolError("a length under 126 must be sent in 7 bits") }
        } else if length == 127 {
            guard bytes.count - at >= 8 else { return nil }
            guard bytes[at] & 0x80 == 0 else { throw .protocolError("a 64-bit length has its top bit set") }
            var wide: UInt64 = 0
            for index in 0..<8 { wide = wide << 8 | UInt64(bytes[at + index]) }
            at += 8
            guard wide >= 65_536 else { throw .protocolError("a length under 65536 must be sent in 7 or 16 bits") }
            guard opcode.isControl || wide <= UInt64(max(0, maximumPayload)) else { throw tooBig }
            length = Int(clamping: wide)
        }
        if opcode.isControl {
            guard isFinal else { throw .protocolError("a control frame can't be fragmented") }
            guard length <= 125 else { throw .protocolError("a control frame's payload is at most 125 bytes") }
        } else {
            guard length <= maximumPayload else { throw tooBig }
        }
        guard bytes.count - at - 4 >= length else { return nil }
        let mask = Array(bytes[at..<(at + 4)])
        at += 4
        var payload = Array(bytes[at..<(at + length)])
        for index in payload.indices { payload[index] ^= mask[index & 3] }
        return (WebSocketFrame(isFinal: isFinal, opcode: opcode, payload: payload), at + length)
    }

    /// A data frame that would take its message over the size limit.
    static let tooBig = Violation(code: 1009, reason: "a message is over the endpoint's size limit")

    /// A close frame with `code` and `reason` (cut to the 123 bytes a close frame holds, at a
    /// character boundary).
    static func close(code: Int, reason: String) -> WebSocketFrame {
        var kept = Substring(reason)
        while kept.utf8.count > 123 { kept = kept.dropLast() }
        return WebSocketFrame(
            isFinal: true, opcode: .close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(kept.utf8))
    }

    /// Reads a client's close frame: its code (`nil` when it has none) and reason.
    ///
    /// - Throws: 1002 for a one-byte payload or a code a peer may not send, 1007 for a reason
    ///   that isn't UTF-8.
    func closeStatus() throws(Violation) -> (code: Int?, reason: String) {
        guard !payload.isEmpty else { return (nil, "") }
        guard payload.count >= 2 else { throw .protocolError("a close frame's status code takes two bytes") }
        let code = Int(payload[0]) << 8 | Int(payload[1])
        guard WebSocketScript.isSendable(closeCode: code) else {
            throw .protocolError("close code \(code) may not be sent")
        }
        guard let reason = String(validating: payload[2...], as: UTF8.self) else {
            throw Violation(code: 1007, reason: "a close reason must be UTF-8")
        }
        return (code, reason)
    }

    var transcriptKind: WebSocketTranscript.Frame.Kind {
        switch opcode {
        case .continuation: .continuation
        case .text: .text
        case .binary: .binary
        case .close: .close
        case .ping: .ping
        case .pong: .pong
        }
    }
}
