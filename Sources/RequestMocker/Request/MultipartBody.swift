import Foundation

/// A `multipart/form-data` body (RFC 7578) as its parts: each part's field name, file name,
/// media type and bytes. Read by a contract's validation and state (text parts become the
/// schema's values) and by a cassette's body matcher, written for a HAR recording whose
/// `postData` lists `params`.
///
/// Reading is lenient where senders differ (a missing final boundary, `\n` line ends) and
/// bounded: at most ``maximumParts`` parts, each head at most 8 KiB, in one pass over the bytes.
/// What it couldn't read is in ``problem``.
package struct MultipartBody: Sendable, Equatable {
    package struct Part: Sendable, Equatable {
        /// The `name` of its `Content-Disposition`.
        package var name: String
        /// The `filename`, for a file.
        package var fileName: String?
        /// Its `Content-Type`, when it says one (a text field seldom does).
        package var contentType: String?
        package var body: Data

        package init(name: String, fileName: String? = nil, contentType: String? = nil, body: Data) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.body = body
        }
    }

    package var parts: [Part]
    /// What couldn't be read, when something couldn't: more than ``maximumParts`` parts, a part
    /// without a name, a head past 8 KiB. The parts read are in ``parts``.
    package private(set) var problem: String?

    /// More parts than this are not read.
    package static let maximumParts = 1_000
    /// A part's head (its header fields) is at most this long.
    static let maximumHead = 8_192

    package init(parts: [Part]) {
        self.parts = parts
    }

    /// The `boundary` parameter of a `multipart/…` media type, unquoted; `nil` when it has none.
    package static func boundary(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            return value.isEmpty ? nil : value
        }
        return nil
    }

    /// The parts of `body` between `--boundary` lines; `nil` when the body has no such line.
    package init?(_ body: Data, boundary: String) {
        let delimiter = [UInt8]("--\(boundary)".utf8)
        // RFC 2046: a boundary is 1 to 70 characters.
        guard delimiter.count > 2, delimiter.count <= 72 else { return nil }
        let bytes = [UInt8](body)
        // Where each delimiter line starts: the body's start or a line's, followed by spaces
        // and the line's end, or by `--` (the close). One pass over the lines; a comparison stops
        // at a byte that differs, and a boundary holds no line break, so this is linear.
        var starts: [Int] = []
        var closed = false
        var position = 0
        while position < bytes.count, !closed {
            if Self.isDelimiter(bytes, at: position, delimiter) {
                closed = Self.closes(bytes, after: position + delimiter.count)
                starts.append(position)
                if starts.count > Self.maximumParts { break }
            }
            // The next line.
            while position < bytes.count, bytes[position] != UInt8(ascii: "\n") { position += 1 }
            position += 1
        }
        guard !starts.isEmpty else { return nil }
        parts = []
        for (offset, start) in starts.enumerated() where offset < Self.maximumParts {
            var begin = start + delimiter.count
            if Self.closes(bytes, after: begin) { break }
            // The rest of the delimiter's line.
            while begin < bytes.count, bytes[begin] != UInt8(ascii: "\n") { begin += 1 }
            begin += 1
            let isLast = offset + 1 >= starts.count
            var end = isLast ? bytes.count : starts[offset + 1]
            // The line end before the next delimiter belongs to it.
            if !isLast, end > begin, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            if !isLast, end > begin, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            guard begin <= end else { continue }
            switch Self.part(bytes, begin, end) {
            case .success(let part): parts.append(part)
            case .failure(let failure): problem = problem ?? failure.reason
            }
        }
        if starts.count > Self.maximumParts {
            problem = "it has more than \(Self.maximumParts) parts; the first \(Self.maximumParts) are read"
        }
    }

    /// Whether a delimiter line starts at `position`: the delimiter, then spaces or tabs and the
    /// line's end, or `--`.
    private static func isDelimiter(_ bytes: [UInt8], at position: Int, _ delimiter: [UInt8]) -> Bool {
        guard bytes.count - position >= delimiter.count else { return false }
        for index in delimiter.indices where bytes[position + index] != delimiter[index] { return false }
        var after = position + delimiter.count
        if closes(bytes, after: after) { return true }
        while after < bytes.count, bytes[after] == UInt8(ascii: " ") || bytes[after] == UInt8(ascii: "\t") {
            after += 1
        }
        return after == bytes.count || bytes[after] == UInt8(ascii: "\r") || bytes[after] == UInt8(ascii: "\n")
    }

    /// Whether `--` follows: the close delimiter.
    private static func closes(_ bytes: [UInt8], after position: Int) -> Bool {
        position + 1 < bytes.count && bytes[position] == UInt8(ascii: "-") && bytes[position + 1] == UInt8(ascii: "-")
    }

    /// One part, between `begin` and `end`: its head up to an empty line, then its body.
    private static func part(_ bytes: [UInt8], _ begin: Int, _ end: Int) -> Result<Part, Problem> {
        var lines: [String] = []
        var index = begin
        var bodyStart: Int?
        while index < end {
            guard index - begin <= maximumHead else {
                return .failure(Problem("a part's header fields are longer than \(maximumHead / 1024) KiB"))
            }
            var lineEnd = index
            while lineEnd < end, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            var last = lineEnd
            if last > index, bytes[last - 1] == UInt8(ascii: "\r") { last -= 1 }
            if last == index {
                bodyStart = min(lineEnd + 1, end)
                break
            }
            lines.append(String(decoding: bytes[index..<last], as: UTF8.self))
            index = lineEnd + 1
        }
        var name: String?
        var fileName: String?
        var contentType: String?
        for line in lines {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "content-disposition":
                let parameters = Self.parameters(pair[1])
                name = parameters["name"]
                fileName = parameters["filename"]
            case "content-type": contentType = pair[1]
            default: continue
            }
        }
        guard let name else { return .failure(Problem("a part has no name in its Content-Disposition")) }
        return .success(
            Part(name: name, fileName: fileName, contentType: contentType, body: Data(bytes[(bodyStart ?? end)..<end])))
    }

    /// Why a part wasn't read.
    struct Problem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The parameters of a `Content-Disposition` value (`form-data; name="a;b"; filename=x`), by
    /// lower-cased name: split at semicolons outside quotes, quotes and their escapes undone.
    private static func parameters(_ value: String) -> [String: String] {
        var found: [String: String] = [:]
        var pieces: [String] = [""]
        var quoted = false
        var escaped = false
        for character in value {
            if escaped {
                pieces[pieces.count - 1].append(character)
                escaped = false
            } else if quoted, character == "\\" {
                escaped = true
            } else if character == "\"" {
                quoted.toggle()
                pieces[pieces.count - 1].append(character)
            } else if character == ";", !quoted {
                pieces.append("")
            } else {
                pieces[pieces.count - 1].append(character)
            }
        }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            var text = pair[1]
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast())
            }
            found[pair[0].lowercased()] = found[pair[0].lowercased()] ?? text
        }
        return found
    }

    /// The body as bytes, each part with its `Content-Disposition` and, where it has one, its
    /// `Content-Type`, between `--boundary` lines.
    package func encoded(boundary: String) -> Data {
        var data = Data()
        for part in parts {
            func quoted(_ text: String) -> String {
                "\""
                    + text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
                    .replacingOccurrences(of: "\n", with: "%0A") + "\""
            }
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\(quoted(part.name))"
            if let fileName = part.fileName { head += "; filename=\(quoted(fileName))" }
            head += "\r\n"
            // A field value holds no line break (the HAR reader refuses one): none is written.
            if let contentType = part.contentType, HTTPHeaders.isValidValue(contentType) {
                head += "Content-Type: \(contentType)\r\n"
            }
            data.append(Data((head + "\r\n").utf8))
            data.append(part.body)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }
}
