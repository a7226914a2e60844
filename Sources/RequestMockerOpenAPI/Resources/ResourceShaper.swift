import RequestMocker

/// Turns what a request sends into what the store keeps, and what the store keeps into what the
/// contract declares an answer to look like (issue 37's shaper).
///
/// A create or a replace keeps the body as sent, plus the members the item schema declares that
/// it lacks and that are `readOnly` or required, generated, at every depth the body reaches (an
/// object it sends is kept, and that object's own missing required members are filled); optional
/// members it doesn't send stay absent. An answer leaves out `writeOnly` members at every depth,
/// so a password sent is kept but never comes back, and wraps the item or the items as the
/// response schema does, its other members generated and its totals counting the items.
package enum ResourceShaper {
    /// How deep the shaper follows a body into its schema (a generated value's bound).
    static let maximumDepth = SchemaGenerator.maximumDepth

    /// `body` with the members `schema` requires or makes `readOnly` that it lacks, generated,
    /// and `id` set under `idProperty` (when given).
    package static func stored(
        _ body: DocumentNode, as schema: Schema, id: (property: String, value: DocumentNode)? = nil
    ) -> DocumentNode {
        // The id first, so the walk doesn't generate one only to have it replaced.
        var sent = body
        if let id, case .object(var object) = body.value {
            set(id.property, to: id.value, in: &object)
            sent = DocumentNode(.object(object), at: body.offset)
        }
        return walk(sent, schema, depth: 0)
    }

    /// `item` as an answer shows it: without its `writeOnly` members, at every depth.
    package static func shown(_ item: DocumentNode, as schema: Schema) -> DocumentNode {
        withoutWriteOnly(item, schema, depth: 0) ?? item
    }

    /// `value` without its `writeOnly` members at every depth, or `nil` when it has none (the
    /// usual case, which then costs no copy).
    private static func withoutWriteOnly(_ value: DocumentNode, _ schema: Schema, depth: Int) -> DocumentNode? {
        guard depth < maximumDepth else { return nil }
        switch value.value {
        case .object(let object):
            let lookup = schema.lookup
            // Each changed member's replacement, or `nil` for one left out.
            var changes: [(index: Int, value: DocumentNode?)] = []
            for (index, member) in object.members.enumerated() {
                guard let property = lookup.declaredProperty(member.key) else { continue }
                if property.writeOnly {
                    changes.append((index, nil))
                } else if let inner = withoutWriteOnly(member.value, property, depth: depth + 1) {
                    changes.append((index, inner))
                }
            }
            guard !changes.isEmpty else { return nil }
            var result = DocumentObject()
            var next = 0
            for (index, member) in object.members.enumerated() {
                guard next < changes.count, changes[next].index == index else {
                    _ = result.append(member)
                    continue
                }
                if let replaced = changes[next].value {
                    _ = result.append(.init(key: member.key, keyOffset: member.keyOffset, value: replaced))
                }
                next += 1
            }
            return DocumentNode(.object(result), at: value.offset)
        case .array(let elements):
            guard let items = schema.lookup.items else { return nil }
            var changed = false
            let shown = elements.map { element in
                guard let inner = withoutWriteOnly(element, items, depth: depth + 1) else { return element }
                changed = true
                return inner
            }
            return changed ? DocumentNode(.array(shown), at: value.offset) : nil
        default:
            return nil
        }
    }

    /// The answer for one item: the item, or the wrapper `schema` declares with the item as its
    /// `member` and its other members generated.
    package static func answer(
        item: DocumentNode, itemSchema: Schema, response schema: Schema, shape: ResourceMap.Shape
    )
        -> DocumentNode
    {
        let shownItem = shown(item, as: itemSchema)
        if shape == .alone { return DocumentNode(.array([shownItem]), at: 0) }
        guard case .wrapped(let member) = shape else { return shownItem }
        return wrapper(schema, member: member, value: shownItem, totals: [], count: 0)
    }

    /// The answer for a page of items: the array, or the wrapper `schema` declares with the array
    /// as its `member`, its `totals` holding `count` (the items that match, on every page), and its
    /// other members generated.
    package static func answer(
        page items: [DocumentNode], itemSchema: Schema, response schema: Schema, shape: ResourceMap.Shape,
        totals: [[String]], count: Int
    ) -> DocumentNode {
        let array = DocumentNode(.array(items.map { shown($0, as: itemSchema) }), at: 0)
        guard case .wrapped(let member) = shape else { return array }
        return wrapper(schema, member: member, value: array, totals: totals, count: count)
    }

    /// A generated value of `schema` with `member` set to `value` and each total set to `count`.
    private static func wrapper(
        _ schema: Schema, member: String, value: DocumentNode, totals: [[String]], count: Int
    ) -> DocumentNode {
        let generated = (try? SchemaGenerator.value(for: schema, direction: .response)) ?? DocumentNode(.null, at: 0)
        guard case .object(var object) = generated.value else {
            var only = DocumentObject()
            _ = only.append(.init(key: member, keyOffset: 0, value: value))
            return DocumentNode(.object(only), at: 0)
        }
        set(member, to: value, in: &object)
        for path in totals {
            set(path, to: DocumentNode(.int(count), at: 0), in: &object)
        }
        return DocumentNode(.object(object), at: 0)
    }

    /// `value` walked with `schema`, the missing required and `readOnly` members generated (the
    /// objects it holds completed the same way).
    private static func walk(_ value: DocumentNode, _ schema: Schema, depth: Int) -> DocumentNode {
        guard depth < maximumDepth else { return value }
        let lookup = schema.lookup
        switch value.value {
        case .object(let object):
            var result = DocumentObject()
            for member in object.members {
                let kept =
                    lookup.declaredProperty(member.key).map { walk(member.value, $0, depth: depth + 1) } ?? member.value
                _ = result.append(.init(key: member.key, keyOffset: member.keyOffset, value: kept))
            }
            let required = Set(lookup.required)
            for (name, property) in lookup.properties where result[name] == nil && !property.writeOnly {
                guard required.contains(name) || property.readOnly,
                    let made = try? SchemaGenerator.value(for: property, direction: .response)
                else { continue }
                _ = result.append(.init(key: name, keyOffset: 0, value: made))
            }
            return DocumentNode(.object(result), at: value.offset)
        case .array(let elements):
            guard let items = lookup.items else { return value }
            return DocumentNode(.array(elements.map { walk($0, items, depth: depth + 1) }), at: value.offset)
        default:
            return value
        }
    }

    /// Sets `key` to `value` in `object`, in its place when it is there, else last.
    static func set(_ key: String, to value: DocumentNode, in object: inout DocumentObject) {
        var updated = DocumentObject()
        var placed = false
        for member in object.members {
            if member.key == key {
                _ = updated.append(.init(key: key, keyOffset: member.keyOffset, value: value))
                placed = true
            } else {
                _ = updated.append(member)
            }
        }
        if !placed { _ = updated.append(.init(key: key, keyOffset: 0, value: value)) }
        object = updated
    }

    /// Sets the member at `path` (`["meta", "total"]`) to `value`, making the objects on the way.
    private static func set(_ path: [String], to value: DocumentNode, in object: inout DocumentObject) {
        guard let first = path.first else { return }
        guard path.count > 1 else { return set(first, to: value, in: &object) }
        var inner = object[first]?.object ?? DocumentObject()
        set(Array(path.dropFirst()), to: value, in: &inner)
        set(first, to: DocumentNode(.object(inner), at: 0), in: &object)
    }
}
