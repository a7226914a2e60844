/// The values the generator gives a leaf: built-in scalars by type, custom scalars shaped by
/// their name where it is telling (`DateTime`, `Date`, `Time`, `URL`/`URI`, `Email`, `UUID`,
/// `JSON`, `Long`), any other custom scalar a string, and enum values among the schema's own.
enum GraphQLGeneratedScalars {
    /// The value of a field named `field` whose type is the leaf `type`, drawn from `seed`.
    static func value(of type: GraphQLNamedType, field: String, seed: GraphQLSeed) -> GraphQLJSON {
        if type.kind == .enumeration {
            let current = type.enumValues.filter { $0.deprecationReason == nil }
            let values = current.isEmpty ? type.enumValues : current
            guard !values.isEmpty else { return .null }
            return .string(values[seed.number(below: values.count)].name)
        }
        let number = seed.number(below: 1000)
        switch type.name {
        case "Int": return .int(1 + seed.number(below: 100))
        case "Float": return .float(Double(seed.number(below: 10000)) / 100)
        case "Boolean": return .bool(seed.value & 1 == 1)
        case "ID": return .string(seed.hex)
        case "String": return .string(string(field: field, number: number, seed: seed))
        default: return custom(type.name, field: field, number: number, seed: seed)
        }
    }

    /// A string shaped by the field's name where it says what it holds (`email`, `…url`).
    private static func string(field: String, number: Int, seed: GraphQLSeed) -> String {
        if has(field, "email") { return "user\(number)@example.com" }
        if has(field, "url", atEnd: true) || has(field, "uri", atEnd: true) {
            return "https://example.com/\(field)/\(number)"
        }
        return "\(field) \(number)"
    }

    /// Whether `text` holds `word` (lower-case ASCII) in any letter case, or ends with it: a
    /// byte search, as this runs for every generated string.
    static func has(_ text: String, _ word: StaticString, atEnd: Bool = false) -> Bool {
        let bytes = Array(text.utf8)
        let wanted = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count >= wanted.count else { return false }
        let starts =
            atEnd ? (bytes.count - wanted.count)...(bytes.count - wanted.count) : 0...(bytes.count - wanted.count)
        for start in starts {
            var index = 0
            while index < wanted.count {
                var byte = bytes[start + index]
                if byte >= UInt8(ascii: "A"), byte <= UInt8(ascii: "Z") { byte += 32 }
                guard byte == wanted[index] else { break }
                index += 1
            }
            if index == wanted.count { return true }
        }
        return false
    }

    private static func custom(_ name: String, field: String, number: Int, seed: GraphQLSeed) -> GraphQLJSON {
        // 2026 from its first second, a second of it drawn from the seed.
        let second = seed.number(below: 365 * 86_400)
        if has(name, "datetime") || has(name, "timestamp") || has(name, "instant") {
            return .string(date(second) + "T" + time(second) + "Z")
        }
        if has(name, "date") { return .string(date(second)) }
        if has(name, "time") { return .string(time(second)) }
        if has(name, "url") || has(name, "uri") { return .string("https://example.com/\(field)/\(number)") }
        if has(name, "email") { return .string("user\(number)@example.com") }
        if has(name, "uuid") { return .string(uuid(seed)) }
        if has(name, "json") { return .object([]) }
        let lower = name.lowercased()
        if ["long", "bigint", "int64", "int32", "short", "byte", "uint"].contains(lower) { return .int(number) }
        if ["decimal", "bigdecimal", "money", "double"].contains(lower) { return .float(Double(number) / 10) }
        return .string("\(field) \(number)")
    }

    /// `2026-MM-DD` of the day `second` falls in.
    private static func date(_ second: Int) -> String {
        let lengths = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        var day = second / 86_400
        var month = 0
        while month < 11, day >= lengths[month] {
            day -= lengths[month]
            month += 1
        }
        return "2026-" + twoDigits(month + 1) + "-" + twoDigits(day + 1)
    }

    private static func time(_ second: Int) -> String {
        let inDay = second % 86_400
        return twoDigits(inDay / 3600) + ":" + twoDigits(inDay / 60 % 60) + ":" + twoDigits(inDay % 60)
    }

    private static func twoDigits(_ number: Int) -> String {
        number < 10 ? "0\(number)" : "\(number)"
    }

    /// A version 4 UUID's text, its random bits drawn from the seed.
    private static func uuid(_ seed: GraphQLSeed) -> String {
        let high = seed.mixing("high").value
        let low = seed.mixing("low").value
        func hex(_ value: UInt64, _ digits: Int) -> String {
            let text = String(value, radix: 16)
            return String(repeating: "0", count: max(0, digits - text.count)) + text
        }
        let timeLow = hex(high >> 32, 8)
        let timeMid = hex((high >> 16) & 0xFFFF, 4)
        let version = hex(0x4000 | (high & 0x0FFF), 4)
        let variant = hex(0x8000 | ((low >> 48) & 0x3FFF), 4)
        let node = hex(low & 0xFFFF_FFFF_FFFF, 12)
        return "\(timeLow)-\(timeMid)-\(version)-\(variant)-\(node)"
    }
}
