/// An object being answered: its type, what its fields come from, and the seed its generated
/// fields are drawn from, which is its identity when it has an `id`.
struct GraphQLObjectInProgress {
    let type: GraphQLNamedType
    let value: GraphQLMockedValue
    let seed: GraphQLSeed
    /// The object's id: given, asked for by an argument, or generated (`Human-1f3a9c07`).
    let id: String?
    let role: GraphQLOrigin.Role

    init(type: GraphQLNamedType, value: GraphQLMockedValue, schema: GraphQLSchema) {
        self.type = type
        self.value = value
        let origin: GraphQLOrigin
        var givenID: String?
        switch value {
        case .generated(let generated):
            origin = generated
        case .given(let given, let generated):
            origin = generated
            switch given["id"] {
            case .string(let text)?: givenID = text
            case .int(let number)?: givenID = String(number)
            default: break
            }
        default:
            (seed, id, role) = (.root, nil, .plain)
            return
        }
        role = origin.role
        let hasID = type.field("id")?.type.namedType.value == "ID"
        if let known = givenID ?? origin.id {
            id = known
            seed = .identity(type.name, known)
        } else if hasID {
            let made = "\(type.name)-\(origin.seed.hex)"
            id = made
            seed = .identity(type.name, made)
        } else {
            id = nil
            seed = origin.seed
        }
    }
}

extension GraphQLExecutor {
    /// What the field `definition` of `object`, asked for under `key`, takes its value from: the
    /// object's given value, the mocks' values for its type, the connection it is part of, or
    /// the generator.
    func resolve(
        _ object: GraphQLObjectInProgress, key: String, definition: GraphQLFieldType,
        arguments: [(key: String, value: GraphQLJSON)], fields: [GraphQLField]
    ) -> GraphQLMockedValue {
        let name = definition.name
        if case .schema(let element) = object.value {
            return element.field(name, arguments: arguments, in: schema)
        }
        switch name {
        case "__schema": return .schema(.schema)
        case "__type":
            guard case .string(let typeName)? = arguments.first?.value, schema.types[typeName] != nil else {
                return .null
            }
            return .schema(.type(.named(typeName)))
        default: break
        }
        let origin = self.origin(of: definition, arguments, in: object)
        if case .given(.object(let members), _) = object.value,
            let member = members.first(where: { $0.key == key }) ?? members.first(where: { $0.key == name })
        {
            return .given(member.value, origin)
        }
        if let value = mocks.value(of: name, on: object.type) {
            return .given(value, origin)
        }
        if name == "id", let id = object.id, definition.type.namedType.value == "ID" {
            return .given(.string(id), origin)
        }
        return connectionField(object, definition) ?? .generated(origin)
    }

    /// The origin of the value of `definition` on `object`: the seed mixed from the field's name
    /// and its arguments (paging aside, so every page of a list draws from the same seed), the
    /// id or ids it asks for, the items of a list, the page of a connection.
    private func origin(
        of definition: GraphQLFieldType, _ arguments: [(key: String, value: GraphQLJSON)],
        in object: GraphQLObjectInProgress
    ) -> GraphQLOrigin {
        var seed = object.seed.mixing(definition.name)
        for argument in arguments
        where !GraphQLPaging.counts.contains(argument.key) && !GraphQLPaging.offsets.contains(argument.key)
            && !GraphQLPaging.cursors.contains(argument.key)
        {
            seed = seed.mixing(argument.key).mixing(argument.value.description)
        }
        var origin = GraphQLOrigin(seed: seed, choice: seed.number(below: 9973))
        let returned = schema.types[definition.type.namedType.value]
        let isList = definition.type.nullable.isList
        if let returned, returned.kind.isOutput, !returned.kind.isLeaf {
            if !isList {
                origin.id = Self.idText(arguments.first { $0.key == "id" }?.value)
            } else if case .list(let ids)? = arguments.first(where: { $0.key == "ids" })?.value {
                let texts = ids.compactMap(Self.idText)
                origin.ids = Array(texts.prefix(GraphQLPaging.maximumCount))
                origin.items = 0..<(origin.ids?.count ?? 0)
            }
            if !isList, returned.field("pageInfo") != nil,
                returned.field("edges") != nil || returned.field("nodes") != nil
            {
                origin.role = .connection(GraphQLPaging.page(arguments, seed: seed, choice: origin.choice))
            }
        }
        if isList, origin.items == nil {
            let count = GraphQLPaging.count(arguments) ?? GraphQLPaging.defaultCount
            let start =
                GraphQLPaging.position(arguments.first { $0.key == "after" }?.value).map { $0 + 1 }
                ?? GraphQLPaging.offset(arguments) ?? 0
            origin.items = start..<(start + count)
        }
        return origin
    }

