/// Executes a validated operation as the specification's Execution section says (fields
/// collected with their fragments, `@skip` and `@include`; values completed by their types;
/// a null in a non-null place nulling its nearest nullable parent) against mocked values: the
/// mocks' answers and type values where they have them, the generator everywhere else, and the
/// schema itself for introspection.
///
/// ```swift
/// var executor = GraphQLExecutor(schema: schema, document: document, variables: values, mocks: mocks)
/// let result = executor.execute(operation)
/// ```
struct GraphQLExecutor {
    let schema: GraphQLSchema
    let document: GraphQLDocument
    let variables: [String: GraphQLJSON]
    let mocks: GraphQLMocks
    let fragments: [String: GraphQLFragment]
    /// The most bytes an answer may take; past it the answer is refused with one error.
    let answerLimit: Int
    private(set) var errors: [GraphQLError] = []
    /// The path of the field being completed.
    private var path: [GraphQLPathComponent] = []
    private var answerBytes = 0
    /// How many completions are under way, one inside the other: each level of an object, a
    /// list or a non-null type is one.
    private var nesting = 0
    /// Whether an answer went past `maximumNesting`: it is refused with one error, as one past
    /// its size is.
    private var tooDeep = false
    /// The most completions one inside the other: an operation's 32 levels with four types each
    /// (`[Item!]!` and the item), twice over; a schema that wraps a type in dozens of lists
    /// can't take the answer deeper than a 512 KiB stack holds.
    static let maximumNesting = 256

    /// The fields of one selection set, by response key in the order they are first asked for.
    typealias CollectedFields = [(key: String, fields: [GraphQLField])]

    init(
        schema: GraphQLSchema, document: GraphQLDocument, variables: [String: GraphQLJSON], mocks: GraphQLMocks,
        answerLimit: Int = 16 << 20
    ) {
        self.schema = schema
        self.document = document
        self.variables = variables
        self.mocks = mocks
        self.answerLimit = answerLimit
        var fragments: [String: GraphQLFragment] = [:]
        for fragment in document.fragments where fragments[fragment.name.value] == nil {
            fragments[fragment.name.value] = fragment
        }
        self.fragments = fragments
    }

    /// The answer to `operation`, from `root` (the operation's mocked answer, or the generator
    /// from the root seed).
    mutating func execute(_ operation: GraphQLOperation, root: GraphQLMockedValue) -> GraphQLResult {
        guard let rootType = schema.rootType(for: operation.kind) else {
            let error = "Schema is not configured to execute \(operation.kind.rawValue) operation."
            return .refusal([GraphQLError(error, at: [document.source.location(of: operation.offset)])])
        }
        var collected: CollectedFields = []
        var visited: Set<String> = []
        collectFields(rootType, operation.selections, into: &collected, visited: &visited)
        let data = completeObject(rootType, collected, root) ?? .null
        if tooDeep {
            let message =
                "The answer would nest more than \(Self.maximumNesting) values deep (objects, lists and non-null "
                + "types each count); ask for fewer levels."
            return GraphQLResult(data: .null, errors: [GraphQLError(message)])
        }
        if answerBytes > answerLimit {
            let message =
                "The answer would take more than \(answerLimit) bytes; ask for fewer fields or smaller lists "
                + "(`first`, `limit`)."
            return GraphQLResult(data: .null, errors: [GraphQLError(message)])
        }
        return GraphQLResult(data: data, errors: errors)
    }

    // MARK: - Collecting fields

    /// CollectFields(): the fields `selections` ask of an object of `type`, fragments that apply
    /// to it expanded once each, `@skip(if: true)` and `@include(if: false)` left out.
    func collectFields(
        _ type: GraphQLNamedType, _ selections: [GraphQLSelection], into collected: inout CollectedFields,
        visited: inout Set<String>
    ) {
        for selection in selections where included(selection.directives) {
            switch selection {
            case .field(let field):
                let key = field.responseKey
                if let index = collected.firstIndex(where: { $0.key == key }) {
                    collected[index].fields.append(field)
                } else {
                    collected.append((key, [field]))
                }
            case .fragmentSpread(let spread):
                let name = spread.name.value
                guard !visited.contains(name), let fragment = fragments[name] else { continue }
                visited.insert(name)
                guard applies(fragment.typeCondition.value, to: type) else { continue }
                collectFields(type, fragment.selections, into: &collected, visited: &visited)
            case .inlineFragment(let fragment):
                if let condition = fragment.typeCondition, !applies(condition.value, to: type) { continue }
                collectFields(type, fragment.selections, into: &collected, visited: &visited)
            }
        }
    }

