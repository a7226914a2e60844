import Foundation

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

    private static func digits(_ text: Substring, _ count: Int) -> Int? {
        guard text.count == count, text.allSatisfy(\.isASCII), text.allSatisfy(\.isNumber) else { return nil }
        return Int(text)
    }

    static func isDate(_ text: Substring) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let year = digits(parts[0], 4), let month = digits(parts[1], 2),
            let day = digits(parts[2], 2), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    static func isDateTime(_ string: String) -> Bool {
        guard let separator = string.firstIndex(where: { $0 == "T" || $0 == "t" || $0 == " " }),
            isDate(string[..<separator])
        else { return false }
        var time = string[string.index(after: separator)...]
        if time.hasSuffix("Z") || time.hasSuffix("z") {
            time = time.dropLast()
        } else if let sign = time.lastIndex(where: { $0 == "+" || $0 == "-" }) {
            let offset = time[time.index(after: sign)...].split(separator: ":", omittingEmptySubsequences: false)
            guard offset.count == 2, let hours = digits(offset[0], 2), let minutes = digits(offset[1], 2),
                hours < 24, minutes < 60
            else { return false }
            time = time[..<sign]
        } else {
            return false
        }
        if let dot = time.firstIndex(of: ".") {
            let fraction = time[time.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            time = time[..<dot]
        }
        let parts = time.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, let hour = digits(parts[0], 2), let minute = digits(parts[1], 2),
            let second = digits(parts[2], 2)
        else { return false }
        return hour < 24 && minute < 60 && second <= 60
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
