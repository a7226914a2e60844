/// OverlappingFieldsCanBeMerged: fields a selection gathers under one response key (through
/// inline fragments and fragment spreads too) must be the same field with the same arguments,
/// unless their parents are different object types, and must answer types that merge.
///
/// graphql-js's algorithm: each selection set's fields are gathered once (fragments named, not
/// expanded), fragments are compared with fields and with each other at most once per pair, and
/// sub-selections are compared as deep as the document nests, to a bound that also ends a
/// comparison fragment cycles would keep going.
struct OverlappingFieldsRule {
    /// How deep sub-selections are compared: as deep as fits the smallest thread stack the
    /// library runs on, in a debug build too (measured: about 9 KiB a level there; 60 levels
    /// overflowed 512 KiB). Fields that differ only deeper than this aren't found to conflict;
    /// queries rarely nest half as deep.
    static let maximumDepth = 24

    struct Entry {
        var parent: GraphQLNamedType?
        var field: GraphQLField
        var definition: GraphQLFieldType?
    }

    /// Fields by response key, in the order the keys first appear.
    struct FieldMap {
        /// The selection set's key (``OverlappingFieldsRule/key(of:)``): a fragment's map and its
        /// definition's are the same one, never compared with itself.
        var id = ""
        var keys: [String] = []
        var fields: [String: [Entry]] = [:]

        mutating func add(_ entry: Entry) {
            let key = entry.field.responseKey
            if fields[key] == nil { keys.append(key) }
            fields[key, default: []].append(entry)
        }
    }

    indirect enum Reason {
        case message(String)
        case subfields([(key: String, reason: Reason)])

        var text: String {
            switch self {
            case .message(let text): text
            case .subfields(let reasons):
                reasons.map { "subfields \"\($0.key)\" conflict because \($0.reason.text)" }.joined(separator: " and ")
            }
        }
    }

    struct Conflict {
        var key: String
        var reason: Reason
        var fields1: [GraphQLField]
        var fields2: [GraphQLField]
    }

    let schema: GraphQLSchema
    let fragments: [String: GraphQLFragment]
    /// Each selection set's gathered fields and fragment names, by where it starts (a fragment's
    /// by its name).
    private var gathered: [String: (FieldMap, [String])] = [:]
    /// The fragment pairs compared already, and whether as mutually exclusive.
    private var comparedPairs: [String: Bool] = [:]

    init(schema: GraphQLSchema, fragments: [String: GraphQLFragment]) {
        self.schema = schema
        self.fragments = fragments
    }

    static func check(_ context: inout ValidationContext) {
        var rule = OverlappingFieldsRule(schema: context.schema, fragments: context.fragments)
        var sets: [(parent: GraphQLNamedType?, selections: [GraphQLSelection])] = []
        for definition in context.document.definitions {
            switch definition {
            case .operation(let operation):
                sets.append((context.schema.rootType(for: operation.kind), operation.selections))
            case .fragment(let fragment):
                sets.append((context.compositeType(fragment.typeCondition.value), fragment.selections))
            default: break
            }
        }
        for use in context.fieldUses where !use.field.selections.isEmpty {
            sets.append(
                (use.definition.flatMap { context.compositeType($0.type.namedType.value) }, use.field.selections))
        }
        for use in context.inlineFragments {
            sets.append(
                (
                    use.fragment.typeCondition.map { context.compositeType($0.value) } ?? use.parent,
                    use.fragment.selections
                ))
        }
        sets.sort { ($0.selections.first?.offset ?? 0) < ($1.selections.first?.offset ?? 0) }
        for (parent, selections) in sets {
            for conflict in rule.conflictsWithin(selections, parent: parent) {
                context.report(
                    "Fields \"\(conflict.key)\" conflict because \(conflict.reason.text). Use different aliases on the "
                        + "fields to fetch both if this was intentional.",
                    at: (conflict.fields1 + conflict.fields2).map(\.offset))
            }
        }
    }

    // MARK: Gathering