    /// Whether a fragment on `condition` applies to an object of `type`.
    func applies(_ condition: String, to type: GraphQLNamedType) -> Bool {
        condition == type.name || schema.isPossibleType(type.name, of: condition)
    }

    /// Whether `@skip` and `@include` keep a selection.
    private func included(_ directives: [GraphQLDirective]) -> Bool {
        for directive in directives where directive.name.value == "skip" || directive.name.value == "include" {
            guard let argument = directive.arguments.first(where: { $0.name.value == "if" }) else { continue }
            let condition = GraphQLVariables.literal(
                argument.value, as: .named("Boolean"), in: schema, variables: variables)
            if (directive.name.value == "skip") == (condition == .bool(true)) { return false }
        }
        return true
    }

    // MARK: - Completing values

    // The completing functions call each other once per level of the answer (a list's, an
    // object's), so each keeps its own frame small: what needs room of its own (messages,
    // arguments, abstract types, collecting fields) is done in a function of its own, outside
    // the chain. The deepest answer the bounds allow then fits a 512 KiB stack in a debug build.

    /// The object `value` completes to as `type` (an object type): each collected field's value,
    /// or `nil` when a non-null field's error nulls the object.
    mutating func completeObject(
        _ type: GraphQLNamedType, _ collected: CollectedFields, _ value: GraphQLMockedValue
    ) -> GraphQLJSON? {
        let object = GraphQLObjectInProgress(type: type, value: value, schema: schema)
        var members: [(key: String, value: GraphQLJSON)] = []
        members.reserveCapacity(collected.count)
        for index in collected.indices {
            guard let (definition, resolved) = prepareField(object, collected[index]) else {
                if collected[index].fields[0].name.value == "__typename" {
                    members.append((collected[index].key, .string(type.name)))
                }
                continue
            }
            path.append(.key(collected[index].key))
            let completed = complete(definition.type, collected[index].fields, resolved, owner: type.name)
            path.removeLast()
            guard let completed else {
                if definition.type.isNonNull { return nil }
                members.append((collected[index].key, .null))
                continue
            }
            members.append((collected[index].key, completed))
            if answerBytes > answerLimit { return nil }
        }
        return .object(members)
    }

    /// The definition and the value of one collected field of `object`, counted toward the
    /// answer's size; `nil` for `__typename` (the caller writes the type's name) and for a field
    /// the type doesn't have.
    private mutating func prepareField(
        _ object: GraphQLObjectInProgress, _ entry: (key: String, fields: [GraphQLField])
    ) -> (GraphQLFieldType, GraphQLMockedValue)? {
        let name = entry.fields[0].name.value
        answerBytes += entry.key.utf8.count + 4
        if name == "__typename" {
            answerBytes += object.type.name.utf8.count
            return nil
        }
        guard let definition = schema.fieldDefinition(name, on: object.type) else { return nil }
        let arguments = self.arguments(of: definition, entry.fields[0])
        return (
            definition,
            resolve(object, key: entry.key, definition: definition, arguments: arguments, fields: entry.fields)
        )
    }

    /// CompleteValue(): `value` as `type` asks for it, or `nil` when an error nulls it (the
    /// error is recorded where a null first fails a non-null type).
    private mutating func complete(
        _ type: GraphQLTypeReference, _ fields: [GraphQLField], _ value: GraphQLMockedValue, owner: String
    ) -> GraphQLJSON? {
        if answerBytes > answerLimit || tooDeep { return nil }
        nesting += 1
        defer { nesting -= 1 }
        if nesting > Self.maximumNesting {
            tooDeep = true
            return nil
        }
        switch type {
        case .nonNull(let inner):
            guard let completed = complete(inner, fields, value, owner: owner) else { return nil }
            if completed == .null {
                failNull(owner, fields)
                return nil
            }
            return completed
        case .list(let itemType):
            return completeList(itemType, fields, value, owner: owner)
        case .named(let name):
            guard let named = schema.types[name.value] else { return .null }
            return completeNamed(named, fields, value)
        }
    }

