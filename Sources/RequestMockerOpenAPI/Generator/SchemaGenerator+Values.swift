import Foundation
import RequestMocker

extension SchemaGenerator {
    /// The value of a merged view (no `allOf`, `oneOf` or `anyOf` left): `const`, an `enum`
    /// entry, else a value of its type.
    mutating func make(_ view: Schema, depth: Int, minimal: Bool, variant: Int) throws(Failure) -> DocumentNode {
        if let constant = view.constantNode { return constant }
        if let options = view.enumNodes, !options.isEmpty {
            let present = options.filter { if case .null = $0.value { false } else { true } }
            var choices = present.isEmpty ? options : present
            if view.constrainsBesidesValues {
                // The entries the merge's other keywords allow (an enum beside an allOf's bounds).
                let fitting = choices.filter {
                    SchemaValidator.violations(of: $0.jsonValue, against: view, direction: direction).isEmpty
                }
                if !fitting.isEmpty { choices = fitting }
            }
            if random != nil, let drawn = random?.element(of: choices) { return drawn }
            return choices[variant % choices.count]
        }
        switch try type(of: view) {
        case "object": return try object(view, depth: depth, minimal: minimal, variant: variant)
        case "array": return try array(view, depth: depth, minimal: minimal)
        case "string": return DocumentNode(.string(string(view, variant: variant)), at: 0)
        case "integer": return try number(view, integer: true, variant: variant)
        case "number": return try number(view, integer: ["int32", "int64"].contains(view.format), variant: variant)
        case "boolean": return DocumentNode(.bool(random?.bool() ?? (variant % 2 == 0)), at: 0)
        default: return DocumentNode(.null, at: 0)
        }
    }

    /// The type to make: the one the other keywords suggest, when allowed, else the first allowed
    /// in a fixed order; an object when the schema allows anything and suggests nothing.
    private func type(of view: Schema) throws(Failure) -> String {
        let suggested: String? =
            if !view.properties.isEmpty || !view.required.isEmpty || view.minProperties != nil {
                "object"
            } else if view.items != nil || view.minItems != nil {
                "array"
            } else if view.pattern != nil || view.minLength != nil || view.maxLength != nil {
                "string"
            } else if ["int32", "int64"].contains(view.format) {
                "integer"
            } else if view.minimum != nil || view.maximum != nil || view.multipleOf != nil {
                "number"
            } else if view.format != nil {
                "string"
            } else {
                nil
            }
        guard let types = view.types, let mask = view.typeMask else { return suggested ?? "object" }
        // Tested as bits: a body asks this of each of its values.
        let order = Self.typeOrder
        if let suggested, let bit = order.first(where: { $0.0 == suggested })?.1,
            mask.contains(bit) || bit == .integer && mask.contains(.number)
        {
            return suggested
        }
        guard let first = order.first(where: { mask.contains($0.1) })?.0 else {
            throw Failure(
                pointer: view.pointer,
                reason: types.isEmpty
                    ? "no value satisfies the schema (it is false, or its allOf's types have nothing in common)"
                    : "no value of type \(types.sorted().joined(separator: " or ")) can be generated")
        }
        return first
    }

    /// The types in the order one is made when the schema suggests none, with their bits.
    private static let typeOrder: [(String, Schema.TypeMask)] = [
        ("object", .object), ("array", .array), ("string", .string), ("integer", .integer), ("number", .number),
        ("boolean", .boolean), ("null", .null),
    ]