    private mutating func fieldsAndFragments(
        _ selections: [GraphQLSelection], parent: GraphQLNamedType?, key: String
    ) -> (FieldMap, [String]) {
        if let known = gathered[key] { return known }
        var map = FieldMap(id: key)
        var names: [String] = []
        var pending: [([GraphQLSelection], GraphQLNamedType?)] = [(selections, parent)]
        var index = 0
        while index < pending.count {
            let (current, currentParent) = pending[index]
            index += 1
            for selection in current {
                switch selection {
                case .field(let field):
                    let definition = currentParent.flatMap { type in
                        type.kind == .object || type.kind == .interface ? type.field(field.name.value) : nil
                    }
                    map.add(Entry(parent: currentParent, field: field, definition: definition))
                case .fragmentSpread(let spread):
                    if !names.contains(spread.name.value) { names.append(spread.name.value) }
                case .inlineFragment(let fragment):
                    let inner = fragment.typeCondition.map { schema.types[$0.value] } ?? currentParent
                    pending.append((fragment.selections, inner))
                }
            }
        }
        gathered[key] = (map, names)
        return (map, names)
    }

    private mutating func fragmentFields(_ name: String) -> (FieldMap, [String])? {
        guard let fragment = fragments[name] else { return nil }
        return fieldsAndFragments(
            fragment.selections, parent: schema.types[fragment.typeCondition.value],
            key: Self.key(of: fragment.selections))
    }

    private static func key(of selections: [GraphQLSelection]) -> String {
        "at \(selections.first?.offset ?? -1)"
    }

    // MARK: Comparing

    mutating func conflictsWithin(_ selections: [GraphQLSelection], parent: GraphQLNamedType?) -> [Conflict] {
        var conflicts: [Conflict] = []
        let (map, names) = fieldsAndFragments(selections, parent: parent, key: Self.key(of: selections))
        for key in map.keys {
            let entries = map.fields[key] ?? []
            for first in entries.indices {
                for second in entries.indices where second > first {
                    if let conflict = findConflict(false, key, entries[first], entries[second], depth: 0) {
                        conflicts.append(conflict)
                    }
                }
            }
        }
        for (index, name) in names.enumerated() {
            compare(map, withFragment: name, exclusive: false, depth: 0, into: &conflicts)
            for other in names[(index + 1)...] {
                compareFragments(name, other, exclusive: false, depth: 0, into: &conflicts)
            }
        }
        return conflicts
    }

    /// Compares `map` with a fragment's fields and those of the fragments it spreads, each once.
    private mutating func compare(
        _ map: FieldMap, withFragment name: String, exclusive: Bool, depth: Int, into conflicts: inout [Conflict]
    ) {
        var seen: Set<String> = [name]
        var pending = [name]
        while let current = pending.popLast() {
            // A fragment's fields aren't compared with themselves (a fragment that spreads itself).
            guard let (other, referenced) = fragmentFields(current), other.id != map.id else { continue }
            conflicts += between(map, other, exclusive: exclusive, depth: depth)
            // Depth first, in the order they are spread, as graphql-js compares them.
            for next in referenced.reversed() where seen.insert(next).inserted { pending.append(next) }
        }
    }

    /// Compares two fragments' fields, and the fragments each spreads with the other, each pair
    /// once (as exclusive or not).
    private mutating func compareFragments(
        _ first: String, _ second: String, exclusive: Bool, depth: Int, into conflicts: inout [Conflict]
    ) {
        var pending = [(first, second)]
        while let (name1, name2) = pending.popLast() {
            guard name1 != name2 else { continue }
            let pair = name1 < name2 ? "\(name1)|\(name2)" : "\(name2)|\(name1)"
            // Compared as not exclusive covers both; as exclusive, only another exclusive one.
            if let stored = comparedPairs[pair], exclusive || !stored { continue }
            comparedPairs[pair] = exclusive
            guard let (map1, referenced1) = fragmentFields(name1), let (map2, referenced2) = fragmentFields(name2)
            else {
                continue
            }
            conflicts += between(map1, map2, exclusive: exclusive, depth: depth)
            // Depth first, as graphql-js compares them: the first with each the second spreads,
            // then each the first spreads with the second.
            for next in referenced1.reversed() { pending.append((next, name2)) }
            for next in referenced2.reversed() { pending.append((name1, next)) }
        }
    }

