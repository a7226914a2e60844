import Foundation

/// What the values seen at one place of recorded bodies have in common, kept as counts rather
/// than as the values, so a draft's memory follows the number of distinct shapes, not the
/// number of exchanges. ``schema()`` turns it into the JSON Schema a draft writes.
///
/// The rules (issue 38): a property is required when every object had it; types are united
/// (`null` joins a type list); a `format` is given only when every string had it; an `enum`
/// only with enough evidence (at least 10 strings and fewer distinct values than their square
/// root); objects keyed by ids become maps; array items are merged over every element; objects
/// whose shapes conflict become a `oneOf` only when a member tells them apart.
final class ValueShape {
    /// How deep values are followed; below it anything is allowed (`{}`), so neither adding nor
    /// writing recurses past a depth every thread's stack holds, and the draft stays within the
    /// nesting our YAML reader allows (200 levels: a level of objects is two, `properties` and
    /// the member's name).
    static let maximumDepth = 32

    private(set) var count = 0
    private var nulls = 0
    private var booleans = 0
    private var integers = 0
    private var numbers = 0
    private var strings: StringShape?
    private var arrays: ArrayShape?
    private var objects: ObjectShape?
    /// Values past ``maximumDepth``: they make the schema allow anything.
    private var tooDeep = 0
    /// Whether objects below track members that could tell their shapes apart (variants don't,
    /// so the tracking costs a bounded copy per object, not one per level).
    let tracksTags: Bool

    init(tracksTags: Bool = true) {
        self.tracksTags = tracksTags
    }

    /// Adds one value seen `depth` levels below the body's top.
    func add(_ node: DocumentNode, depth: Int = 0) {
        count += 1
        guard depth < Self.maximumDepth else {
            tooDeep += 1
            return
        }
        switch node.value {
        case .null: nulls += 1
        case .bool: booleans += 1
        case .int: integers += 1
        case .double: numbers += 1
        case .exactNumber(let number): if number.isInteger { integers += 1 } else { numbers += 1 }
        case .string(let text):
            if strings == nil { strings = StringShape() }
            strings?.add(text)
        case .array(let elements):
            if arrays == nil { arrays = ArrayShape(tracksTags: tracksTags) }
            arrays?.add(elements, depth: depth)
        case .object(let object):
            if objects == nil { objects = ObjectShape(tracksTags: tracksTags) }
            objects?.add(object, depth: depth)
        }
    }

    /// Takes in what `other` saw, as if its values had been added here.
    func absorb(_ other: ValueShape) {
        count += other.count
        nulls += other.nulls
        booleans += other.booleans
        integers += other.integers
        numbers += other.numbers
        tooDeep += other.tooDeep
        if let theirs = other.strings {
            if strings == nil { strings = StringShape() }
            strings?.absorb(theirs)
        }
        if let theirs = other.arrays {
            if let arrays { arrays.absorb(theirs) } else { arrays = theirs.copy(tracksTags: tracksTags) }
        }
        if let theirs = other.objects {
            if let objects { objects.absorb(theirs) } else { objects = theirs.copy(tracksTags: tracksTags) }
        }
    }

    /// A shape of its own holding what this one saw.
    func copy(tracksTags: Bool) -> ValueShape {
        let copy = ValueShape(tracksTags: tracksTags)
        copy.absorb(self)
        return copy
    }

    /// The JSON Schema of what was seen: `{}` when nothing was (or only values too deep). A
    /// `loose` schema (of bodies only some of which were read) claims nothing the unread ones
    /// could break: no `required`, `format`, `enum` or `oneOf`, only types and members.
    func schema(loose: Bool = false) -> DraftSchema {
        guard count > 0, tooDeep == 0 else { return DraftSchema() }
        var schema = DraftSchema()
        var types: [String] = []
        if let objects {
            types.append("object")
            if !loose, objects.count == count, let variants = objects.variants() {
                return variants
            }
            objects.describe(into: &schema, loose: loose)
        }
        if let arrays {
            types.append("array")
            if arrays.items.count > 0 { schema.items = arrays.items.schema(loose: loose).node }
        }
        if let strings {
            types.append("string")
            // A format or an enum only when every value but `null` was a string.
            if !loose, nulls + strings.count == count {
                schema.format = strings.format
                if let values = strings.enumeration() {
                    schema.enumeration = values.map(DraftSchema.Literal.string) + (nulls > 0 ? [.null] : [])
                }
            }
        }
        if numbers > 0 {
            types.append("number")
        } else if integers > 0 {
            types.append("integer")
        }
        if booleans > 0 { types.append("boolean") }
        if nulls > 0 { types.append("null") }
        schema.types = types
        return schema
    }
}

