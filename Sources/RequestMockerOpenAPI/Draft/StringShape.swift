import RequestMocker

/// What the strings at one place had in common.
struct StringShape {
    var count = 0
    /// The formats every string so far had, as bits of ``formats``.
    var formatBits: UInt16 = .max
    /// The distinct strings, in the order first seen, while there are few enough for an enum.
    var distinct: [String] = []
    var distinctSet: Set<String> = []
    var tooManyDistinct = false

    static let formats: [(name: String, test: @Sendable (String) -> Bool)] = [
        // Stricter than the validator where other tools are: a `T` between date and time, and a
        // URI of ASCII without the characters RFC 3986 never allows.
        ("date-time", { FormatCheck.isDateTime($0) && [0x54, 0x74].contains(Array($0.utf8)[10]) }),
        ("date", { FormatCheck.isDate(Substring($0)) }),
        ("time", isTime),
        ("uuid", FormatCheck.isUUID),
        ("email", FormatCheck.isEmail),
        (
            "uri",
            {
                FormatCheck.isURI($0)
                    && $0.unicodeScalars.allSatisfy { $0.isASCII && !"<>\"\\{}|^` ".unicodeScalars.contains($0) }
            }
        ),
        ("ipv4", { FormatCheck.problem(with: $0, format: "ipv4") == nil }),
        ("ipv6", { FormatCheck.problem(with: $0, format: "ipv6") == nil }),
    ]
    /// An enum needs fewer distinct values than the square root of the strings: 32 distinct
    /// values already need 1,024 strings, which is where keeping them stops.
    static let maximumDistinct = 32

    mutating func add(_ text: String) {
        count += 1
        if formatBits != 0 {
            for (bit, format) in Self.formats.enumerated() where formatBits & (1 << bit) != 0 {
                if !format.test(text) { formatBits &= ~(1 << bit) }
            }
        }
        remember(text)
    }

    private mutating func remember(_ text: String) {
        guard !tooManyDistinct, !distinctSet.contains(text) else { return }
        guard distinct.count < Self.maximumDistinct, text.utf8.count <= 100 else {
            tooManyDistinct = true
            (distinct, distinctSet) = ([], [])
            return
        }
        distinct.append(text)
        distinctSet.insert(text)
    }

    mutating func absorb(_ other: StringShape) {
        count += other.count
        formatBits &= other.formatBits
        if other.tooManyDistinct {
            tooManyDistinct = true
            (distinct, distinctSet) = ([], [])
        }
        for text in other.distinct { remember(text) }
    }

    var format: String? {
        Self.formats.indices.first { formatBits & (1 << $0) != 0 }.map { Self.formats[$0].name }
    }

    func enumeration() -> [String]? {
        guard !tooManyDistinct, count >= 10, distinct.count * distinct.count < count else { return nil }
        return distinct
    }

    /// RFC 3339's `full-time`: `HH:MM:SS`, an optional fraction, and `Z` or an offset.
    static func isTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ start: Int, _ count: Int, upTo limit: Int) -> Bool {
            guard start + count <= bytes.count else { return false }
            var value = 0
            for byte in bytes[start..<start + count] {
                guard (0x30...0x39).contains(byte) else { return false }
                value = value * 10 + Int(byte - 0x30)
            }
            return value <= limit
        }
        guard bytes.count >= 9, digits(0, 2, upTo: 23), bytes[2] == UInt8(ascii: ":"), digits(3, 2, upTo: 59),
            bytes[5] == UInt8(ascii: ":"), digits(6, 2, upTo: 60)
        else { return false }
        var index = 8
        if bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) { index += 1 }
            guard index > start, index < bytes.count else { return false }
        }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") { return index + 1 == bytes.count }
        guard bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return false }
        return index + 6 == bytes.count && digits(index + 1, 2, upTo: 23) && bytes[index + 3] == UInt8(ascii: ":")
            && digits(index + 4, 2, upTo: 59)
    }
}
