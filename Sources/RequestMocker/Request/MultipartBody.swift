import Foundation

/// A `multipart/form-data` body (RFC 7578) as its parts: each part's field name, file name,
/// media type and bytes. Read by a contract's validation and state (text parts become the
/// schema's values), written for a HAR recording whose `postData` lists `params`.
///
/// Reading is lenient where senders differ (a missing final boundary, `\n` line ends in a part's
/// head) and bounded: at most ``maximumParts`` parts, each head at most 8 KiB.
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

    /// More parts than this are not read.
    package static let maximumParts = 1_000

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
        let bytes = [UInt8](body)
        let delimiter = [UInt8]("--\(boundary)".utf8)
        guard !delimiter.isEmpty, delimiter.count <= 72 else { return nil }
        // A delimiter starts the body or a line: each line is looked at once, and a comparison
        // stops at its line's end (a boundary holds no line break), so this is linear.
        var starts: [Int] = []
        var lineStart: Int? = 0
        while let start = lineStart, starts.count <= Self.maximumParts {
            if bytes[start...].starts(with: delimiter) { starts.append(start) }
            lineStart = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 }
        }
        guard !starts.isEmpty else { return nil }
        var parts: [Part] = []
        for (offset, start) in starts.enumerated() {
            var begin = start + delimiter.count
            // `--boundary--` closes the body.
            if bytes[begin...].starts(with: [UInt8(ascii: "-"), UInt8(ascii: "-")]) { break }
            // The rest of the delimiter's line.
            while begin < bytes.count, bytes[begin] != UInt8(ascii: "\n") { begin += 1 }
            begin += 1
            var end = offset + 1 < starts.count ? starts[offset + 1] : bytes.count
            // The line end before the next delimiter belongs to it.
            if end > begin, offset + 1 < starts.count, bytes[end - 1] == UInt8(ascii: "\n") { end -= 1 }
            if end > begin, offset + 1 < starts.count, bytes[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            guard begin <= end, let part = Self.part(bytes[begin..<end]) else { continue }
            parts.append(part)
        }
        self.parts = parts
    }

    /// One part: its head up to an empty line, then its body.
    private static func part(_ bytes: ArraySlice<UInt8>) -> Part? {
        var lines: [String] = []
        var index = bytes.startIndex
        var bodyStart = bytes.endIndex
        while index < bytes.endIndex, index - bytes.startIndex < 8_192 {
            let lineEnd = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
            var line = bytes[index..<lineEnd]
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            index = lineEnd + 1
            if line.isEmpty {
                bodyStart = min(index, bytes.endIndex)
                break
            }
            lines.append(String(decoding: line, as: UTF8.self))
        }
        var name: String?
        var fileName: String?
        var contentType: String?
        for line in lines {
            let pair = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2 else { continue }
            switch pair[0].lowercased() {
            case "content-disposition":
                name = parameter("name", in: pair[1])
                fileName = parameter("filename", in: pair[1])
            case "content-type": contentType = pair[1]
            default: continue
            }
        }
        guard let name else { return nil }
        return Part(name: name, fileName: fileName, contentType: contentType, body: Data(bytes[bodyStart...]))
    }

    /// A parameter of a `Content-Disposition` value: `name="avatar"` or `name=avatar`.
    private static func parameter(_ wanted: String, in value: String) -> String? {
        for piece in value.split(separator: ";").dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard pair.count == 2, pair[0].lowercased() == wanted else { continue }
            var text = pair[1]
            if text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\"") {
                text = String(text.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            return text
        }
        return nil
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
            if let contentType = part.contentType { head += "Content-Type: \(contentType)\r\n" }
            data.append(Data((head + "\r\n").utf8))
            data.append(part.body)
            data.append(Data("\r\n".utf8))
        }
        data.append(Data("--\(boundary)--\r\n".utf8))
        return data
    }
}
