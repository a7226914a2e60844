/// A number as the decimal it is written as (`-9223372036854775809`, `0.10000000000000000001`):
/// `±digits × 10^exponent`, compared without rounding.
///
/// Numbers are carried as `Int` or `Double` wherever those hold them exactly, which is nearly
/// always; an integer past `Int`'s range, or a decimal with more digits than a `Double` keeps, is
/// carried as this beside its nearest `Double`, so `minimum`, `maximum`, `multipleOf`, `enum`,
/// `const` and `int32`/`int64` judge the number that was written, not its neighbour.
package struct ExactNumber: Sendable, Hashable, Comparable, CustomStringConvertible {
    package let isNegative: Bool
    /// The significant digits (0…9), most significant first, without leading or trailing zeros;
    /// empty for zero.
    package let digits: [UInt8]
    /// The power of ten the digits are multiplied by.
    package let exponent: Int

    /// How far an exponent may go; text past it (`1e999999999999`) is not read as a number.
    private static let exponentLimit = 1_000_000

    /// Reads JSON's number syntax (`-`, digits, an optional fraction and exponent); `nil` for
    /// anything else.
    package init?(_ text: some StringProtocol) {
        var bytes = Array(text.utf8)[...]
        let isNegative = bytes.first == UInt8(ascii: "-")
        if isNegative { bytes = bytes.dropFirst() }
        var digits: [UInt8] = []
        var exponent = 0
        var sawDigit = false
        var sawPoint = false
        while let byte = bytes.first, byte == UInt8(ascii: ".") || (48...57).contains(byte) {
            bytes = bytes.dropFirst()
            if byte == UInt8(ascii: ".") {
                guard !sawPoint, sawDigit else { return nil }
                sawPoint = true
                continue
            }
            sawDigit = true
            if sawPoint { exponent -= 1 }
            if !(digits.isEmpty && byte == 48) { digits.append(byte - 48) }
        }
        // A point needs a digit after it, as in JSON (`1.` is not a number).
        guard sawDigit, !sawPoint || exponent < 0 else { return nil }
        if let marker = bytes.first, marker | 0x20 == UInt8(ascii: "e") {
            bytes = bytes.dropFirst()
            var negativeExponent = false
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                negativeExponent = sign == UInt8(ascii: "-")
                bytes = bytes.dropFirst()
            }
            guard !bytes.isEmpty else { return nil }
            var written = 0
            for byte in bytes {
                guard (48...57).contains(byte) else { return nil }
                written = written * 10 + Int(byte - 48)
                guard written <= Self.exponentLimit else { return nil }
            }
            exponent += negativeExponent ? -written : written
            bytes = bytes[bytes.endIndex...]
        }
        guard bytes.isEmpty else { return nil }
        while digits.last == 0 {
            digits.removeLast()
            exponent += 1
        }
        self.init(isNegative: isNegative && !digits.isEmpty, digits: digits, exponent: digits.isEmpty ? 0 : exponent)
    }

    private init(isNegative: Bool, digits: [UInt8], exponent: Int) {
        self.isNegative = isNegative
        self.digits = digits
        self.exponent = exponent
    }

    /// The decimal a finite `Double` prints as: the shortest that reads back to it, which is the
    /// number written wherever that number fits a `Double`. Two such numbers compare as their
    /// `Double`s do.
    package init?(_ double: Double) {
        guard double.isFinite else { return nil }
        self.init("\(double)")
    }

    /// The number `text` is, when `double` (what it reads as) is not that number: an integer
    /// past `Int`'s range or a decimal with more digits than a `Double` keeps; else `nil`.
    package static func inexact(_ text: some StringProtocol, readingAs double: Double) -> ExactNumber? {
        guard let exact = ExactNumber(text), ExactNumber(double) != exact else { return nil }
        return exact
    }

    /// The number `value` is, if it is one (a `.double` as the decimal it prints as).
    package init?(_ value: JSONValue) {
        switch value {
        case .int(let int): self.init(int)
        case .double(let double): self.init(double)
        default: return nil
        }
    }

    package init(_ int: Int) {
        // An integer's text is always a number.
        self.init(isNegative: int < 0, digits: [], exponent: 0)
        if let read = ExactNumber(String(int)) { self = read }
    }

    /// The number as JSON writes it: plainly (`-9223372036854775809`, `0.10000000000000000001`)
    /// up to 40 places from the point, else with an exponent (`1.5e300`).
    package var description: String {
        guard !digits.isEmpty else { return "0" }
        let sign = isNegative ? "-" : ""
        let text = String(decoding: digits.map { $0 + 48 }, as: UTF8.self)
        if exponent >= 0, exponent <= 40 { return sign + text + String(repeating: "0", count: exponent) }
        if exponent < 0, -exponent <= 40 {
            let point = digits.count + exponent
            if point > 0 { return sign + text.prefix(point) + "." + text.dropFirst(point) }
            return sign + "0." + String(repeating: "0", count: -point) + text
        }
        let fraction = text.dropFirst()
        return sign + text.prefix(1) + (fraction.isEmpty ? "" : "." + fraction) + "e\(exponent + digits.count - 1)"
    }

    /// Whether it has no fraction.
    package var isInteger: Bool { digits.isEmpty || exponent >= 0 }

    /// The nearest `Double`.
    package var double: Double { Double(description) ?? (isNegative ? -.infinity : .infinity) }

    package static func < (lhs: ExactNumber, rhs: ExactNumber) -> Bool {
        if lhs.isNegative != rhs.isNegative { return lhs.isNegative }
        let magnitude = compareMagnitude(lhs, rhs)
        return lhs.isNegative ? magnitude == .greater : magnitude == .less
    }

    private enum Order { case less, equal, greater }

    private static func compareMagnitude(_ lhs: ExactNumber, _ rhs: ExactNumber) -> Order {
        if lhs.digits.isEmpty || rhs.digits.isEmpty {
            return lhs.digits.isEmpty == rhs.digits.isEmpty ? .equal : (lhs.digits.isEmpty ? .less : .greater)
        }
        // The power of ten of the leading digit decides, then the digits.
        let (left, right) = (lhs.digits.count + lhs.exponent, rhs.digits.count + rhs.exponent)
        if left != right { return left < right ? .less : .greater }
        for index in 0..<max(lhs.digits.count, rhs.digits.count) {
            let (a, b) = (
                index < lhs.digits.count ? lhs.digits[index] : 0, index < rhs.digits.count ? rhs.digits[index] : 0
            )
            if a != b { return a < b ? .less : .greater }
        }
        return .equal
    }

    /// Whether it is a whole multiple of `step`, computed exactly; `nil` for a zero step, or one
    /// with more than 17 digits at the value's scale (the caller falls back to `Double`s).
    package func isMultiple(of step: ExactNumber) -> Bool? {
        guard !step.digits.isEmpty else { return nil }
        guard !digits.isEmpty else { return true }
        // Both as integers at the smaller exponent: the value's digits then its zeros, over the
        // step's digits then its zeros, which must fit a UInt64 with room for one more digit.
        let common = min(exponent, step.exponent)
        let stepZeros = step.exponent - common
        guard step.digits.count + stepZeros <= 17 else { return nil }
        var divisor: UInt64 = 0
        for digit in step.digits { divisor = divisor * 10 + UInt64(digit) }
        for _ in 0..<stepZeros { divisor *= 10 }
        var remainder: UInt64 = 0
        for digit in digits { remainder = (remainder * 10 + UInt64(digit)) % divisor }
        // Times 10^zeros, by squaring: an exponent of a million takes 20 steps, not a million.
        var zeros = exponent - common
        var power = 10 % divisor
        while zeros > 0 {
            if zeros & 1 == 1 { remainder = Self.product(remainder, power, modulo: divisor) }
            power = Self.product(power, power, modulo: divisor)
            zeros >>= 1
        }
        return remainder == 0
    }

    /// `a × b mod m`, for `a` and `b` below `m`, without overflow.
    private static func product(_ a: UInt64, _ b: UInt64, modulo m: UInt64) -> UInt64 {
        let (high, low) = a.multipliedFullWidth(by: b)
        return m.dividingFullWidth((high, low)).remainder
    }
}
