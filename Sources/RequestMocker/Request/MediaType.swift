/// A media type as a `Content-Type` header, an `Accept` range or a contract's `content` key writes
/// it (`application/json; charset=utf-8`, `image/*`): the one reading of them that negotiation,
/// request validation, `check` and sample requests share.
package struct MediaType: Equatable, Sendable {
    /// Lower case; `*` for a wildcard.
    package let type: String
    /// Lower case, without parameters; `*` for a wildcard, `""` when the text has no `/`.
    package let subtype: String

    package init(_ text: String) {
        // Up to the parameters, without the spaces and tabs around it (HTTP's OWS), split at the
        // first `/`, ASCII letters lowered: in bytes, as every request reads several.
        func isSpace(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let essence = text.utf8.prefix { $0 != UInt8(ascii: ";") }.drop(while: isSpace)
        let end = essence.lastIndex { !isSpace($0) }.map { essence.index(after: $0) } ?? essence.startIndex
        var parts: [[UInt8]] = [[]]
        for byte in essence[..<end] {
            if byte == UInt8(ascii: "/"), parts.count == 1 {
                parts.append([])
            } else {
                parts[parts.count - 1].append(
                    byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
            }
        }
        type = String(decoding: parts[0], as: UTF8.self)
        subtype = parts.count == 2 ? String(decoding: parts[1], as: UTF8.self) : ""
    }

    /// `type/subtype`, lower case, without parameters.
    package var essence: String { subtype.isEmpty ? type : type + "/" + subtype }

    /// Whether it is JSON (`application/json`, `application/problem+json`).
    package var isJSON: Bool { type == "application" && (subtype == "json" || subtype.hasSuffix("+json")) }

    /// Whether a body declared as this (`application/json`, `image/*`, `*/*`) takes one sent
    /// as `contentType`.
    package func accepts(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let sent = MediaType(contentType)
        if type == "*" && subtype == "*" || self == sent { return true }
        return subtype == "*" && type == sent.type
    }
}
