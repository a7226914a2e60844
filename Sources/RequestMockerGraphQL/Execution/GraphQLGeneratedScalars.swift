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
        let lower = field.lowercased()
        if lower.contains("email") { return "user\(number)@example.com" }
        if lower.hasSuffix("url") || lower.hasSuffix("uri") { return "https://example.com/\(field)/\(number)" }
        return "\(field) \(number)"
    }

    private static func custom(_ name: String, field: String, number: Int, seed: GraphQLSeed) -> GraphQLJSON {
        let lower = name.lowercased()
        // 2026 from its first second, a second of it drawn from the seed.
        let second = seed.number(below: 365 * 86_400)
        if lower.contains("datetime") || lower.contains("timestamp") || lower.contains("instant") {
            return .string(date(second) + "T" + time(second) + "Z")
        }
        if lower.contains("date") { return .string(date(second)) }
        if lower.contains("time") { return .string(time(second)) }
        if lower.contains("url") || lower.contains("uri") { return .string("https://example.com/\(field)/\(number)") }
        if lower.contains("email") { return .string("user\(number)@example.com") }
        if lower.contains("uuid") { return .string(uuid(seed)) }
        if lower.contains("json") { return .object([]) }
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
