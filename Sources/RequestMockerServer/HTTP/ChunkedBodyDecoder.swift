import Foundation
import RequestMocker

/// Decodes a `Transfer-Encoding: chunked` body as its bytes arrive.
struct ChunkedBodyDecoder {
    private enum Phase {
        case size
        case data(remaining: Int)
        case dataEnd
        case trailers
        case done
    }

    private var phase = Phase.size
    private(set) var body: [UInt8] = []
    let maximumBody: Int
    /// A chunk-size line (with extensions) or a trailer line longer than this is refused.
    private let maximumLine = 8 * 1024

    init(maximumBody: Int) {
        self.maximumBody = maximumBody
    }

    var isComplete: Bool {
        if case .done = phase { true } else { false }
    }

    /// Consumes what it can of `buffer` from `index` on.
    mutating func consume(_ buffer: [UInt8], from index: inout Int) throws(Rejection) {
        while index < buffer.count {
            switch phase {
            case .size:
                guard let line = try takeLine(buffer, &index) else { return }
                let digits = line.prefix { $0 != .semicolon }.filter { $0 != .space && $0 != .tab }
                // Hex digits only: `Int(_:radix:)` would also take a sign, and a negative size
                // must never reach the slicing below.
                guard !digits.isEmpty, digits.count <= 15, digits.allSatisfy(\.isHexDigit),
                    let size = Int(String(decoding: digits, as: UTF8.self), radix: 16)
                else {
                    throw Rejection(status: .badRequest, reason: "a chunk size is not a hexadecimal number")
                }
                guard body.count + size <= maximumBody else {
                    throw Rejection(
                        status: .contentTooLarge,
                        reason: "the chunked body is larger than the limit of \(maximumBody) bytes")
                }
                phase = size == 0 ? .trailers : .data(remaining: size)
            case .data(let remaining):
                let take = min(remaining, buffer.count - index)
                body.append(contentsOf: buffer[index..<(index + take)])
                index += take
                phase = remaining == take ? .dataEnd : .data(remaining: remaining - take)
            case .dataEnd:
                guard let line = try takeLine(buffer, &index) else { return }
                guard line.isEmpty else {
                    throw Rejection(status: .badRequest, reason: "a chunk is longer than its size says")
                }
                phase = .size
            case .trailers:
                guard let line = try takeLine(buffer, &index) else { return }
                if line.isEmpty { phase = .done }
            case .done:
                return
            }
        }
    }

    /// The next line without its `CRLF`, or `nil` when it hasn't fully arrived.
    private func takeLine(_ buffer: [UInt8], _ index: inout Int) throws(Rejection) -> ArraySlice<UInt8>? {
        guard let lf = buffer[index...].firstIndex(of: .lf) else {
            if buffer.count - index > maximumLine {
                throw Rejection(status: .badRequest, reason: "a chunk line is too long")
            }
            return nil
        }
        var end = lf
        if end > index, buffer[end - 1] == .cr { end -= 1 }
        defer { index = lf + 1 }
        return buffer[index..<end]
    }
}
