/// The type system's own rules (the specification's Type System section, and graphql-js's
/// `validateSchema` and SDL rules), checked once the types are built: each problem says what is
/// wrong and what to do.
extension GraphQLSchemaBuilder {
    mutating func checkRules() {
        // The types so far, for subtype questions (the roots don't matter to them).
        let lookup = GraphQLSchema(
            description: nil, types: types, typeNames: typeNames, roots: ("", nil, nil), directives: [:],
            directiveNames: [], source: source)
        for name in typeNames {
            guard let type = types[name], !GraphQLBuiltIns.introspectionTypeNames.contains(name) else { continue }
            checkName(name, at: type.offset, what: "Type")
            switch type.kind {
            case .object, .interface: checkFields(of: type, lookup: lookup)
            case .union: checkMembers(of: type)
            case .enumeration: checkValues(of: type)
            case .inputObject: checkInputFields(of: type)
            case .scalar: break
            }
        }
        checkInputCycles()
        for name in directiveNames {
            guard let directive = directives[name], directive.offset != nil else { continue }
            checkName(name, at: directive.offset, what: "Directive \"@\(name)\"", quoted: false)
            checkArguments(directive.arguments, of: "@\(name)")
        }
        checkDirectiveUses()
    }

    private mutating func checkName(_ name: String, at offset: Int?, what: String, quoted: Bool = true) {
        guard name.hasPrefix("__") else { return }
        let subject = quoted ? "\(what) \"\(name)\"" : what
        problem(
            at: offset,
            "Name \"\(name)\" must not begin with \"__\", which is reserved by GraphQL introspection: rename the "
                + subject.prefix(1).lowercased() + subject.dropFirst() + ".")
    }

    /// Checks that `reference` names a type, of the kind `input` says (an input type, or an
    /// output type).
    private mutating func checkType(_ reference: GraphQLTypeReference, of subject: String, input: Bool) {
        let name = reference.namedType
        guard let type = types[name.value] else {
            problem(
                at: name.offset,
                "Unknown type \"\(name.value)\" (the type of \(subject)): define it, or correct the name."
                    + didYouMean(suggestions(for: name.value, among: typeNames.filter { !$0.hasPrefix("__") })))
            return
        }
        if input, !type.kind.isInput {
            problem(
                at: name.offset,
                "The type of \(subject) must be Input Type but got: \(reference): an argument or input field takes "
                    + "a scalar, an enum or an input object.")
        } else if !input, !type.kind.isOutput {
            problem(
                at: name.offset,
                "The type of \(subject) must be Output Type but got: \(reference): a field answers a scalar, an "
                    + "object, an interface, a union or an enum, never an input object.")
        }
    }

    private mutating func checkArguments(_ arguments: [GraphQLInputValue], of owner: String) {
        var seen = Set<String>()
        for argument in arguments {
            let subject = "\(owner)(\(argument.name):)"
            if !seen.insert(argument.name).inserted {
                problem(at: argument.offset, "Argument \"\(subject)\" can only be defined once: remove one.")
            }
            checkName(argument.name, at: argument.offset, what: "Argument", quoted: true)
            checkType(argument.type, of: subject, input: true)
            if argument.type.isNonNull, argument.defaultValue == nil, argument.deprecationReason != nil {
                problem(
                    at: argument.offset,
                    "Required argument \(subject) cannot be deprecated: make it nullable or give it a default first.")
            }
        }
    }

    private mutating func checkFields(of type: GraphQLNamedType, lookup: GraphQLSchema) {
        let what = type.kind == .object ? "Object type" : "Interface type"
        if type.fields.isEmpty {
            problem(at: type.offset, "\(what) \(type.name) must define one or more fields: add one.")
        }
        var seen = Set<String>()
        for field in type.fields {
            if !seen.insert(field.name).inserted {
                problem(at: field.offset, "Field \"\(type.name).\(field.name)\" can only be defined once: remove one.")
            }
            checkName(field.name, at: field.offset, what: "Field")
            checkType(field.type, of: "\(type.name).\(field.name)", input: false)
            checkArguments(field.arguments, of: "\(type.name).\(field.name)")
        }
        checkInterfaces(of: type, lookup: lookup)
    }

    private mutating func checkInterfaces(of type: GraphQLNamedType, lookup: GraphQLSchema) {
        var seen = Set<String>()
        for name in type.interfaces {
            let offset = type.offset
            guard seen.insert(name).inserted else {
                problem(at: offset, "Type \(type.name) can only implement \(name) once: remove one.")
                continue
            }
            guard let interface = types[name] else {
                problem(
                    at: offset,
                    "Unknown type \"\(name)\" (an interface \(type.name) implements): define it, or correct the name."
                        + didYouMean(suggestions(for: name, among: typeNames.filter { types[$0]?.kind == .interface })))
                continue
            }
            guard interface.kind == .interface else {
                problem(
                    at: offset,
                    "Type \(type.name) must only implement Interface types, it cannot implement \(name): "
                        + "remove it from `implements`.")
                continue
            }
            guard name != type.name else {
                problem(
                    at: offset,
                    "Type \(type.name) cannot implement itself because it would create a circular reference: "
                        + "remove it from `implements`.")
                continue
            }
            for transitive in interface.interfaces where !type.interfaces.contains(transitive) {
                problem(
                    at: offset,
                    "Type \(type.name) must implement \(transitive) because it is implemented by \(name): add it "
                        + "to `implements`.")
            }
            checkImplementation(of: interface, by: type, lookup: lookup)
        }
    }

