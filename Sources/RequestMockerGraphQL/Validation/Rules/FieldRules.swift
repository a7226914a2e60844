/// The rules about the fields a document selects and the arguments it gives them.
enum FieldRules {
    /// A leaf field has no selection; a field of an object, interface or union has one.
    static func scalarLeafs(_ context: inout ValidationContext) {
        for use in context.fieldUses {
            guard let definition = use.definition, let type = context.schema.types[definition.type.namedType.value]
            else { continue }
            let name = use.field.name.value
            if type.kind.isLeaf, !use.field.selections.isEmpty {
                context.report(
                    "Field \"\(name)\" must not have a selection since type \"\(definition.type)\" has no subfields.",
                    at: [use.field.selectionSetOffset ?? use.field.offset])
            } else if !type.kind.isLeaf, use.field.selections.isEmpty {
                context.report(
                    "Field \"\(name)\" of type \"\(definition.type)\" must have a selection of subfields. Did you "
                        + "mean \"\(name) { ... }\"?",
                    at: [use.field.offset])
            }
        }
    }

    static func fieldsOnCorrectType(_ context: inout ValidationContext) {
        for use in context.fieldUses where use.definition == nil {
            guard let parent = use.parent else { continue }
            let name = use.field.name.value
            // As graphql-js does: first the types that have the field (for an abstract type),
            // else the fields of this type with a near name.
            var hint = didYouMean(
                suggestedTypes(having: name, on: parent, in: context.schema), subject: "to use an inline fragment on")
            if hint.isEmpty { hint = didYouMean(suggestions(for: name, among: parent.fields.map(\.name))) }
            context.report("Cannot query field \"\(name)\" on type \"\(parent.name)\".\(hint)", at: [use.field.offset])
        }
    }

    /// The types of an abstract `parent` that have the field `name`, as graphql-js suggests them:
    /// the object types with it and their interfaces with it, those more of them implement
    /// first, an interface before the types that implement it, then by name.
    static func suggestedTypes(having name: String, on parent: GraphQLNamedType, in schema: GraphQLSchema) -> [String] {
        guard parent.kind.isAbstract else { return [] }
        var suggested: [String] = []
        var usage: [String: Int] = [:]
        for possible in schema.possibleTypes[parent.name] ?? [] {
            guard let type = schema.types[possible], type.field(name) != nil else { continue }
            if usage[possible] == nil { suggested.append(possible) }
            usage[possible] = 1
            for interface in type.interfaces where schema.types[interface]?.field(name) != nil {
                if usage[interface] == nil { suggested.append(interface) }
                usage[interface, default: 0] += 1
            }
        }
        /// Whether `sub` is `interface`'s subtype: an object or interface that implements it.
        func implements(_ sub: String, _ interface: String) -> Bool {
            schema.types[interface]?.kind == .interface
                && (schema.isPossibleType(sub, of: interface)
                    || schema.implementingInterfaces[interface]?.contains(sub) == true)
        }
        return suggested.sorted { a, b in
            let (countA, countB) = (usage[a] ?? 0, usage[b] ?? 0)
            if countA != countB { return countA > countB }
            if implements(b, a) { return true }
            if implements(a, b) { return false }
            return naturallyBefore(a, b)
        }
    }

    /// graphql-js's `naturalCompare`: runs of digits compare as numbers, the rest by code unit.
    static func naturallyBefore(_ a: String, _ b: String) -> Bool {
        let (first, second) = (Array(a.utf16), Array(b.utf16))
        var (i, j) = (0, 0)
        func isDigit(_ unit: UInt16) -> Bool { (48...57).contains(unit) }
        while i < first.count, j < second.count {
            if isDigit(first[i]), isDigit(second[j]) {
                let (startI, startJ) = (i, j)
                while i < first.count, isDigit(first[i]) { i += 1 }
                while j < second.count, isDigit(second[j]) { j += 1 }
                let numberA = String(decoding: first[startI..<i], as: UTF16.self)
                let numberB = String(decoding: second[startJ..<j], as: UTF16.self)
                let (trimmedA, trimmedB) = (numberA.drop { $0 == "0" }, numberB.drop { $0 == "0" })
                if trimmedA.count != trimmedB.count { return trimmedA.count < trimmedB.count }
                if trimmedA != trimmedB { return trimmedA < trimmedB }
            } else {
                if first[i] != second[j] { return first[i] < second[j] }
                i += 1
                j += 1
            }
        }
        return first.count < second.count
    }

    static func knownArgumentNames(_ context: inout ValidationContext) {
        for use in context.fieldUses {
            guard let definition = use.definition, let parent = use.parent else { continue }
            for argument in use.field.arguments where definition.argument(argument.name.value) == nil {
                context.report(
                    "Unknown argument \"\(argument.name.value)\" on field \"\(parent.name).\(definition.name)\"."
                        + didYouMean(suggestions(for: argument.name.value, among: definition.arguments.map(\.name))),
                    at: [argument.name.offset])
            }
        }
        for (directives, _, _) in context.directiveLists {
            for directive in directives {
                guard let known = context.schema.directives[directive.name.value] else { continue }
                for argument in directive.arguments
                where !known.arguments.contains(where: { $0.name == argument.name.value }) {
                    context.report(
                        "Unknown argument \"\(argument.name.value)\" on directive \"@\(known.name)\"."
                            + didYouMean(suggestions(for: argument.name.value, among: known.arguments.map(\.name))),
                        at: [argument.name.offset])
                }
            }
        }
    }

    /// Every argument of a non-null type without a default is given.
    static func providedRequiredArguments(_ context: inout ValidationContext) {
        for use in context.fieldUses {
            guard let definition = use.definition else { continue }
            for argument in definition.arguments where argument.type.isNonNull && argument.defaultValue == nil {
                guard !use.field.arguments.contains(where: { $0.name.value == argument.name }) else { continue }
                context.report(
                    "Field \"\(definition.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is "
                        + "required, but it was not provided.",
                    at: [use.field.offset])
            }
        }
        for (directives, _, _) in context.directiveLists {
            for directive in directives {
                guard let known = context.schema.directives[directive.name.value] else { continue }
                for argument in known.arguments where argument.type.isNonNull && argument.defaultValue == nil {
                    guard !directive.arguments.contains(where: { $0.name.value == argument.name }) else { continue }
                    context.report(
                        "Directive \"@\(known.name)\" argument \"\(argument.name)\" of type \"\(argument.type)\" is "
                            + "required, but it was not provided.",
                        at: [directive.offset])
                }
            }
        }
    }
}
