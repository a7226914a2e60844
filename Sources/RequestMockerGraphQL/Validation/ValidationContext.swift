/// What the rules read: one walk of the document's operations and fragments, each selection
/// with the type it is selected on (its parent), each directive with where it is used, each
/// argument list, object value and variable use. Fragments are walked once where they are
/// defined, never expanded, so the walk is as long as the document.
struct ValidationContext {
    let document: GraphQLDocument
    let schema: GraphQLSchema
    var errors: [GraphQLError] = []

    /// Each fragment by name: the first defined under it.
    var fragments: [String: GraphQLFragment] = [:]

    /// A field selected on a type.
    struct FieldUse {
        var field: GraphQLField
        /// The type it is selected on, or `nil` when that type is unknown or not composite.
        var parent: GraphQLNamedType?
        /// The schema's field, `__typename`, `__schema` and `__type` included, or `nil`.
        var definition: GraphQLFieldType?
        /// The operation or fragment it is in (an index into the document's definitions).
        var owner: Int
    }

    struct SpreadUse {
        var spread: GraphQLFragmentSpread
        var parent: GraphQLNamedType?
        /// The operation or fragment it is in (an index into the document's definitions).
        var owner: Int
    }

    struct InlineUse {
        var fragment: GraphQLInlineFragment
        var parent: GraphQLNamedType?
    }

    struct DirectiveUse {
        var directive: GraphQLDirective
        /// `QUERY`, `FIELD`, `FRAGMENT_SPREAD`, …
        var location: String
    }

    struct VariableUse {
        var name: String
        var offset: Int
        var owner: Int
    }

    var fieldUses: [FieldUse] = []
    var spreads: [SpreadUse] = []
    var inlineFragments: [InlineUse] = []
    /// Every directive list of the document with its location: a location's directives are
    /// checked together (one use per non-repeatable directive).
    var directiveLists: [(directives: [GraphQLDirective], location: String, owner: Int)] = []
    /// Every argument list: of fields and of directives.
    var argumentLists: [[GraphQLArgument]] = []
    /// Every input object value, at any depth.
    var objectValues: [[GraphQLObjectField]] = []
    var variableUses: [VariableUse] = []

    init(document: GraphQLDocument, schema: GraphQLSchema) {
        self.document = document
        self.schema = schema
        for fragment in document.fragments where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        for (index, definition) in document.definitions.enumerated() {
            switch definition {
            case .operation(let operation):
                let root = schema.rootType(for: operation.kind)
                note(operation.directives, at: operation.kind.rawValue.uppercased(), owner: index)
                for variable in operation.variables {
                    note(variable.directives, at: "VARIABLE_DEFINITION", owner: index)
                    if let value = variable.defaultValue { noteValue(value, owner: index) }
                }
                walk(operation.selections, parent: root, owner: index)
            case .fragment(let fragment):
                note(fragment.directives, at: "FRAGMENT_DEFINITION", owner: index)
                walk(fragment.selections, parent: compositeType(fragment.typeCondition.value), owner: index)
            default:
                break
            }
        }
    }

    mutating func report(_ message: String, at offsets: [Int]) {
        errors.append(GraphQLError(message, at: offsets.map(document.source.location(of:))))
    }

    /// The named type `name`, if it is an object, an interface or a union.
    func compositeType(_ name: String) -> GraphQLNamedType? {
        guard let type = schema.types[name], type.kind == .object || type.kind == .interface || type.kind == .union
        else { return nil }
        return type
    }

    private mutating func walk(_ selections: [GraphQLSelection], parent: GraphQLNamedType?, owner: Int) {
        for selection in selections {
            switch selection {
            case .field(let field):
                let definition = parent.flatMap { schema.fieldDefinition(field.name.value, on: $0) }
                fieldUses.append(FieldUse(field: field, parent: parent, definition: definition, owner: owner))
                argumentLists.append(field.arguments)
                for argument in field.arguments { noteValue(argument.value, owner: owner) }
                note(field.directives, at: "FIELD", owner: owner)
                let inner = definition.flatMap { compositeType($0.type.namedType.value) }
                walk(field.selections, parent: inner, owner: owner)
            case .fragmentSpread(let spread):
                spreads.append(SpreadUse(spread: spread, parent: parent, owner: owner))
                note(spread.directives, at: "FRAGMENT_SPREAD", owner: owner)
            case .inlineFragment(let fragment):
                inlineFragments.append(InlineUse(fragment: fragment, parent: parent))
                note(fragment.directives, at: "INLINE_FRAGMENT", owner: owner)
                let inner = fragment.typeCondition.map { compositeType($0.value) } ?? parent
                walk(fragment.selections, parent: inner, owner: owner)
            }
        }
    }

    private mutating func note(_ directives: [GraphQLDirective], at location: String, owner: Int) {
        guard !directives.isEmpty else { return }
        directiveLists.append((directives, location, owner))
        for directive in directives {
            argumentLists.append(directive.arguments)
            for argument in directive.arguments { noteValue(argument.value, owner: owner) }
        }
    }

    private mutating func noteValue(_ value: GraphQLValue, owner: Int) {
        switch value.kind {
        case .variable(let name):
            variableUses.append(VariableUse(name: name, offset: value.offset, owner: owner))
        case .list(let items):
            for item in items { noteValue(item, owner: owner) }
        case .object(let fields):
            objectValues.append(fields)
            for field in fields { noteValue(field.value, owner: owner) }
        default:
            break
        }
    }
}
