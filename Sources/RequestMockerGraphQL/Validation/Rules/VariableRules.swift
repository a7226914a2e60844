/// The rules about an operation's variables: each one used is defined, each one defined is
/// used, counting the fragments the operation spreads, however deep.
enum VariableRules {
    /// Where each fragment is defined (the first of a name): its index among the definitions.
    static func fragmentDefinitions(_ context: ValidationContext) -> [String: Int] {
        var indices: [String: Int] = [:]
        for (index, definition) in context.document.definitions.enumerated() {
            if case .fragment(let fragment) = definition, indices[fragment.name.value] == nil {
                indices[fragment.name.value] = index
            }
        }
        return indices
    }

    /// For each operation (by its index among the definitions), the fragments it reaches.
    static func reachedFragments(_ context: ValidationContext) -> [Int: Set<String>] {
        var spreadsOf: [Int: [String]] = [:]
        let fragmentIndex = fragmentDefinitions(context)
        for use in context.spreads { spreadsOf[use.owner, default: []].append(use.spread.name.value) }
        var reached: [Int: Set<String>] = [:]
        for (index, definition) in context.document.definitions.enumerated() {
            guard case .operation = definition else { continue }
            var seen = Set<String>()
            var pending = spreadsOf[index] ?? []
            while let name = pending.popLast() {
                guard seen.insert(name).inserted, let owner = fragmentIndex[name] else { continue }
                pending += spreadsOf[owner] ?? []
            }
            reached[index] = seen
        }
        return reached
    }

    /// The variable uses of each operation, its fragments' included, in document order.
    static func uses(_ context: ValidationContext) -> [Int: [ValidationContext.VariableUse]] {
        let reached = reachedFragments(context)
        var byOwner: [Int: [ValidationContext.VariableUse]] = [:]
        for use in context.variableUses { byOwner[use.owner, default: []].append(use) }
        let fragmentOwner = fragmentDefinitions(context)
        var result: [Int: [ValidationContext.VariableUse]] = [:]
        for (index, fragments) in reached {
            var all = byOwner[index] ?? []
            for name in fragments { all += fragmentOwner[name].flatMap { byOwner[$0] } ?? [] }
            result[index] = all.sorted { $0.offset < $1.offset }
        }
        return result
    }

    static func noUndefinedVariables(_ context: inout ValidationContext) {
        let allUses = uses(context)
        for (index, definition) in context.document.definitions.enumerated() {
            guard case .operation(let operation) = definition else { continue }
            let defined = Set(operation.variables.map(\.name.value))
            // Every use, as graphql-js reports them: each is a place to fix.
            for use in allUses[index] ?? [] where !defined.contains(use.name) {
                let by = operation.name.map { " by operation \"\($0.value)\"" } ?? ""
                context.report(
                    "Variable \"$\(use.name)\" is not defined\(by): declare it among the operation's variables.",
                    at: [use.offset, operation.offset])
            }
        }
    }

    static func noUnusedVariables(_ context: inout ValidationContext) {
        let allUses = uses(context)
        for (index, definition) in context.document.definitions.enumerated() {
            guard case .operation(let operation) = definition else { continue }
            let used = Set((allUses[index] ?? []).map(\.name))
            for variable in operation.variables where !used.contains(variable.name.value) {
                let operationName = operation.name.map { " in operation \"\($0.value)\"" } ?? ""
                context.report(
                    "Variable \"$\(variable.name.value)\" is never used\(operationName): use it or remove it.",
                    at: [variable.offset])
            }
        }
    }
}

extension VariableRules {
    /// A variable used where a value of a type is expected, and whether that place has a
    /// default of its own.
    struct TypedUse {
        var name: String
        var offset: Int
        var type: GraphQLTypeReference
        var placeHasDefault: Bool
        var owner: Int
        /// The `@oneOf` input object whose field the place is, if it is one.
        var oneOf: String?
    }

    /// Every variable used in an argument whose type is known, with the type expected where it
    /// is, through lists and input objects.
    static func typedUses(_ context: ValidationContext) -> [TypedUse] {
        var found: [TypedUse] = []
        func visit(
            _ value: GraphQLValue, _ type: GraphQLTypeReference, hasDefault: Bool, owner: Int, oneOf: String? = nil
        ) {
            switch value.kind {
            case .variable(let name):
                found.append(
                    TypedUse(
                        name: name, offset: value.offset, type: type, placeHasDefault: hasDefault, owner: owner,
                        oneOf: oneOf))
            case .list(let items):
                let item: GraphQLTypeReference
                if case .list(let inner) = type.nullable { item = inner } else { item = type }
                for element in items { visit(element, item, hasDefault: false, owner: owner) }
            case .object(let fields):
                guard let named = context.schema.types[type.namedType.value], named.kind == .inputObject else { return }
                for field in fields {
                    guard let declared = named.inputField(field.name.value) else { continue }
                    visit(
                        field.value, declared.type, hasDefault: declared.defaultValue != nil, owner: owner,
                        oneOf: named.isOneOf ? named.name : nil)
                }
            default:
                return
            }
        }
        for use in context.fieldUses {
            guard let definition = use.definition else { continue }
            for argument in use.field.arguments {
                guard let declared = definition.argument(argument.name.value) else { continue }
                visit(argument.value, declared.type, hasDefault: declared.defaultValue != nil, owner: use.owner)
            }
        }
        for (directives, _, owner) in context.directiveLists {
            for directive in directives {
                guard let known = context.schema.directives[directive.name.value] else { continue }
                for argument in directive.arguments {
                    guard let declared = known.arguments.first(where: { $0.name == argument.name.value }) else {
                        continue
                    }
                    visit(argument.value, declared.type, hasDefault: declared.defaultValue != nil, owner: owner)
                }
            }
        }
        return found
    }

    /// A variable is used only where its type fits: a nullable one where a non-null value is
    /// expected only if it, or the place, has a default.
    static func variablesInAllowedPosition(_ context: inout ValidationContext) {
        let uses = typedUses(context)
        let reached = reachedFragments(context)
        let fragmentOwner = fragmentDefinitions(context)
        for (index, definition) in context.document.definitions.enumerated() {
            guard case .operation(let operation) = definition else { continue }
            let owners = Set([index] + (reached[index] ?? []).compactMap { fragmentOwner[$0] })
            for use in uses where owners.contains(use.owner) {
                guard let variable = operation.variables.first(where: { $0.name.value == use.name }),
                    let declared = context.schema.types[variable.type.namedType.value], declared.kind.isInput
                else { continue }
                var location = use.type
                if use.type.isNonNull, !variable.type.isNonNull {
                    let nonNullDefault =
                        variable.defaultValue.map { value in
                            if case .null = value.kind { false } else { true }
                        } ?? false
                    guard nonNullDefault || use.placeHasDefault else {
                        report(variable, use, in: &context)
                        continue
                    }
                    location = use.type.nullable
                }
                if !context.schema.isSubtype(variable.type, of: location) { report(variable, use, in: &context) }
                if let oneOf = use.oneOf, !variable.type.isNonNull {
                    context.report(
                        "Variable \"$\(use.name)\" is of type \"\(variable.type)\" but must be non-nullable to be used "
                            + "for OneOf Input Object \"\(oneOf)\".",
                        at: [variable.offset, use.offset])
                }
            }
        }
    }

    private static func report(
        _ variable: GraphQLVariableDefinition, _ use: TypedUse, in context: inout ValidationContext
    ) {
        context.report(
            "Variable \"$\(use.name)\" of type \"\(variable.type)\" used in position expecting type \"\(use.type)\".",
            at: [variable.offset, use.offset])
    }
}
