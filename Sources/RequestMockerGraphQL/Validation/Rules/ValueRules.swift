/// The rule about literal values: each one a field's or a directive's argument, or a variable's
/// default, can be read as the type it is given for. Variables are the business of their own
/// rules.
enum ValueRules {
    static func valuesOfCorrectType(_ context: inout ValidationContext) {
        var checks: [(value: GraphQLValue, type: GraphQLTypeReference)] = []
        for use in context.fieldUses {
            guard let definition = use.definition else { continue }
            for argument in use.field.arguments {
                if let declared = definition.argument(argument.name.value) {
                    checks.append((argument.value, declared.type))
                }
            }
        }
        for (directives, _, _) in context.directiveLists {
            for directive in directives {
                guard let known = context.schema.directives[directive.name.value] else { continue }
                for argument in directive.arguments {
                    if let declared = known.arguments.first(where: { $0.name == argument.name.value }) {
                        checks.append((argument.value, declared.type))
                    }
                }
            }
        }
        for operation in context.document.operations {
            for variable in operation.variables {
                if let value = variable.defaultValue { checks.append((value, variable.type)) }
            }
        }
        for (value, type) in checks.sorted(by: { $0.value.offset < $1.value.offset }) {
            check(value, against: type, in: &context)
        }
    }

    /// Reports what of `value` can't be read as `type`: as deep as the value nests, which the
    /// parser bounds.
    private static func check(
        _ value: GraphQLValue, against type: GraphQLTypeReference, in context: inout ValidationContext
    ) {
        if case .variable = value.kind { return }
        if case .null = value.kind {
            if type.isNonNull { context.report("Expected value of type \"\(type)\", found null.", at: [value.offset]) }
            return
        }
        let nullable = type.nullable
        if case .list(let item) = nullable {
            // A single value stands for a list of one.
            if case .list(let items) = value.kind {
                for element in items { check(element, against: item, in: &context) }
            } else {
                check(value, against: item, in: &context)
            }
            return
        }
        let expected = "Expected value of type \"\(type)\", found \(GraphQLPrinter.value(value))."
        guard case .named(let name) = nullable, let named = context.schema.types[name.value] else { return }
        if case .list = value.kind {
            context.report(expected, at: [value.offset])
            return
        }
        switch named.kind {
        case .inputObject:
            guard case .object(let fields) = value.kind else {
                context.report(expected, at: [value.offset])
                return
            }
            checkObject(fields, at: value.offset, of: named, in: &context)
        case .enumeration:
            guard case .enumValue(let member) = value.kind, named.enumValue(member) != nil else {
                let written = GraphQLPrinter.value(value)
                context.report(
                    "Value \(written) does not exist in \"\(named.name)\" enum."
                        + didYouMean(suggestions(for: written, among: named.enumValues.map(\.name))),
                    at: [value.offset])
                return
            }
        case .scalar:
            if !isValidScalar(value, named.name) { context.report(expected, at: [value.offset]) }
        case .object, .interface, .union:
            return
        }
    }

    private static func checkObject(
        _ fields: [GraphQLObjectField], at offset: Int, of type: GraphQLNamedType, in context: inout ValidationContext
    ) {
        for field in fields {
            guard let declared = type.inputField(field.name.value) else {
                context.report(
                    "Field \"\(field.name.value)\" is not defined by type \"\(type.name)\"."
                        + didYouMean(suggestions(for: field.name.value, among: type.inputFields.map(\.name))),
                    at: [field.name.offset])
                continue
            }
            check(field.value, against: declared.type, in: &context)
        }
        for declared in type.inputFields where declared.type.isNonNull && declared.defaultValue == nil {
            if !fields.contains(where: { $0.name.value == declared.name }) {
                context.report(
                    "Field \"\(type.name).\(declared.name)\" of required type \"\(declared.type)\" was not provided.",
                    at: [offset])
            }
        }
        guard type.isOneOf else { return }
        if fields.count != 1 {
            context.report("OneOf Input Object \"\(type.name)\" must specify exactly one key.", at: [offset])
        } else if case .null = fields[0].value.kind {
            context.report("Field \"\(type.name).\(fields[0].name.value)\" must be non-null.", at: [offset])
        }
    }

    /// Whether a literal reads as the built-in scalar `name`; a custom scalar takes any literal.
    static func isValidScalar(_ value: GraphQLValue, _ name: String) -> Bool {
        switch (name, value.kind) {
        case ("Int", .int(let text)): Int32(text) != nil
        case ("Int", _): false
        case ("Float", .int(let text)), ("Float", .float(let text)): Double(text)?.isFinite ?? false
        case ("Float", _): false
        case ("String", .string): true
        case ("String", _): false
        case ("Boolean", .boolean): true
        case ("Boolean", _): false
        case ("ID", .string), ("ID", .int): true
        case ("ID", _): false
        default: true
        }
    }
}