    private mutating func completeList(
        _ itemType: GraphQLTypeReference, _ fields: [GraphQLField], _ value: GraphQLMockedValue, owner: String
    ) -> GraphQLJSON? {
        switch value {
        case .null, .given(.null, _), .schema: return .null
        default: break
        }
        guard let items = listItems(value, fields, owner: owner) else { return nil }
        var completed: [GraphQLJSON] = []
        completed.reserveCapacity(items.count)
        for index in items.indices {
            path.append(.index(index))
            let element = complete(itemType, fields, items[index], owner: owner)
            path.removeLast()
            guard let element else {
                if itemType.isNonNull { return nil }
                completed.append(.null)
                continue
            }
            completed.append(element)
        }
        answerBytes += 2 + items.count
        return .list(completed)
    }

    /// The items of a list's value (not a null), `nil` (a field error) for a given value that
    /// isn't a list.
    private mutating func listItems(
        _ value: GraphQLMockedValue, _ fields: [GraphQLField], owner: String
    ) -> [GraphQLMockedValue]? {
        if case .given(let given, _) = value, given != .null, !given.isList {
            fail("Expected a list for field \(owner).\(fields[0].name.value) but received: \(given)", fields)
            return nil
        }
        return listItems(value) ?? []
    }

    private mutating func failNull(_ owner: String, _ fields: [GraphQLField]) {
        fail("Cannot return null for non-nullable field \(owner).\(fields[0].name.value).", fields)
    }

    private mutating func completeNamed(
        _ type: GraphQLNamedType, _ fields: [GraphQLField], _ value: GraphQLMockedValue
    ) -> GraphQLJSON? {
        switch value {
        case .null, .given(.null, _): return .null
        default: break
        }
        if type.kind.isLeaf { return completeLeaf(type, fields, value) }
        guard let (concrete, collected) = plan(type, fields, value) else { return nil }
        return completeObject(concrete, collected, value)
    }

    /// The object type a composite value is answered as, and the fields its selections ask of
    /// it; `nil` after a field error (a value that doesn't fit).
    private mutating func plan(
        _ type: GraphQLNamedType, _ fields: [GraphQLField], _ value: GraphQLMockedValue
    ) -> (GraphQLNamedType, CollectedFields)? {
        if case .list = value {
            fail("Expected a value of type \"\(type.name)\" but received a list.", fields)
            return nil
        }
        var concrete = type
        if type.kind.isAbstract {
            switch concreteType(of: type, for: fields, value) {
            case .success(let resolved): concrete = resolved
            case .failure(let mistake):
                fail(mistake.message, fields)
                return nil
            }
        }
        if case .given(let given, _) = value, given.isObject == false {
            fail("Expected a value of type \"\(type.name)\" but received: \(given)", fields)
            return nil
        }
        var collected: CollectedFields = []
        var visited: Set<String> = []
        for field in fields {
            collectFields(concrete, field.selections, into: &collected, visited: &visited)
        }
        return (concrete, collected)
    }

    private mutating func completeLeaf(
        _ type: GraphQLNamedType, _ fields: [GraphQLField], _ value: GraphQLMockedValue
    ) -> GraphQLJSON? {
        let leaf: GraphQLJSON
        switch value {
        case .given(let given, _):
            switch GraphQLOutputCoercion.leaf(given, as: type) {
            case .success(let coerced): leaf = coerced
            case .failure(let mistake):
                fail(mistake.message, fields)
                return nil
            }
        case .generated(let origin):
            leaf =
                mocks.scalars[type.name]
                ?? GraphQLGeneratedScalars.value(
                    of: type, field: fields[0].name.value, seed: origin.seed)
        default:
            return .null
        }
        answerBytes += leaf.estimatedSize
        return leaf
    }

    /// Records a field error at the current path, at the fields' places in the document.
    mutating func fail(_ message: String, _ fields: [GraphQLField]) {
        let locations = fields.map { document.source.location(of: $0.offset) }
        errors.append(GraphQLError(message, at: locations, path: path))
    }
}
