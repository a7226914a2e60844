/// The rules about the types a document names: in variables' types and fragments' conditions.
enum TypeRules {
    static func knownTypeNames(_ context: inout ValidationContext) {
        var named: [GraphQLName] = []
        for definition in context.document.definitions {
            switch definition {
            case .operation(let operation): named += operation.variables.map(\.type.namedType)
            case .fragment(let fragment): named.append(fragment.typeCondition)
            default: break
            }
        }
        named += context.inlineFragments.compactMap(\.fragment.typeCondition)
        let known = context.schema.typeNames.filter { !$0.hasPrefix("__") }
        for name in named.sorted(by: { $0.offset < $1.offset }) where context.schema.types[name.value] == nil {
            context.report(
                "Unknown type \"\(name.value)\"." + didYouMean(suggestions(for: name.value, among: known)),
                at: [name.offset])
        }
    }

    /// A fragment's condition is an object, an interface or a union.
    static func fragmentsOnCompositeTypes(_ context: inout ValidationContext) {
        var conditions: [(name: GraphQLName, fragment: String?)] = context.document.fragments.map {
            ($0.typeCondition, $0.name.value)
        }
        conditions += context.inlineFragments.compactMap { $0.fragment.typeCondition.map { ($0, nil) } }
        for (name, fragment) in conditions.sorted(by: { $0.name.offset < $1.name.offset }) {
            guard let type = context.schema.types[name.value], type.kind.isLeaf || type.kind == .inputObject else {
                continue
            }
            let subject = fragment.map { "Fragment \"\($0)\" cannot" } ?? "Fragment cannot"
            context.report(
                "\(subject) condition on non composite type \"\(name.value)\": a fragment is on an object, an "
                    + "interface or a union.",
                at: [name.offset])
        }
    }

    static func variablesAreInputTypes(_ context: inout ValidationContext) {
        for operation in context.document.operations {
            for variable in operation.variables {
                guard let type = context.schema.types[variable.type.namedType.value], !type.kind.isInput else {
                    continue
                }
                context.report(
                    "Variable \"$\(variable.name.value)\" cannot be non-input type \"\(variable.type)\": a variable "
                        + "is a scalar, an enum or an input object.",
                    at: [variable.typeOffset])
            }
        }
    }
}
