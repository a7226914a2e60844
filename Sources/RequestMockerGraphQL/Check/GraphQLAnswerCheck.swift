import Foundation
import RequestMocker

/// What a recorded answer's `data` breaks against the operation that asked for it, as the
/// schema types it: a value of the wrong type, a null where the type is non-null, a field the
/// operation didn't select, a selected field that is missing. Walks the answer with a stack of
/// its own (an answer nests as deep as its JSON reader allows, never deeper than the stack).
struct GraphQLAnswerCheck {
    enum Kind {
        case schema, unselected, missing
    }

    struct Problem: Equatable {
        let kind: Kind
        /// The JSON pointer of the value in `data`: `/hero/friends/0/name`.
        let pointer: String
        let message: String
    }

    let schema: GraphQLSchema
    let prepared: GraphQLPreparedOperation
    /// The most problems reported for one answer: a recording of a list of thousands that all
    /// miss one field says so a hundred times, which the report groups into one line anyway.
    static let maximumProblems = 100

    /// One value to look at: where it is, the type it has, and the fields that asked for it
    /// (whose selections an object's members answer).
    private struct Pending {
        let node: DocumentNode
        let type: GraphQLTypeReference
        let selections: [[GraphQLSelection]]
        let pointer: String
    }

    /// The problems of `data`, the answer's `data` member, in the order its values come.
    func problems(of data: DocumentNode) -> [Problem] {
        guard let root = schema.rootType(for: prepared.kind) else { return [] }
        let executor = GraphQLExecutor(
            schema: schema, document: prepared.document, variables: prepared.variables, mocks: GraphQLMocks())
        var problems: [Problem] = []
        var pending = [
            Pending(
                node: data, type: .named(GraphQLName(root.name, at: 0)), selections: [prepared.operation.selections],
                pointer: "")
        ]
        while let next = pending.popLast(), problems.count < Self.maximumProblems {
            var type = next.type
            if case .null = next.node.value {
                if type.isNonNull {
                    problems.append(
                        Problem(kind: .schema, pointer: next.pointer, message: "null, but `\(type)` is non-null"))
                }
                continue
            }
            if case .nonNull(let inner) = type { type = inner }
            switch type {
            case .list(let item):
                guard case .array(let elements) = next.node.value else {
                    problems.append(
                        Problem(
                            kind: .schema, pointer: next.pointer,
                            message: "`\(next.type)` is a list, but the answer has \(Self.shown(next.node))"))
                    continue
                }
                for (offset, element) in elements.enumerated().reversed() {
                    pending.append(
                        Pending(
                            node: element, type: item, selections: next.selections, pointer: next.pointer + "/\(offset)"
                        ))
                }
            case .named(let name):
                guard let named = schema.types[name.value] else { continue }
                if named.kind.isLeaf {
                    // A custom scalar takes any JSON (a `JSON` scalar's objects); the built-in ones
                    // and enums take no list or object.
                    let takesAny = named.kind == .scalar && !Self.builtInScalars.contains(named.name)
                    switch next.node.value {
                    case .array where !takesAny, .object where !takesAny:
                        let message = "`\(named.name)` is a leaf type, but the answer has \(Self.shown(next.node))"
                        problems.append(Problem(kind: .schema, pointer: next.pointer, message: message))
                        continue
                    default: break
                    }
                    if case .failure(let mistake) = GraphQLOutputCoercion.leaf(GraphQLJSON(next.node), as: named) {
                        problems.append(Problem(kind: .schema, pointer: next.pointer, message: mistake.message))
                    }
                    continue
                }
                let found = object(next, as: named, executor: executor)
                problems += found.problems
                pending += found.members.reversed()
            case .nonNull:
                continue
            }
        }
        return Array(problems.prefix(Self.maximumProblems))
    }