    private mutating func object(
        _ view: Schema, depth: Int, minimal: Bool, variant: Int
    ) throws(Failure) -> DocumentNode {
        var object = DocumentObject()
        let required = Set(view.required)
        let shallow = minimal || random != nil && depth >= Self.dynamicDepth
        for (name, property) in view.properties where object[name] == nil {
            if direction == .response, property.writeOnly { continue }
            if direction == .request, property.readOnly { continue }
            let isRequired = required.contains(name)
            let isCycle = active.contains(ObjectIdentifier(property))
            if !isRequired, shallow || isCycle { continue }
            let value = try generate(
                property, depth: depth + 1, minimal: minimal || isCycle, variant: object.members.isEmpty ? variant : 0)
            _ = object.append(.init(key: name, keyOffset: 0, value: value))
        }
        // Required names no property declares, and as many more as minProperties asks for.
        var extraNames = view.required.filter { view.propertyIndex[$0] == nil }
        if case .schema = view.additionalProperties, view.properties.isEmpty, !shallow {
            extraNames.append("property1")
        }
        var counter = 1
        while object.members.count + extraNames.count < view.minProperties ?? 0 {
            if view.propertyIndex["property\(counter)"] == nil, !extraNames.contains("property\(counter)") {
                extraNames.append("property\(counter)")
            }
            counter += 1
        }
        for name in extraNames where object[name] == nil {
            let value: DocumentNode
            switch view.additionalProperties {
            case .forbidden: continue
            case .allowed: value = DocumentNode(.string("string"), at: 0)
            case .schema(let extra):
                guard !active.contains(ObjectIdentifier(extra)) || required.contains(name) else { continue }
                value = try generate(extra, depth: depth + 1, minimal: minimal, variant: 0)
            }
            _ = object.append(.init(key: name, keyOffset: 0, value: value))
        }
        if let maximum = view.maxProperties, object.members.count > maximum {
            var kept = DocumentObject()
            var optional = object.members.count - maximum
            for member in object.members.reversed() {
                if optional > 0, !required.contains(member.key) {
                    optional -= 1
                    continue
                }
                _ = kept.append(member)
            }
            object = DocumentObject()
            for member in kept.members.reversed() { _ = object.append(member) }
        }
        return DocumentNode(.object(object), at: 0)
    }

    private mutating func array(_ view: Schema, depth: Int, minimal: Bool) throws(Failure) -> DocumentNode {
        let least = view.minItems ?? 0
        var count = minimal ? least : max(least, 1)
        if !minimal, random != nil { count = random?.int(in: count...count + 2) ?? count }
        if let items = view.items, active.contains(ObjectIdentifier(items)) { count = least }
        if let maximum = view.maxItems { count = min(count, maximum) }
        var elements: [DocumentNode] = []
        elements.reserveCapacity(min(count, Self.maximumNodes))
        for index in 0..<count {
            let variant = view.uniqueItems ? index : 0
            guard let items = view.items else {
                nodes += 1
                elements.append(DocumentNode(.string(variant == 0 ? "string" : "string\(variant + 1)"), at: 0))
                continue
            }
            let element = try generate(items, depth: depth + 1, minimal: minimal, variant: variant)
            if view.uniqueItems, elements.contains(where: { $0.jsonValue == element.jsonValue }) { continue }
            elements.append(element)
        }
        return DocumentNode(.array(elements), at: 0)
    }

    /// A string of the schema's pattern, else of its format, else a word; padded to its
    /// `minLength` and cut to its `maxLength`.
    private mutating func string(_ view: Schema, variant: Int) -> String {
        if let pattern = view.pattern, let value = pattern.example(minimumLength: view.minLength ?? 0, random: &random)
        {
            return value
        }
        var value = view.format.flatMap { formatted($0, variant: variant) } ?? word(variant: variant)
        if let minimum = view.minLength, value.unicodeScalars.count < minimum {
            value += String(repeating: "x", count: minimum - value.unicodeScalars.count)
        }
        if let maximum = view.maxLength, value.unicodeScalars.count > maximum {
            value = String(String.UnicodeScalarView(value.unicodeScalars.prefix(maximum)))
        }
        return value
    }

    private mutating func word(variant: Int) -> String {
        guard random != nil else { return variant == 0 ? "string" : "string\(variant + 1)" }
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let length = random?.int(in: 5...10) ?? 6
        return String((0..<length).map { _ in letters[random?.int(in: 0...25) ?? 0] })
    }

    /// A value of `format`, or `nil` for a format without one.
    private mutating func formatted(_ format: String, variant: Int) -> String? {
        let number = random?.int(in: 0...9_999) ?? variant
        let day = random?.int(in: 1...28) ?? (variant % 28 + 1)
        let date = "20\(random.map { _ in 20 + number % 10 } ?? 26)-\(two(number % 12 + 1))-\(two(day))"
        switch format {
        case "date": return date
        case "date-time": return date + "T\(two(number % 24)):\(two(number % 60)):00Z"
        case "time": return "\(two(number % 24)):\(two(number % 60)):00Z"
        case "uuid":
            let hex = random.map { _ in (0..<8).map { _ in String(random?.int(in: 0...15) ?? 0, radix: 16) }.joined() }
            let tail = hex ?? String(repeating: "0", count: max(0, 8 - String(variant).count)) + String(variant)
            return "3fa85f64-5717-4562-b3fc-2c96\(tail.suffix(8))"
        case "email": return "user\(number == 0 ? "" : String(number))@example.com"
        case "uri", "url", "iri": return "https://example.com/" + (number == 0 ? "" : String(number))
        case "uri-reference", "iri-reference": return "/resources/\(number)"
        case "hostname", "idn-hostname": return number == 0 ? "example.com" : "host\(number).example.com"
        case "ipv4": return "192.0.2.\(number % 254 + 1)"
        case "ipv6": return "2001:db8::\(String(number % 0xFFFF, radix: 16))"
        case "byte": return "c3RyaW5n"
        case "password": return "password"
        default: return nil
        }
    }