/// What the strings at one place had in common.
private struct StringShape {
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

/// The arrays at one place: their elements, merged.
private final class ArrayShape {
    let items: ValueShape

    init(tracksTags: Bool) {
        items = ValueShape(tracksTags: tracksTags)
    }

    func add(_ elements: [DocumentNode], depth: Int) {
        for element in elements { items.add(element, depth: depth + 1) }
    }

    func absorb(_ other: ArrayShape) { items.absorb(other.items) }

    func copy(tracksTags: Bool) -> ArrayShape {
        let copy = ArrayShape(tracksTags: tracksTags)
        copy.absorb(self)
        return copy
    }
}

/// The objects at one place: their members by name (in the order first seen), or, for objects
/// keyed by ids, the values of a map.
private final class ObjectShape {
    private(set) var count = 0
    private var names: [String] = []
    private var members: [String: (shape: ValueShape, present: Int)] = [:]
    /// Values of objects keyed by ids (`{"1042": {...}, "1043": {...}}`), or of objects with more
    /// names than ``maximumNames``.
    private var mapValues: ValueShape?
    private let tracksTags: Bool
    /// Per member that could tell shapes apart: the objects seen with each of its values.
    private var tags: [String: [(value: String, shape: ObjectShape)]] = [:]

    /// Past this many distinct names, an object is read as a map.
    static let maximumNames = 200
    /// Member names that usually tell object shapes apart, and how many values one may have.
    static let tagNames = [
        "type", "kind", "object", "event", "eventType", "event_type", "@type", "$type", "resourceType",
        "resource_type", "__typename",
    ]
    static let maximumTagValues = 16
    /// How deep objects are still told apart by a member.
    static let maximumTagDepth = 3

    init(tracksTags: Bool) {
        self.tracksTags = tracksTags
    }

    func add(_ object: DocumentObject, depth: Int) {
        count += 1
        let keyedByIds = !object.members.isEmpty && object.members.allSatisfy { PathShape.isIdByShape($0.key) }
        // Objects keyed by ids and objects of named members at one place: all are read as a map,
        // so no member's schema contradicts the map's values.
        if keyedByIds, !members.isEmpty { becomeMap() }
        if keyedByIds || mapValues != nil && members.isEmpty {
            let values = mapValues ?? ValueShape(tracksTags: tracksTags)
            for member in object.members { values.add(member.value, depth: depth + 1) }
            mapValues = values
            return
        }
        for member in object.members {
            if let known = members[member.key] {
                known.shape.add(member.value, depth: depth + 1)
                members[member.key]?.present += 1
            } else {
                let shape = ValueShape(tracksTags: tracksTags)
                shape.add(member.value, depth: depth + 1)
                names.append(member.key)
                members[member.key] = (shape, 1)
            }
        }
        if names.count > Self.maximumNames { becomeMap() }
        // Shapes told apart near the top only (a list's items, their members): each object
        // tracked is added once more, to its variant, so deeper tracking would multiply the work.
        guard tracksTags, depth <= Self.maximumTagDepth else { return }
        for name in Self.tagNames {
            guard let value = object[name]?.string else { continue }
            // The first tag name an object has is the only candidate.
            if count == 1 && tags.isEmpty { tags[name] = [] }
            guard var seen = tags[name] else { continue }
            let plain: ObjectShape
            if let index = seen.firstIndex(where: { $0.value == value }) {
                plain = seen[index].shape
            } else {
                guard seen.count < Self.maximumTagValues else {
                    tags[name] = nil
                    continue
                }
                plain = ObjectShape(tracksTags: false)
                seen.append((value, plain))
                tags[name] = seen
            }
            plain.add(object, depth: depth)
        }
        // A tag every object must have: one missing from this object is no tag.
        for name in Array(tags.keys) where object[name]?.string == nil { tags[name] = nil }
    }