    /// An object's problems (not an object, a `__typename` that isn't one of the type's, members
    /// nobody selected, selected fields missing), and its members to look at in turn.
    private func object(
        _ value: Pending, as type: GraphQLNamedType, executor: GraphQLExecutor
    ) -> (problems: [Problem], members: [Pending]) {
        guard case .object(let object) = value.node.value else {
            let message = "`\(type.name)` is an object type, but the answer has \(Self.shown(value.node))"
            return ([Problem(kind: .schema, pointer: value.pointer, message: message)], [])
        }
        // The concrete types the object may be: the one its `__typename` names, else (an
        // abstract type's answer without it) every possible one.
        var candidates = [type]
        if type.kind.isAbstract {
            let possible = schema.possibleTypes[type.name] ?? []
            if case .string(let name)? = object["__typename"]?.value {
                guard possible.contains(name), let named = schema.types[name] else {
                    let message =
                        "`__typename` \"\(name)\" is not a type of `\(type.name)` (\(possible.joined(separator: ", ")))"
                    return ([Problem(kind: .schema, pointer: value.pointer + "/__typename", message: message)], [])
                }
                candidates = [named]
            } else {
                candidates = possible.compactMap { schema.types[$0] }
            }
        }
        let collected = candidates.map { candidate in
            var fields: GraphQLExecutor.CollectedFields = []
            var visited: Set<String> = []
            for selections in value.selections {
                executor.collectFields(candidate, selections, into: &fields, visited: &visited)
            }
            return (type: candidate, fields: fields)
        }
        var problems: [Problem] = []
        var members: [Pending] = []
        let named = candidates.count == 1 ? candidates[0].name : type.name
        for member in object.members {
            let pointer = value.pointer + "/" + Self.escaped(member.key)
            // Every candidate that selects the key: without `__typename` the value may answer any
            // of their selections, so they are checked together.
            let selecting = collected.compactMap { entry -> (definition: GraphQLFieldType, fields: [GraphQLField])? in
                guard let fields = entry.fields.first(where: { $0.key == member.key })?.fields,
                    let first = fields.first, let definition = schema.fieldDefinition(first.name.value, on: entry.type)
                else { return nil }
                return (definition, fields)
            }
            guard let type = selecting.first?.definition.type else {
                let message = "`\(member.key)` is in the answer, but the operation doesn't select it on `\(named)`"
                problems.append(Problem(kind: .unselected, pointer: pointer, message: message))
                continue
            }
            // Types that differ by candidate (mutually exclusive parents may give a key two
            // types): which one answered can't be told, so the value isn't looked into.
            guard selecting.allSatisfy({ $0.definition.type == type }) else { continue }
            members.append(
                Pending(
                    node: member.value, type: type, selections: selecting.flatMap { $0.fields.map(\.selections) },
                    pointer: pointer))
        }
        // Missing: what every candidate selects (an abstract answer without `__typename` may
        // be any of its types, so only what all of them select must be there).
        let required = collected.dropFirst().reduce(Set(collected.first?.fields.map(\.key) ?? [])) {
            $0.intersection($1.fields.map(\.key))
        }
        for entry in collected.first?.fields ?? [] where required.contains(entry.key) && object[entry.key] == nil {
            let message = "the operation selects `\(entry.key)` on `\(named)`, but the answer lacks it"
            problems.append(
                Problem(kind: .missing, pointer: value.pointer + "/" + Self.escaped(entry.key), message: message))
        }
        return (problems, members)
    }

    static let builtInScalars: Set<String> = ["Int", "Float", "String", "Boolean", "ID"]

    /// A value as a message quotes it: a leaf's JSON (cut at 60 characters), else what it is.
    static func shown(_ node: DocumentNode) -> String {
        switch node.value {
        case .array: return "a list"
        case .object: return "an object"
        default:
            let text = GraphQLJSON(node).description
            return text.count > 60 ? String(text.prefix(57)) + "…" : text
        }
    }

    /// A member's name as a step of a JSON pointer (RFC 6901): `~` as `~0`, `/` as `~1`.
    static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}
