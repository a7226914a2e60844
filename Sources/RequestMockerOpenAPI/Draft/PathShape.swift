import RequestMocker

/// How a draft reads one path segment: an id by its shape, a version, or a word.
enum PathShape {
    /// Whether `segment` is an id by its shape alone: an integer, a UUID, hex of 16 or more
    /// characters, a ULID, a date, or a token of 20 or more characters with letters and digits
    /// (base64url, or a credential such as `bot123456:AAHdqT…`: a long word stays a word). A
    /// segment with `=` (`;jsessionid=1A2B`) is a value too.
    static func isIdByShape(_ segment: String) -> Bool {
        let bytes = Array(segment.utf8)
        guard !bytes.isEmpty else { return false }
        if bytes.allSatisfy(isDigit) { return true }
        if FormatCheck.isUUID(segment) || isDate(segment) { return true }
        if bytes.count >= 16, bytes.allSatisfy(isHex), bytes.contains(where: isDigit) { return true }
        if bytes.count == 26, bytes.allSatisfy(isCrockford), bytes.contains(where: isDigit), bytes[0] <= 0x37 {
            return true
        }
        if bytes.contains(UInt8(ascii: "=")) { return true }
        return bytes.count >= 20 && bytes.contains(where: isDigit) && bytes.contains(where: isLetter)
    }

    /// Whether `segment` is a date (`2026-11-28`), which is never the first segment's parameter.
    static func isDate(_ segment: String) -> Bool { segment.utf8.count == 10 && FormatCheck.isDate(Substring(segment)) }

    /// Whether `segment` names a version or the API itself (`api`, `v1`, `v2.1`, `2.0`, `v1beta`,
    /// `v2alpha1`, `2024-01`): never a parameter.
    static func isVersionLike(_ segment: String) -> Bool {
        let lowered = segment.lowercased()
        if lowered == "api" || lowered == "rest" { return true }
        // A year and a month, as dated API versions are named.
        let bytes = Array(lowered.utf8)
        if bytes.count == 7, bytes[4] == UInt8(ascii: "-"), bytes[..<4].allSatisfy(isDigit),
            bytes[5...].allSatisfy(isDigit)
        {
            return true
        }
        var body = Substring(lowered)
        if body.first == "v" { body = body.dropFirst() }
        // A pre-release word after the number: v1beta, v2alpha1.
        for word in ["alpha", "beta", "preview"] {
            if let range = body.range(of: word), range.lowerBound != body.startIndex,
                body[range.upperBound...].allSatisfy(\.isASCIIDigit), lowered.first == "v"
            {
                body = body[..<range.lowerBound]
                break
            }
        }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigit) })
        else { return false }
        // `v1` and `2.0` are versions; a bare `2` is an id.
        return lowered.first == "v" || parts.count > 1
    }

    /// Whether `segment` can be written as a literal of a path template: what RFC 3986 allows in
    /// a segment, without the braces of a template, and letters and digits of any script (a path
    /// template is matched after percent-decoding).
    static func isWritableLiteral(_ segment: String) -> Bool {
        !segment.isEmpty
            && segment.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII
                    ? URICharacters.isUnreserved(UInt8(scalar.value))
                        || "!$&'()*+,;=:@".unicodeScalars.contains(scalar)
                    : scalar.properties.isAlphabetic || scalar.properties.numericType != nil
            }
    }

    /// The name of a parameter below `parent` (a literal segment): singular, camelCase, with
    /// `Id` (`users` → `userId`, `line-items` → `lineItemId`); `id` when `parent` gives none.
    static func parameterName(under parent: String?) -> String {
        guard let parent, !isVersionLike(parent) else { return "id" }
        let words = parent.split { !($0.isASCII && ($0.isLetter || $0.isNumber)) }.map(String.init)
        guard var last = words.last, let first = words.first, first.first?.isLetter == true else { return "id" }
        last = singular(last)
        let parts = words.dropLast() + [last]
        let camel = parts.enumerated().map { index, word in
            index == 0 ? word.lowercased() : word.prefix(1).uppercased() + word.dropFirst().lowercased()
        }.joined()
        return camel + "Id"
    }

    /// The singular of an English plural, by its ending (`categories` → `category`, `boxes` →
    /// `box`, `users` → `user`); a word that isn't such a plural stays.
    static func singular(_ word: String) -> String {
        let lowered = word.lowercased()
        if lowered.hasSuffix("ies"), word.count > 4 { return word.dropLast(3) + "y" }
        for ending in ["sses", "xes", "ches", "shes", "zzes"] where lowered.hasSuffix(ending) {
            return String(word.dropLast(2))
        }
        if lowered.hasSuffix("s"), !lowered.hasSuffix("ss"), !lowered.hasSuffix("us"), word.count > 3 {
            return String(word.dropLast())
        }
        return word
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isHex(_ byte: UInt8) -> Bool {
        isDigit(byte) || (0x61...0x66).contains(byte) || (0x41...0x46).contains(byte)
    }
    private static func isCrockford(_ byte: UInt8) -> Bool {
        // Upper-case Crockford base32: digits and letters without I, L, O and U.
        isDigit(byte) || ((0x41...0x5A).contains(byte) && ![0x49, 0x4C, 0x4F, 0x55].contains(byte))
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