    private static func idText(_ value: GraphQLJSON?) -> String? {
        switch value {
        case .string(let text)?: text
        case .int(let number)?: String(number)
        default: nil
        }
    }

    /// The fields a generated connection, edge or page info answers from the page it shows:
    /// `edges` and `nodes` of the page's items (an edge's `node` is the same object as the
    /// node at its position), `totalCount`, cursors, and whether there are pages either side.
    private func connectionField(
        _ object: GraphQLObjectInProgress, _ definition: GraphQLFieldType
    ) -> GraphQLMockedValue? {
        let isList = definition.type.nullable.isList
        let returns = definition.type.namedType.value
        func given(_ value: GraphQLJSON) -> GraphQLMockedValue { .given(value, GraphQLOrigin(seed: object.seed)) }
        switch (object.role, definition.name) {
        case (.connection(let page), "edges") where isList:
            return .list(
                page.items.map {
                    .generated(GraphQLOrigin(seed: page.seed.mixing("edge").mixing($0), role: .edge(page, $0)))
                })
        case (.connection(let page), "nodes") where isList:
            return .list(page.items.map { .generated(page.node($0)) })
        case (.connection(let page), "pageInfo") where !isList:
            return .generated(GraphQLOrigin(seed: page.seed.mixing("pageInfo"), role: .pageInfo(page)))
        case (.connection(let page), "totalCount") where returns == "Int":
            return given(.int(page.total))
        case (.edge(let page, let position), "node") where !isList:
            return .generated(page.node(position))
        case (.edge(_, let position), "cursor") where returns == "String" || returns == "ID":
            return given(.string(GraphQLPaging.cursor(position)))
        case (.pageInfo(let page), "hasNextPage") where returns == "Boolean":
            return given(.bool(page.items.upperBound < page.total))
        case (.pageInfo(let page), "hasPreviousPage") where returns == "Boolean":
            return given(.bool(page.items.lowerBound > 0))
        case (.pageInfo(let page), "startCursor") where returns == "String" || returns == "ID":
            return page.items.isEmpty ? given(.null) : given(.string(GraphQLPaging.cursor(page.items.lowerBound)))
        case (.pageInfo(let page), "endCursor") where returns == "String" || returns == "ID":
            return page.items.isEmpty ? given(.null) : given(.string(GraphQLPaging.cursor(page.items.upperBound - 1)))
        default:
            return nil
        }
    }

    /// The items `value` holds as a list, or `nil` for a null.
    func listItems(_ value: GraphQLMockedValue) -> [GraphQLMockedValue]? {
        switch value {
        case .list(let items): items
        case .given(.list(let items), let origin): items.enumerated().map { .given($1, origin.item($0)) }
        case .generated(let origin):
            (origin.items ?? 0..<GraphQLPaging.defaultCount).map { .generated(origin.item($0)) }
        case .null, .given, .schema: nil
        }
    }

