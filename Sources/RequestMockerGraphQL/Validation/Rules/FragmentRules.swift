/// The rules about where fragments are spread, and what a subscription selects.
enum FragmentRules {
    /// The object types a value of `type` may be: itself for an object, the possible types of
    /// an interface or a union.
    static func possibleObjects(_ type: GraphQLNamedType, in schema: GraphQLSchema) -> Set<String> {
        type.kind == .object ? [type.name] : Set(schema.possibleTypes[type.name] ?? [])
    }

    /// A fragment is spread only where a value could be of its type.
    static func possibleFragmentSpreads(_ context: inout ValidationContext) {
        var cases: [(offset: Int, parent: GraphQLNamedType, condition: GraphQLNamedType, fragment: String?)] = []
        for use in context.inlineFragments {
            guard let parent = use.parent, let name = use.fragment.typeCondition?.value,
                let condition = context.compositeType(name)
            else { continue }
            cases.append((use.fragment.offset, parent, condition, nil))
        }
        for use in context.spreads {
            guard let parent = use.parent, let fragment = context.fragments[use.spread.name.value],
                let condition = context.compositeType(fragment.typeCondition.value)
            else { continue }
            cases.append((use.spread.offset, parent, condition, use.spread.name.value))
        }
        for (offset, parent, condition, fragment) in cases.sorted(by: { $0.offset < $1.offset }) {
            let overlap = !possibleObjects(parent, in: context.schema)
                .isDisjoint(with: possibleObjects(condition, in: context.schema))
            guard !overlap else { continue }
            let subject = fragment.map { "Fragment \"\($0)\"" } ?? "Fragment"
            context.report(
                "\(subject) cannot be spread here as objects of type \"\(parent.name)\" can never be of type "
                    + "\"\(condition.name)\".",
                at: [offset])
        }
    }

    /// A subscription selects one root field, and not an introspection one: its fields are
    /// collected through its fragments (each once, so a cycle ends), as execution would.
    static func singleFieldSubscriptions(_ context: inout ValidationContext) {
        // Without a subscription type there is nothing to check (graphql-js skips it too).
        guard context.schema.subscriptionType != nil else { return }
        for operation in context.document.operations where operation.kind == .subscription {
            var keys: [(key: String, field: GraphQLField)] = []
            var pending: [[GraphQLSelection]] = [operation.selections]
            var spread = Set<String>()
            while let selections = pending.popLast() {
                for selection in selections.reversed() {
                    switch selection {
                    case .field(let field):
                        if !keys.contains(where: { $0.key == field.responseKey }) {
                            keys.append((field.responseKey, field))
                        }
                    case .inlineFragment(let fragment):
                        pending.append(fragment.selections)
                    case .fragmentSpread(let use):
                        guard spread.insert(use.name.value).inserted, let fragment = context.fragments[use.name.value]
                        else { continue }
                        pending.append(fragment.selections)
                    }
                }
            }
            keys.sort { $0.field.offset < $1.field.offset }
            let subject = operation.name.map { "Subscription \"\($0.value)\"" } ?? "Anonymous Subscription"
            if keys.count > 1 {
                context.report(
                    "\(subject) must select only one top level field.", at: keys.dropFirst().map { $0.field.offset })
            }
            for (_, field) in keys where field.name.value.hasPrefix("__") {
                context.report(
                    "\(subject) must not select an introspection top level field.", at: [field.offset])
            }
        }
    }
}
