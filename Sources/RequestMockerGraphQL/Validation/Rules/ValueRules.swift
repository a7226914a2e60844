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
        guard case .named(let name) = nullable, let named = context.schema.types[name.value] else { return }
        let written = GraphQLPrinter.value(value)
        switch named.kind {
        case .inputObject:
            guard case .object(let fields) = value.kind else {
                context.report("Expected value of type \"\(type)\", found \(written).", at: [value.offset])
                return
            }
            checkObject(fields, at: value.offset, of: named, in: &context)
        case .enumeration:
            let options = named.enumValues.map(\.name)
            guard case .enumValue(let member) = value.kind else {
                context.report(
                    "Enum \"\(named.name)\" cannot represent non-enum value: \(written)."
                        + didYouMean(suggestions(for: written, among: options), subject: "the enum value"),
                    at: [value.offset])
                return
            }
            if named.enumValue(member) == nil {
                context.report(
                    "Value \"\(member)\" does not exist in \"\(named.name)\" enum."
                        + didYouMean(suggestions(for: member, among: options), subject: "the enum value"),
                    at: [value.offset])
            }
        case .scalar:
            if let refusal = scalarRefusal(value, named.name) { context.report(refusal, at: [value.offset]) }
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

    /// Why a literal doesn't read as the built-in scalar `name`, in graphql-js's words, or `nil`
    /// when it does; a custom scalar takes any literal (a `JSON` scalar's objects and lists).
    static func scalarRefusal(_ value: GraphQLValue, _ name: String) -> String? {
        let written = GraphQLPrinter.value(value)
        switch (name, value.kind) {
        case ("Int", .int(let text)):
            return Int32(text) != nil ? nil : "Int cannot represent non 32-bit signed integer value: \(text)"
        case ("Int", _): return "Int cannot represent non-integer value: \(written)"
        case ("Float", .int(let text)), ("Float", .float(let text)):
            return Double(text)?.isFinite ?? false ? nil : "Float cannot represent non numeric value: \(written)"
        case ("Float", _): return "Float cannot represent non numeric value: \(written)"
        case ("String", .string): return nil
        case ("String", _): return "String cannot represent a non string value: \(written)"
        case ("Boolean", .boolean): return nil
        case ("Boolean", _): return "Boolean cannot represent a non boolean value: \(written)"
        case ("ID", .string), ("ID", .int): return nil
        case ("ID", _): return "ID cannot represent a non-string and non-integer value: \(written)"
        default: return nil
        }
    }
}
