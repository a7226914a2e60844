/// `name=value&…` text, as in queries and form bodies.
package enum FormFields {
    /// The fields' decoded names and values, in order; `+` reads as a space. A field without
    /// `=` (`?debug`) has no value, which differs from an empty one (`?debug=`).
    package static func pairs(_ text: String) -> [(name: String, value: String?)] {
        text.split(separator: "&", omittingEmptySubsequences: true).map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decode(parts[0]), parts.count > 1 ? decode(parts[1]) : nil)
        }
    }

    /// The fields as a sorted list of re-encoded `name=value` (or `name` alone), for comparing
    /// two texts field by field in any order: encoded again, so a decoded `&` or `=` can't pass
    /// for a separator.
    static func comparable(_ text: String) -> [String] {
        pairs(text).map { field in
            field.value.map { "\(encode(field.name))=\(encode($0))" } ?? encode(field.name)
        }.sorted()
    }

    private static func decode(_ text: Substring) -> String {
        let spaced = text.replacingOccurrences(of: "+", with: " ")
        return spaced.removingPercentEncoding ?? spaced
    }

    /// Percent-encodes everything but RFC 3986's unreserved characters, so a replacement can't
    /// start a new field.
    package static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// `text` with the named fields replaced or dropped; untouched fields keep their exact
    /// spelling. `nil` when no field is left.
    static func rewrite(_ text: String, replacing replacement: (String) -> Redaction.Replacement?) -> String? {
        var fields: [String] = []
        for field in text.split(separator: "&", omittingEmptySubsequences: false) {
            let name = decode(field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0])
            switch replacement(name) {
            case nil: fields.append(String(field))
            case .remove: continue
            case .replace(let value):
                let encodedName = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
                fields.append("\(encodedName)=\(encode(value))")
            }
        }
        return fields.isEmpty ? nil : fields.joined(separator: "&")
    }
}
