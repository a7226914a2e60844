import Foundation
import RequestMocker

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The `format`s a value is checked against: `date`, `date-time`, `uuid`, `email`, `uri`,
/// `ipv4`, `ipv6`, `int32` and `int64`. Any other format passes, as JSON Schema has it.
enum FormatCheck {
    /// What `string` should be and isn't (`"a date (YYYY-MM-DD)"`), or `nil` when it is.
    static func problem(with string: String, format: String) -> String? {
        switch format {
        case "date": isDate(Substring(string)) ? nil : "a date (YYYY-MM-DD)"
        case "date-time": isDateTime(string) ? nil : "a date-time (RFC 3339, such as 2026-11-27T09:30:00Z)"
        case "uuid": isUUID(string) ? nil : "a UUID"
        case "email": isEmail(string) ? nil : "an email address"
        case "uri": isURI(string) ? nil : "a URI with a scheme"
        case "ipv4": isAddress(string, family: AF_INET) && !string.contains(":") ? nil : "an IPv4 address"
        case "ipv6": isAddress(string, family: AF_INET6) ? nil : "an IPv6 address"
        default: nil
        }
    }

    /// What a number should be and isn't, for `int32` and `int64`.
    static func problem(with value: JSONValue, format: String) -> String? {
        switch format {
        case "int32":
            guard let int = value.intValue else { return "an int32 (a whole number)" }
            return Int32(exactly: int) == nil ? "an int32 (between -2147483648 and 2147483647)" : nil
        case "int64":
            guard value.intValue == nil else { return nil }
            if case .double(let double) = value, double.rounded() == double {
                return "an int64 (between -9223372036854775808 and 9223372036854775807)"
            }
            return "an int64 (a whole number)"
        default: return nil
        }
    }

    /// What a number carried exactly (one no `Int` or `Double` holds) should be and isn't, for
    /// `int32` and `int64`.
    static func problem(with number: ExactNumber, format: String) -> String? {
        let (low, high, name): (Int, Int, String)
        switch format {
        case "int32": (low, high, name) = (Int(Int32.min), Int(Int32.max), "an int32")
        case "int64": (low, high, name) = (Int.min, Int.max, "an int64")
        default: return nil
        }
        guard number.isInteger else { return "\(name) (a whole number)" }
        return ExactNumber(low) <= number && number <= ExactNumber(high) ? nil : "\(name) (between \(low) and \(high))"
    }

    /// The number the `count` ASCII digits at `start` of `bytes` spell, or `nil`.
    private static func digits(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ count: Int) -> Int? {
        guard start >= 0, start + count <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[start..<start + count] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }

    /// Runs `body` on the string's UTF-8 bytes, without copying them where the string is native.
    private static func withBytes(_ string: Substring, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        string.utf8.withContiguousStorageIfAvailable(body) ?? Array(string.utf8).withUnsafeBufferPointer(body)
    }

    static func isDate(_ text: Substring) -> Bool {
        withBytes(text) { bytes in bytes.count == 10 && isDate(bytes, at: 0) }
    }

    private static let daysInMonth = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    /// Whether the 10 bytes at `start` are a date, `YYYY-MM-DD`, that exists.
    private static func isDate(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard let year = digits(bytes, start, 4), bytes[start + 4] == UInt8(ascii: "-"),
            let month = digits(bytes, start + 5, 2), bytes[start + 7] == UInt8(ascii: "-"),
            let day = digits(bytes, start + 8, 2), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = month == 2 && leap ? 29 : daysInMonth[month - 1]
        return (1...days).contains(day)
    }

    /// RFC 3339's `date-time`: a date, `T` (or `t`, or a space), `HH:MM:SS` with an optional
    /// fraction, then `Z` or an offset `±HH:MM`. Read byte by byte: request bodies hold many.
    static func isDateTime(_ string: String) -> Bool {
        withBytes(Substring(string)) { bytes in
            guard bytes.count >= 20, isDate(bytes, at: 0),
                [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]),
                let hour = digits(bytes, 11, 2), bytes[13] == UInt8(ascii: ":"), let minute = digits(bytes, 14, 2),
                bytes[16] == UInt8(ascii: ":"), let second = digits(bytes, 17, 2),
                hour < 24, minute < 60, second <= 60
            else { return false }
            var position = 19
            if bytes[position] == UInt8(ascii: ".") {
                position += 1
                let fraction = position
                while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9")
                {
                    position += 1
                }
                guard position > fraction else { return false }
            }
            guard position < bytes.count else { return false }
            switch bytes[position] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"): return position + 1 == bytes.count
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                guard position + 6 == bytes.count, let hours = digits(bytes, position + 1, 2),
                    bytes[position + 3] == UInt8(ascii: ":"), let minutes = digits(bytes, position + 4, 2)
                else { return false }
                return hours < 24 && minutes < 60
            default: return false
            }
        }
    }

    static func isUUID(_ string: String) -> Bool {
        let groups = string.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    static func isEmail(_ string: String) -> Bool {
        let parts = string.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return false }
        return !string.contains(where: \.isWhitespace) && !parts[1].hasPrefix(".") && !parts[1].hasSuffix(".")
    }

    static func isURI(_ string: String) -> Bool {
        guard let colon = string.firstIndex(of: ":"), let first = string.first, first.isASCII, first.isLetter else {
            return false
        }
        let scheme = string[..<colon]
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0)) }
            && !string.contains(where: { $0.isWhitespace })
    }

    static func isAddress(_ string: String, family: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16)
        return string.withCString { inet_pton(family, $0, &buffer) } == 1
    }
}