    /// CoerceArgumentValues(): the field's arguments in its definition's order, each as given
    /// (a variable by its value) or by its default; one that is neither is left out.
    func arguments(of definition: GraphQLFieldType, _ field: GraphQLField) -> [(key: String, value: GraphQLJSON)] {
        var values: [(key: String, value: GraphQLJSON)] = []
        for argument in definition.arguments {
            if let given = field.arguments.first(where: { $0.name.value == argument.name }),
                !given.value.isUnsetVariable(in: variables)
            {
                values.append(
                    (
                        argument.name,
                        GraphQLVariables.literal(given.value, as: argument.type, in: schema, variables: variables)
                    ))
            } else if let defaultValue = argument.defaultValue {
                values.append((argument.name, GraphQLVariables.literal(defaultValue, as: argument.type, in: schema)))
            }
        }
        return values
    }

    /// The object type an abstract `type` is answered as: the given value's `__typename`, the
    /// type a generated id names, or one chosen by the origin among the types the selection's
    /// fragments ask for (all the possible types when they name none).
    func concreteType(
        of type: GraphQLNamedType, for fields: [GraphQLField], _ value: GraphQLMockedValue
    ) -> Result<GraphQLNamedType, GraphQLExecutionMistake> {
        let possible = schema.possibleTypes[type.name] ?? []
        var origin = GraphQLOrigin(seed: .root)
        switch value {
        case .given(let given, let from):
            origin = from
            if let typename = given["__typename"] {
                guard case .string(let name) = typename, possible.contains(name), let concrete = schema.types[name]
                else {
                    return .failure(
                        GraphQLExecutionMistake(
                            "Runtime Object type \(typename) is not a possible type for \"\(type.name)\"."))
                }
                return .success(concrete)
            }
            if case .string(let id)? = given["id"] { origin.id = id }
        case .generated(let from): origin = from
        default: break
        }
        var candidates = askedTypes(fields, among: possible)
        if candidates.isEmpty { candidates = possible }
        guard !candidates.isEmpty else {
            return .failure(
                GraphQLExecutionMistake("Abstract type \"\(type.name)\" has no object type to answer with."))
        }
        if let id = origin.id, let named = candidates.first(where: { id.hasPrefix($0 + "-") }),
            let concrete = schema.types[named]
        {
            return .success(concrete)
        }
        let index = ((origin.choice % candidates.count) + candidates.count) % candidates.count
        guard let concrete = schema.types[candidates[index]] else {
            return .failure(GraphQLExecutionMistake("Type \"\(candidates[index])\" is not in the schema."))
        }
        return .success(concrete)
    }

    /// The object types among `possible` that the fields' fragments name, in the order they are
    /// first named (an abstract condition names its possible types).
    private func askedTypes(_ fields: [GraphQLField], among possible: [String]) -> [String] {
        var asked: [String] = []
        var visited: Set<String> = []
        var pending = fields.flatMap(\.selections)
        var next = 0
        // Each fragment is visited once, so this ends; the bound only caps the work.
        while next < pending.count, next < 10_000 {
            let selection = pending[next]
            next += 1
            var condition: String?
            switch selection {
            case .field: continue
            case .inlineFragment(let fragment):
                condition = fragment.typeCondition?.value
                if condition == nil { pending.append(contentsOf: fragment.selections) }
            case .fragmentSpread(let spread):
                guard visited.insert(spread.name.value).inserted, let fragment = fragments[spread.name.value] else {
                    continue
                }
                condition = fragment.typeCondition.value
                pending.append(contentsOf: fragment.selections.filter { if case .field = $0 { false } else { true } })
            }
            guard let condition else { continue }
            let named = possible.contains(condition) ? [condition] : (schema.possibleTypes[condition] ?? [])
            for name in named where possible.contains(name) && !asked.contains(name) { asked.append(name) }
        }
        return asked
    }
}

/// Why a value can't be completed: a field error's message.
struct GraphQLExecutionMistake: Error {
    var message: String

    init(_ message: String) {
        self.message = message
    }
}

extension GraphQLTypeReference {
    var isList: Bool {
        if case .list = self { true } else { false }
    }
}