    private mutating func between(_ map1: FieldMap, _ map2: FieldMap, exclusive: Bool, depth: Int) -> [Conflict] {
        var conflicts: [Conflict] = []
        for key in map1.keys {
            guard let entries2 = map2.fields[key] else { continue }
            for entry1 in map1.fields[key] ?? [] {
                for entry2 in entries2 {
                    if let conflict = findConflict(exclusive, key, entry1, entry2, depth: depth) {
                        conflicts.append(conflict)
                    }
                }
            }
        }
        return conflicts
    }

    private mutating func findConflict(
        _ parentsExclusive: Bool, _ key: String, _ entry1: Entry, _ entry2: Entry, depth: Int
    ) -> Conflict? {
        let (field1, field2) = (entry1.field, entry2.field)
        let exclusive =
            parentsExclusive
            || (entry1.parent?.name != entry2.parent?.name && entry1.parent?.kind == .object
                && entry2.parent?.kind == .object)
        if !exclusive {
            if field1.name.value != field2.name.value {
                return Conflict(
                    key: key,
                    reason: .message("\"\(field1.name.value)\" and \"\(field2.name.value)\" are different fields"),
                    fields1: [field1], fields2: [field2])
            }
            if !Self.sameArguments(field1.arguments, field2.arguments) {
                return Conflict(
                    key: key, reason: .message("they have differing arguments"), fields1: [field1], fields2: [field2])
            }
        }
        let (type1, type2) = (entry1.definition?.type, entry2.definition?.type)
        if let type1, let type2, typesConflict(type1, type2) {
            return Conflict(
                key: key, reason: .message("they return conflicting types \"\(type1)\" and \"\(type2)\""),
                fields1: [field1], fields2: [field2])
        }
        guard !field1.selections.isEmpty, !field2.selections.isEmpty, depth < Self.maximumDepth else { return nil }
        let parent1 = type1.flatMap { schema.types[$0.namedType.value] }
        let parent2 = type2.flatMap { schema.types[$0.namedType.value] }
        let (map1, names1) = fieldsAndFragments(
            field1.selections, parent: parent1, key: Self.key(of: field1.selections))
        let (map2, names2) = fieldsAndFragments(
            field2.selections, parent: parent2, key: Self.key(of: field2.selections))
        var conflicts = between(map1, map2, exclusive: exclusive, depth: depth + 1)
        for name in names2 {
            compare(map1, withFragment: name, exclusive: exclusive, depth: depth + 1, into: &conflicts)
        }
        for name in names1 {
            compare(map2, withFragment: name, exclusive: exclusive, depth: depth + 1, into: &conflicts)
        }
        for name1 in names1 {
            for name2 in names2 {
                compareFragments(name1, name2, exclusive: exclusive, depth: depth + 1, into: &conflicts)
            }
        }
        guard !conflicts.isEmpty else { return nil }
        return Conflict(
            key: key, reason: .subfields(conflicts.map { ($0.key, $0.reason) }),
            fields1: [field1] + conflicts.flatMap(\.fields1), fields2: [field2] + conflicts.flatMap(\.fields2))
    }

    /// Two types a response can't merge: a list and not a list, non-null and nullable, or two
    /// different leaf types. Objects merge by their subfields.
    private func typesConflict(_ type1: GraphQLTypeReference, _ type2: GraphQLTypeReference) -> Bool {
        switch (type1, type2) {
        case (.list(let inner1), .list(let inner2)), (.nonNull(let inner1), .nonNull(let inner2)):
            return typesConflict(inner1, inner2)
        case (.list, _), (_, .list), (.nonNull, _), (_, .nonNull):
            return true
        case (.named(let name1), .named(let name2)):
            let isLeaf = { (name: GraphQLName) in schema.types[name.value]?.kind.isLeaf ?? false }
            return (isLeaf(name1) || isLeaf(name2)) && name1.value != name2.value
        }
    }

    private static func sameArguments(_ first: [GraphQLArgument], _ second: [GraphQLArgument]) -> Bool {
        guard first.count == second.count else { return false }
        return first.allSatisfy { argument in
            second.contains {
                $0.name.value == argument.name.value
                    && GraphQLPrinter.value($0.value, sorted: true)
                        == GraphQLPrinter.value(argument.value, sorted: true)
            }
        }
    }
}
