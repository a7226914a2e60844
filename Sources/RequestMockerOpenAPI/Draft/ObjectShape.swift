import RequestMocker

/// The objects at one place: their members by name (in the order first seen), or, for objects
/// keyed by ids, the values of a map.
final class ObjectShape {
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
    /// marks a secret (`SecretNames`) allows any value: redaction made its values the text
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
