import Foundation
import RequestMocker

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