    /// The fields `type` must have, with types and arguments that fit, to implement `interface`.
    private mutating func checkImplementation(
        of interface: GraphQLNamedType, by type: GraphQLNamedType, lookup schema: GraphQLSchema
    ) {
        for expected in interface.fields {
            let subject = "\(interface.name).\(expected.name)"
            guard let field = type.field(expected.name) else {
                problem(
                    at: type.offset,
                    "Interface field \(subject) expected but \(type.name) does not provide it: add the field.")
                continue
            }
            if !schema.isSubtype(field.type, of: expected.type) {
                problem(
                    at: field.offset,
                    "Interface field \(subject) expects type \(expected.type) but \(type.name).\(field.name) is type "
                        + "\(field.type): answer \(expected.type) or a subtype of it.")
            }
            for argument in expected.arguments {
                guard let given = field.argument(argument.name) else {
                    problem(
                        at: field.offset,
                        "Interface field argument \(subject)(\(argument.name):) expected but "
                            + "\(type.name).\(field.name) does not provide it: add the argument.")
                    continue
                }
                if given.type.shape != argument.type.shape {
                    problem(
                        at: given.offset,
                        "Interface field argument \(subject)(\(argument.name):) expects type \(argument.type) but "
                            + "\(type.name).\(field.name)(\(argument.name):) is type \(given.type): use the same type.")
                }
            }
            for argument in field.arguments where expected.argument(argument.name) == nil {
                if argument.type.isNonNull, argument.defaultValue == nil {
                    problem(
                        at: argument.offset,
                        "Argument \"\(type.name).\(field.name)(\(argument.name):)\" must not be required type "
                            + "\"\(argument.type)\" if not provided by the Interface field \"\(subject)\": make it "
                            + "nullable or give it a default.")
                }
            }
        }
    }

    private mutating func checkMembers(of type: GraphQLNamedType) {
        if type.members.isEmpty {
            problem(at: type.offset, "Union type \(type.name) must define one or more member types: add one.")
        }
        var seen = Set<String>()
        for member in type.members {
            guard seen.insert(member).inserted else {
                problem(at: type.offset, "Union type \(type.name) can only include type \(member) once: remove one.")
                continue
            }
            guard let memberType = types[member] else {
                problem(
                    at: type.offset,
                    "Unknown type \"\(member)\" (a member of \(type.name)): define it, or correct the name."
                        + didYouMean(suggestions(for: member, among: typeNames.filter { types[$0]?.kind == .object })))
                continue
            }
            if memberType.kind != .object {
                problem(
                    at: type.offset,
                    "Union type \(type.name) can only include Object types, it cannot include \(member): "
                        + "list object types only.")
            }
        }
    }

    private mutating func checkValues(of type: GraphQLNamedType) {
        if type.enumValues.isEmpty {
            problem(at: type.offset, "Enum type \(type.name) must define one or more values: add one.")
        }
        var seen = Set<String>()
        for value in type.enumValues {
            if !seen.insert(value.name).inserted {
                problem(
                    at: value.offset, "Enum value \"\(type.name).\(value.name)\" can only be defined once: remove one.")
            }
            checkName(value.name, at: value.offset, what: "Enum value")
        }
    }

    private mutating func checkInputFields(of type: GraphQLNamedType) {
        if type.inputFields.isEmpty {
            problem(at: type.offset, "Input Object type \(type.name) must define one or more fields: add one.")
        }
        var seen = Set<String>()
        for field in type.inputFields {
            let subject = "\(type.name).\(field.name)"
            if !seen.insert(field.name).inserted {
                problem(at: field.offset, "Input field \"\(subject)\" can only be defined once: remove one.")
            }
            checkName(field.name, at: field.offset, what: "Input field")
            checkType(field.type, of: subject, input: true)
            if field.type.isNonNull, field.defaultValue == nil, field.deprecationReason != nil {
                problem(
                    at: field.offset,
                    "Required input field \(subject) cannot be deprecated: make it nullable or give it a default first."
                )
            }
            if type.isOneOf, field.type.isNonNull {
                problem(
                    at: field.offset,
                    "OneOf input field \(subject) must be nullable: remove the `!` (@oneOf asks for one field).")
            }
            if type.isOneOf, field.defaultValue != nil {
                problem(
                    at: field.offset,
                    "OneOf input field \(subject) cannot have a default value: remove it (@oneOf asks for one field).")
            }
        }
    }

    /// An input object that needs itself through non-null, non-list fields can never be written.
    /// A depth-first walk with a stack of its own, so a long chain of inputs can't exhaust a thread's.
    private mutating func checkInputCycles() {
        var done = Set<String>()
        for start in typeNames where types[start]?.kind == .inputObject && !done.contains(start) {
            // Each frame: a type, the index of its next field to follow, and the field that led to it.
            var path: [(type: String, next: Int, via: String)] = [(start, 0, "")]
            var onPath: Set<String> = [start]
            while let top = path.last {
                let fields = types[top.type]?.inputFields ?? []
                guard top.next < fields.count else {
                    done.insert(top.type)
                    onPath.remove(top.type)
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let field = fields[top.next]
                guard case .nonNull(.named(let target)) = field.type, types[target.value]?.kind == .inputObject else {
                    continue
                }
                if onPath.contains(target.value) {
                    guard let cycleStart = path.firstIndex(where: { $0.type == target.value }) else { continue }
                    let names = path[(cycleStart + 1)...].map(\.via) + [field.name]
                    problem(
                        at: types[target.value]?.offset,
                        "Cannot reference Input Object \"\(target.value)\" within itself through a series of non-null "
                            + "fields: \"\(names.joined(separator: "."))\"; make one of them nullable or a list.")
                } else if !done.contains(target.value) {
                    path.append((target.value, 0, field.name))
                    onPath.insert(target.value)
                }
            }
        }
    }
}
