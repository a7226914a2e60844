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
            var hint = ""
            if parent.kind.isAbstract {
                let types = (context.schema.possibleTypes[parent.name] ?? []).filter {
                    context.schema.types[$0]?.field(name) != nil
                }
                if !types.isEmpty {
                    hint =
                        " Did you mean to use an inline fragment on "
                        + types.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ") + "?"
                }
            }
            if hint.isEmpty { hint = didYouMean(suggestions(for: name, among: parent.fields.map(\.name))) }
            context.report("Cannot query field \"\(name)\" on type \"\(parent.name)\".\(hint)", at: [use.field.offset])
        }
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