    /// Reads every member seen so far as a value of a map.
    private func becomeMap() {
        let values = mapValues ?? ValueShape(tracksTags: tracksTags)
        for name in names { if let member = members[name] { values.absorb(member.shape) } }
        mapValues = values
        (names, members, tags) = ([], [:], [:])
    }

    func absorb(_ other: ObjectShape) {
        let before = count
        count += other.count
        if let theirs = other.mapValues {
            let values = mapValues ?? ValueShape(tracksTags: tracksTags)
            values.absorb(theirs)
            mapValues = values
        }
        for name in other.names {
            guard let theirs = other.members[name] else { continue }
            if let mine = members[name] {
                mine.shape.absorb(theirs.shape)
                members[name]?.present += theirs.present
            } else {
                names.append(name)
                members[name] = (theirs.shape.copy(tracksTags: tracksTags), theirs.present)
            }
        }
        if names.count > Self.maximumNames || mapValues != nil && !names.isEmpty { becomeMap() }
        guard tracksTags else { return }
        // A tag stays only when both sides saw it on every object.
        for name in Array(tags.keys) {
            guard before > 0, var mine = tags[name], let theirs = other.tags[name] else {
                tags[name] = nil
                continue
            }
            for (value, shape) in theirs {
                if let index = mine.firstIndex(where: { $0.value == value }) {
                    mine[index].shape.absorb(shape)
                } else {
                    mine.append((value, shape.copy(tracksTags: false)))
                }
            }
            tags[name] = mine.count <= Self.maximumTagValues ? mine : nil
        }
        if before == 0 {
            tags = other.tags.mapValues { $0.map { ($0.value, $0.shape.copy(tracksTags: false)) } }
        }
    }

    func copy(tracksTags: Bool) -> ObjectShape {
        let copy = ObjectShape(tracksTags: tracksTags)
        copy.absorb(self)
        return copy
    }

    /// Writes the members (`properties`, `required`) or the map's values. A member whose name
    /// marks a secret (``SecretNames``) allows any value: redaction made its values the text
    /// `REDACTED`, whatever they were, and a recording that wasn't redacted holds the real ones.
    func describe(into schema: inout DraftSchema, loose: Bool = false) {
        for name in names {
            guard let member = members[name] else { continue }
            let secret = SecretNames.isSecretField(name)
            schema.properties.append((name, secret ? DraftSchema().node : member.shape.schema(loose: loose).node))
            if !loose, member.present == count { schema.required.append(name) }
        }
        if let mapValues { schema.additionalProperties = mapValues.schema(loose: loose).node }
    }

    /// A `oneOf` of the shapes a member tells apart, when their members conflict (one shape
    /// requires a member another never has); `nil` when uniting them loses nothing. Each branch
    /// has the member as a `const`, so a value matches exactly one; no `discriminator` keyword is
    /// written, since without a `mapping` tools read its values as schema names.
    func variants() -> DraftSchema? {
        guard mapValues == nil else { return nil }
        for name in Self.tagNames {
            guard let seen = tags[name], seen.count >= 2, members[name]?.present == count else { continue }
            let required = seen.map { variant in Set(variant.shape.names.filter { variant.shape.isRequired($0) }) }
            let present = seen.map { Set($0.shape.names) }
            let conflicts = required.indices.contains { index in
                present.indices.contains { other in other != index && !required[index].isSubset(of: present[other]) }
            }
            guard conflicts else { continue }
            var schema = DraftSchema()
            schema.oneOf = seen.map { variant in
                var branch = DraftSchema()
                branch.types = ["object"]
                variant.shape.describe(into: &branch)
                if let index = branch.properties.firstIndex(where: { $0.name == name }) {
                    branch.properties[index].schema = DraftSchema(constant: variant.value).node
                }
                return branch.node
            }
            return schema
        }
        return nil
    }

    private func isRequired(_ name: String) -> Bool { members[name]?.present == count }
}
