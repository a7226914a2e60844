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
    /// The bytes of trailer lines so far; the whole trailer section is held to `maximumLine`.
    private var trailerBytes = 0
    private(set) var body: [UInt8] = []
    let maximumBody: Int
    /// A chunk-size line (with extensions) longer than this is refused, and so are trailer
    /// fields longer than this altogether.
    private let maximumLine = 8 * 1024

    init(maximumBody: Int) {
        self.maximumBody = maximumBody
    }

    /// The bytes decoded so far, handed over and forgotten (a relayed body is passed on piece by
    /// piece; `maximumBody` then bounds each piece).
    mutating func takeBody() -> [UInt8] {
        defer { body = [] }
        return body
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
                // `chunk-size [ BWS ";" extensions ]` (RFC 9112 §7.1): hex digits, then nothing
                // but optional whitespace before the extensions. Hex digits only: `Int(_:radix:)`
                // would also take a sign, and a negative size must never reach the slicing below.
                let digits = line.prefix(while: \.isHexDigit)
                let rest = line[digits.endIndex...].drop { $0 == .space || $0 == .tab }
                guard !digits.isEmpty, digits.count <= 15, rest.isEmpty || rest.first == .semicolon,
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
                trailerBytes += line.count + 2
                guard trailerBytes <= maximumLine else {
                    throw Rejection(status: .badRequest, reason: "the trailer fields are longer than 8 KiB")
                }
                if line.isEmpty { phase = .done }
            case .done:
                return
            }
        }
    }

    /// The next line without its `CRLF`, or `nil` when it hasn't fully arrived. A line longer
    /// than `maximumLine` is refused whether it arrived whole or not.
    private func takeLine(_ buffer: [UInt8], _ index: inout Int) throws(Rejection) -> ArraySlice<UInt8>? {
        let window = buffer[index..<min(buffer.count, index + maximumLine + 1)]
        guard let lf = window.firstIndex(of: .lf) else {
            if window.count > maximumLine {
                throw Rejection(status: .badRequest, reason: "a chunk line is longer than 8 KiB")
            }
            return nil
        }
        var end = lf
        if end > index, buffer[end - 1] == .cr { end -= 1 }
        defer { index = lf + 1 }
        return buffer[index..<end]
    }
}
