import RequestMocker

/// The lines of an HTTP/1 head and its field lines (RFC 9112 §2.2 and §5), read the same way in
/// requests from clients and responses from an upstream.
enum FieldLine {
    /// Why a field line can't be read; the reason is told to whoever sent it.
    struct Problem: Error {
        let reason: String
    }

    /// The lines in `range`, without their `CRLF` or `LF` (a bare `LF` ends a line too), empty
    /// ones left out.
    static func lines(_ buffer: [UInt8], _ range: Range<Int>) -> [Range<Int>] {
        var lines: [Range<Int>] = []
        lines.reserveCapacity(16)
        buffer.withUnsafeBufferPointer { bytes in
            var lineStart = range.lowerBound
            for index in range where bytes[index] == .lf {
                var lineEnd = index
                if lineEnd > lineStart, bytes[lineEnd - 1] == .cr { lineEnd -= 1 }
                if lineEnd > lineStart { lines.append(lineStart..<lineEnd) }
                lineStart = index + 1
            }
        }
        return lines
    }

    /// The field on one line: a token, a colon, and a value without control characters, with
    /// the optional whitespace around it (RFC 9110 §5.5) taken off. A line that starts with
    /// whitespace (an obsolete folded continuation) is refused.
    static func field(_ buffer: [UInt8], _ line: Range<Int>) throws(Problem) -> HTTPHeaders.Field {
        let parsed = buffer.withUnsafeBufferPointer { bytes -> Result<(Range<Int>, Range<Int>), Problem> in
            guard let first = line.first.map({ bytes[$0] }), first != .space, first != .tab else {
                return .failure(Problem(reason: "a header line starts with whitespace (line folding is not accepted)"))
            }
            var colon = line.lowerBound
            while colon < line.upperBound, bytes[colon] != .colon { colon += 1 }
            guard colon < line.upperBound else {
                return .failure(Problem(reason: "a header line has no colon: \(shown(bytes, line))"))
            }
            let name = line.lowerBound..<colon
            guard !name.isEmpty, name.allSatisfy({ bytes[$0].isTokenCharacter }) else {
                return .failure(Problem(reason: "the header name \(shown(bytes, name)) is not a token"))
            }
            var valueStart = colon + 1
            var valueEnd = line.upperBound
            while valueStart < valueEnd, bytes[valueStart] == .space || bytes[valueStart] == .tab { valueStart += 1 }
            while valueEnd > valueStart, bytes[valueEnd - 1] == .space || bytes[valueEnd - 1] == .tab { valueEnd -= 1 }
            for index in valueStart..<valueEnd where bytes[index] == 0 || bytes[index] == .cr {
                let shownName = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
                return .failure(Problem(reason: "the value of \(shownName) contains a control character"))
            }
            return .success((name, valueStart..<valueEnd))
        }
        let (name, value) = try parsed.get()
        return HTTPHeaders.Field(
            name: HTTPHeaders.Name(String(decoding: buffer[name], as: UTF8.self)),
            value: String(decoding: buffer[value], as: UTF8.self))
    }

    /// The start of some bytes, quoted, for an error message.
    private static func shown(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        let end = min(range.upperBound, range.lowerBound + 80)
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<end]), as: UTF8.self)
            .debugDescription
    }
}