    private func two(_ value: Int) -> String {
        value < 10 ? "0\(value)" : String(value)
    }

    /// A number inside the bounds, on the `multipleOf` (a whole one for integers): 0 where
    /// allowed, else the nearest the bounds allow; drawn from the bounds when dynamic.
    private mutating func number(_ view: Schema, integer: Bool, variant: Int) throws(Failure) -> DocumentNode {
        let step = view.multipleOf.map { integer ? Self.wholeMultiple(of: $0) : $0 } ?? (integer ? 1 : nil)
        if let step {
            // Values are k × step; the bounds become bounds on k.
            var low = view.minimum.map { ($0 / step).rounded(.up) } ?? -.infinity
            if let bound = view.exclusiveMinimum { low = max(low, (bound / step).rounded(.down) + 1) }
            var high = view.maximum.map { ($0 / step).rounded(.down) } ?? .infinity
            if let bound = view.exclusiveMaximum { high = min(high, (bound / step).rounded(.up) - 1) }
            guard low <= high else { throw unsatisfiable(view) }
            var k = min(max(0, low), high)
            if random != nil {
                let from = low.isFinite ? low : (high.isFinite ? high - 100 : 0)
                let to = high.isFinite ? min(high, from + 1_000) : from + 1_000
                k = (random?.double(in: from...max(from, to)) ?? from).rounded(.down)
                k = min(max(k, low), high)
            } else if variant > 0, k + Double(variant) <= high {
                k += Double(variant)
            }
            return Self.node(k * step)
        }
        let low = view.minimum ?? view.exclusiveMinimum
        let high = view.maximum ?? view.exclusiveMaximum
        if let low, let high, low > high { throw unsatisfiable(view) }
        var value: Double
        if random != nil {
            let from = low ?? min(0, (high ?? 100) - 100)
            value = ((random?.double(in: from...(high ?? from + 100)) ?? from) * 100).rounded() / 100
        } else {
            value = 0 + Double(variant)
        }
        if let bound = view.minimum, value < bound { value = bound }
        if let bound = view.exclusiveMinimum, value <= bound {
            value = high.map { min(bound + 1, (bound + $0) / 2) } ?? bound + 1
        }
        if let bound = view.maximum, value > bound { value = bound }
        if let bound = view.exclusiveMaximum, value >= bound {
            value = low.map { max(bound - 1, ($0 + bound) / 2) } ?? bound - 1
        }
        return Self.node(value)
    }

    /// The smallest whole multiple of `step` (`1` for `0.5`), or `step` when none is near.
    private static func wholeMultiple(of step: Double) -> Double {
        for times in 1...1_000 {
            let product = step * Double(times)
            if abs(product - product.rounded()) < 1e-9, product.rounded() != 0 { return product.rounded() }
        }
        return step
    }

    private func unsatisfiable(_ view: Schema) -> Failure {
        Failure(pointer: view.pointer, reason: "no number lies within the schema's minimum, maximum and multipleOf")
    }

    /// A whole number as an integer, else as a double.
    private static func node(_ value: Double) -> DocumentNode {
        if value.rounded() == value, abs(value) < 9e15 { return DocumentNode(.int(Int(value)), at: 0) }
        return DocumentNode(.double(value), at: 0)
    }
}

extension Schema {
    /// Whether keywords other than `enum` and `const` constrain a value of the schema: its types,
    /// bounds, lengths, pattern or format (which an `enum` entry must also keep).
    var constrainsBesidesValues: Bool {
        types != nil || minimum != nil || maximum != nil || exclusiveMinimum != nil || exclusiveMaximum != nil
            || multipleOf != nil || minLength != nil || maxLength != nil || pattern != nil || format != nil
    }
}
