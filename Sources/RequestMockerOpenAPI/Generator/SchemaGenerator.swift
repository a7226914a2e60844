import RequestMocker

/// Makes a value for a compiled ``Schema``, for a contract that gives no example: the same value
/// every time (static), or one drawn from a seed (dynamic).
///
/// Per schema the first of: its `example` (static only), its `default` (static only), `const`,
/// an `enum` entry, else a value of its type that keeps its constraints: a `pattern`'s example,
/// a `format`'s constant, a number inside its bounds on its `multipleOf`, `max(minItems, 1)`
/// items. `allOf` is merged, its parts' `enum`s and `const`s and bounds all kept; of `oneOf` and
/// `anyOf` the first branch whose value passes the whole schema is taken (the discriminator
/// mapping's first entry first, a `null`-only branch last, branches whose `const` or `enum` the
/// merge excludes skipped), where a value that passes two branches of a `oneOf` loses optional
/// members until it passes one. An optional property whose schema is already being generated is
/// left out, and a required one gets its shortest value, so circular schemas end.
///
/// A body has at most ``maximumNodes`` values, nested at most ``maximumDepth`` levels. One that
/// would have more gets the smallest valid value instead (required properties only, the fewest
/// items), and ``Generated/isMinimal`` says so; every value is checked against the whole schema
/// before it is handed out, so none that breaks it is ever served. When neither fits, generation
/// fails with the schema where it stopped.
package struct SchemaGenerator {
    /// Why no value was made: where, and what the user can do.
    package struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The schema where generation stopped (`#/components/schemas/Tree`).
        package let pointer: String
        package let reason: String

        package var description: String { "\(pointer): \(reason)" }

        /// Whether the value would pass the bounds on its size (as opposed to no value passing
        /// the schema at all): trying other branches can't help, a smaller value may.
        var isOverBudget: Bool { reason.hasPrefix("schema too complex") }
    }

    /// A value made for a schema, and whether it is the smallest valid one, made because the
    /// full value passes the bounds on a body's size.
    package struct Generated: Sendable {
        package let value: DocumentNode
        package let isMinimal: Bool
    }

    /// How many values one body has at most.
    package static let maximumNodes = 2_500
    /// How deeply a generated value nests (a debug build's recursion takes a few KiB per level;
    /// a server connection's thread has 512 KiB).
    package static let maximumDepth = 48
    /// How many times a body tries another `oneOf` or `anyOf` branch, in all.
    static let maximumRetries = 64
    /// Below this depth a dynamic body has only required properties.
    static let dynamicDepth = 8

    let direction: SchemaValidator.Direction
    var random: SeededRandom?
    var nodes = 0
    private var retries = 0
    /// The schemas whose values are being made, outermost first.
    var active: [ObjectIdentifier] = []
    /// The branches last chosen for a schema with `oneOf`/`anyOf` whose value passed, tried
    /// first the next time it is met (the items of an array, a schema used in many places).
    /// The schema is held too, so its address can't be reused by another while it is here.
    private var chosen: [ObjectIdentifier: (schema: Schema, choice: [Int])] = [:]

    /// A value for `schema`, sent in `direction` (`readOnly` properties are left out of
    /// requests, `writeOnly` ones out of responses); drawn from `seed` when there is one.
    package static func value(
        for schema: Schema, direction: SchemaValidator.Direction, seed: UInt64? = nil
    ) throws(Failure) -> DocumentNode {
        try generated(for: schema, direction: direction, seed: seed).value
    }

    /// A value for `schema` as ``value(for:direction:seed:)`` makes it, and whether it is the
    /// smallest one (made because the full value passes the bounds on a body's size).
    package static func generated(
        for schema: Schema, direction: SchemaValidator.Direction, seed: UInt64? = nil
    ) throws(Failure) -> Generated {
        var full = SchemaGenerator(direction: direction, random: seed.map(SeededRandom.init(seed:)))
        let failure: Failure
        do {
            let value = try full.generate(schema, depth: 0, minimal: false, variant: 0)
            guard
                let violation = SchemaValidator.violations(of: value.jsonValue, against: schema, direction: direction)
                    .first
            else { return Generated(value: value, isMinimal: false) }
            failure = Failure(
                pointer: schema.pointer,
                reason: "no value made for the schema passes it (\(violation)); give the response an example")
        } catch {
            failure = error
        }
        var smallest = SchemaGenerator(direction: direction, random: seed.map(SeededRandom.init(seed:)))
        guard let value = try? smallest.generate(schema, depth: 0, minimal: true, variant: 0),
            SchemaValidator.violations(of: value.jsonValue, against: schema, direction: direction).isEmpty
        else { throw failure }
        return Generated(value: value, isMinimal: true)
    }

    /// A value for `schema`; `minimal` asks for its shortest (only required properties, the
    /// fewest items, `null` where allowed), `variant` for a value that differs from the first
    /// (the items of a `uniqueItems` array).
    mutating func generate(_ schema: Schema, depth: Int, minimal: Bool, variant: Int) throws(Failure) -> DocumentNode {
        nodes += 1
        guard nodes <= Self.maximumNodes else {
            throw Failure(
                pointer: schema.pointer,
                reason: "schema too complex: a body would have more than \(Self.maximumNodes) values; "
                    + "give the response an example")
        }
        guard depth <= Self.maximumDepth else {
            throw Failure(
                pointer: schema.pointer,
                reason: "schema too complex: values nest deeper than \(Self.maximumDepth) levels; "
                    + "give the response an example")
        }
        if minimal, schema.acceptsNull { return DocumentNode(.null, at: 0) }
        if random == nil, let written = schema.exampleIsValid ? schema.exampleNode : nil { return written }
        if random == nil, let written = schema.defaultIsValid ? schema.defaultNode : nil { return written }
        let merged = try Merged(schema)
        if let conflict = merged.conflict {
            throw Failure(pointer: schema.pointer, reason: "no value satisfies the schema: \(conflict)")
        }
        let mark = active.count
        active.append(contentsOf: merged.parts)
        defer { active.removeLast(active.count - mark) }
        if random == nil {
            // A part's example (the schema a `$ref` with siblings names) where it suits the whole.
            for example in merged.examples where passes(example, schema) { return example }
        }
        let value =
            merged.groups.isEmpty
            ? try make(merged.view, depth: depth, minimal: minimal, variant: variant)
            : try alternative(of: schema, merged, depth: depth, minimal: minimal, variant: variant)
        return avoiding(merged.nots, in: value, required: merged.view.required)
    }

    /// `value` without the optional properties, last first, that make it match a `not` (a
    /// contract's "not both of these" is a `not` of a `required` pair).
    private func avoiding(_ nots: [Schema], in value: DocumentNode, required: [String]) -> DocumentNode {
        guard !nots.isEmpty, case .object(var object) = value.value else { return value }
        func matchesOne() -> Bool {
            nots.contains {
                SchemaValidator.violations(
                    of: DocumentNode(.object(object), at: 0).jsonValue, against: $0, direction: direction
                ).isEmpty
            }
        }
        while matchesOne(), let last = object.members.lastIndex(where: { !required.contains($0.key) }) {
            var kept = DocumentObject()
            for (index, member) in object.members.enumerated() where index != last { _ = kept.append(member) }
            object = kept
        }
        return DocumentNode(.object(object), at: 0)
    }

    private func passes(_ value: DocumentNode, _ schema: Schema) -> Bool {
        SchemaValidator.violations(of: value.jsonValue, against: schema, direction: direction).isEmpty
    }

    /// The value of the first choice of branches, one per `oneOf`/`anyOf`, whose value passes
    /// `schema`: the choice that passed for this schema before, then the preferred one, then
    /// each other branch of one group at a time, skipping branches the merge excludes; each
    /// full, then without the optional members that make it match a second branch of a `oneOf`,
    /// then at its smallest. Fails when none passes: a value that breaks its schema is never
    /// handed out.
    private mutating func alternative(
        of schema: Schema, _ merged: Merged, depth: Int, minimal: Bool, variant: Int
    ) throws(Failure) -> DocumentNode {
        let orders = merged.groups.map { group in
            let admitted = group.preferredOrder.filter { merged.admits(group.branches[$0]) }
            return admitted.isEmpty ? group.preferredOrder : admitted
        }
        let preferred = orders.map { $0[0] }
        var choices = [preferred]
        if let known = chosen[ObjectIdentifier(schema)], known.schema === schema, known.choice != preferred,
            known.choice.count == orders.count,
            zip(known.choice, merged.groups).allSatisfy({ $1.branches.indices.contains($0) })
        {
            choices.insert(known.choice, at: 0)
        }
        for (group, order) in orders.enumerated() {
            for branch in order.dropFirst() {
                var choice = preferred
                choice[group] = branch
                if !choices.contains(choice) { choices.append(choice) }
            }
        }
        let spent = nodes
        var firstFailure: Failure?
        var tried = 0
        for smallest in minimal ? [true] : [false, true] {
            for choice in choices {
                guard tried == 0 || retries < Self.maximumRetries else { break }
                if tried > 0 { retries += 1 }
                tried += 1
                nodes = spent
                do {
                    let value = try make(merged, choosing: choice, depth: depth, minimal: smallest, variant: variant)
                    if let passing = passing(value, schema, keeping: required(of: merged, choice)) {
                        chosen[ObjectIdentifier(schema)] = (schema, choice)
                        return passing
                    }
                } catch  where error.isOverBudget && !smallest {
                    // A smaller value may fit where no other branch of the full size would.
                    firstFailure = firstFailure ?? error
                    break
                } catch {
                    firstFailure = firstFailure ?? error
                }
            }
        }
        throw firstFailure
            ?? Failure(
                pointer: schema.pointer,
                reason: "no branch of its \(merged.groups.count == 1 ? "oneOf or anyOf" : "oneOfs and anyOfs") gives "
                    + "a value that passes the whole schema (\(tried) tried); give the response an example")
    }

    /// `value` if it passes `schema`; else, for an object, the value without the optional
    /// members, last first, that keep it from passing (a member two `oneOf` branches both
    /// declare, that makes a value match both); `nil` when none passes.
    private func passing(_ value: DocumentNode, _ schema: Schema, keeping required: Set<String>) -> DocumentNode? {
        if passes(value, schema) { return value }
        guard case .object(var object) = value.value else { return nil }
        while let last = object.members.lastIndex(where: { !required.contains($0.key) }) {
            var kept = DocumentObject()
            for (index, member) in object.members.enumerated() where index != last { _ = kept.append(member) }
            object = kept
            let trimmed = DocumentNode(.object(object), at: 0)
            if passes(trimmed, schema) { return trimmed }
        }
        return nil
    }

    /// The members a value of `merged` with the branches `choice` must have.
    private func required(of merged: Merged, _ choice: [Int]) -> Set<String> {
        var names = Set(merged.view.required)
        for (group, index) in zip(merged.groups, choice) {
            names.formUnion(group.branches[index].lookup.required)
            if let property = group.discriminator?.property { names.insert(property) }
        }
        return names
    }

    /// The value of `merged` with one branch of each of its groups: the branches merged into it,
    /// the discriminator set to the name that selects the branch.
    private mutating func make(
        _ merged: Merged, choosing choice: [Int], depth: Int, minimal: Bool, variant: Int
    ) throws(Failure) -> DocumentNode {
        let combined = Schema(source: merged.view.source, pointer: merged.view.pointer)
        combined.allOf = [merged.view] + zip(merged.groups, choice).map { $0.branches[$1] }
        var value = try generate(combined, depth: depth + 1, minimal: minimal, variant: variant)
        for (group, index) in zip(merged.groups, choice) {
            guard let property = group.discriminator?.property, case .object(let object) = value.value else { continue }
            let branch = group.branches[index]
            let named = group.discriminator.flatMap { found in found.order.first { found.mapping[$0] === branch } }
            // The mapping's key, else the branch's own name where it has one (the implicit mapping).
            guard let chosen = named ?? (object[property]?.string == nil && branch.isDeclaredByName ? branch.name : nil)
            else { continue }
            // The name goes where the property is, or last.
            let name = DocumentObject.Member(
                key: property, keyOffset: 0, value: DocumentNode(.string(chosen), at: 0))
            var updated = DocumentObject()
            for member in object.members { _ = updated.append(member.key == property ? name : member) }
            _ = updated.append(name)
            value = DocumentNode(.object(updated), at: 0)
        }
        return value
    }
}

extension Schema {
    /// The last step of where the schema is declared (`Cat` for `#/components/schemas/Cat`), as
    /// an implicit discriminator mapping names it.
    var name: String {
        let last = pointer.split(separator: "/").last.map(String.init) ?? ""
        guard pointer != "#", !last.isEmpty else { return source.deletingPathExtension().lastPathComponent }
        return (last.removingPercentEncoding ?? last).replacingOccurrences(of: "~1", with: "/")
            .replacingOccurrences(of: "~0", with: "~")
    }
}
