/// The rules about a document's own parts: its definitions, names, fragments and variables.
enum DocumentRules {
    /// A request holds operations and fragments only.
    static func executableDefinitions(_ context: inout ValidationContext) {
        for definition in context.document.definitions {
            let name: String
            switch definition {
            case .operation, .fragment: continue
            // A schema extension is named "schema" too, as graphql-js names it.
            case .schema: name = "schema"
            case .type(let type): name = "\"\(type.name.value)\""
            case .directive(let directive): name = "\"@\(directive.name.value)\""
            }
            context.report(
                "The \(name) definition is not executable: a request holds operations and fragments only.",
                at: [definition.offset])
        }
    }

    static func uniqueOperationNames(_ context: inout ValidationContext) {
        reportRepeated(context.document.operations.compactMap(\.name), in: &context) {
            "There can be only one operation named \"\($0)\"."
        }
    }

    static func loneAnonymousOperation(_ context: inout ValidationContext) {
        let operations = context.document.operations
        guard operations.count > 1 else { return }
        for operation in operations where operation.name == nil {
            context.report(
                "This anonymous operation must be the only defined operation: name it, or send it alone.",
                at: [operation.offset])
        }
    }

    static func uniqueFragmentNames(_ context: inout ValidationContext) {
        reportRepeated(context.document.fragments.map(\.name), in: &context) {
            "There can be only one fragment named \"\($0)\"."
        }
    }

    static func knownFragmentNames(_ context: inout ValidationContext) {
        for use in context.spreads where context.fragments[use.spread.name.value] == nil {
            let name = use.spread.name.value
            context.report(
                "Unknown fragment \"\(name)\"." + didYouMean(suggestions(for: name, among: context.fragments.keys)),
                at: [use.spread.name.offset])
        }
    }

    /// Every fragment is spread from an operation, directly or through other fragments.
    static func noUnusedFragments(_ context: inout ValidationContext) {
        var used = Set<String>()
        var pending = context.spreads.filter { use in
            if case .operation = context.document.definitions[use.owner] { true } else { false }
        }.map(\.spread.name.value)
        let spreadsByFragment = Dictionary(grouping: context.spreads) { use -> String in
            if case .fragment(let fragment) = context.document.definitions[use.owner] {
                fragment.name.value
            } else {
                ""
            }
        }
        while let name = pending.popLast() {
            guard used.insert(name).inserted else { continue }
            pending += (spreadsByFragment[name] ?? []).map(\.spread.name.value)
        }
        for fragment in context.document.fragments where !used.contains(fragment.name.value) {
            let name = fragment.name.value
            context.report(
                "Fragment \"\(name)\" is never used: spread it (...\(name)) or remove it.", at: [fragment.offset])
        }
    }

    /// No fragment spreads itself, directly or through others: each cycle is reported once, at
    /// the spreads that make it. A walk with a stack of its own, so a long chain can't exhaust
    /// the thread's.
    static func noFragmentCycles(_ context: inout ValidationContext) {
        var spreadsOf: [String: [GraphQLFragmentSpread]] = [:]
        for use in context.spreads {
            if case .fragment(let fragment) = context.document.definitions[use.owner] {
                spreadsOf[fragment.name.value, default: []].append(use.spread)
            }
        }
        var visited = Set<String>()
        for fragment in context.document.fragments where !visited.contains(fragment.name.value) {
            // The path of spreads from `fragment`, each frame with the index of its next spread.
            var path: [(name: String, next: Int, via: GraphQLFragmentSpread?)] = [(fragment.name.value, 0, nil)]
            var onPath: [String: Int] = [fragment.name.value: 0]
            visited.insert(fragment.name.value)
            while let top = path.last {
                let spreads = spreadsOf[top.name] ?? []
                guard top.next < spreads.count else {
                    onPath[top.name] = nil
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let spread = spreads[top.next]
                let target = spread.name.value
                if let start = onPath[target] {
                    let cycle = path[(start + 1)...].compactMap { $0.via } + [spread]
                    let via = cycle.dropLast().map { "\"\($0.name.value)\"" }
                    context.report(
                        "Cannot spread fragment \"\(target)\" within itself"
                            + (via.isEmpty ? "." : " via \(via.joined(separator: ", "))."),
                        at: cycle.map(\.offset))
                } else if !visited.contains(target), context.fragments[target] != nil {
                    visited.insert(target)
                    onPath[target] = path.count
                    path.append((target, 0, spread))
                }
            }
        }
    }

    static func uniqueVariableNames(_ context: inout ValidationContext) {
        for operation in context.document.operations {
            reportRepeated(operation.variables.map(\.name), in: &context, together: true) {
                "There can be only one variable named \"$\($0)\"."
            }
        }
    }

    static func uniqueArgumentNames(_ context: inout ValidationContext) {
        for arguments in context.argumentLists where arguments.count > 1 {
            reportRepeated(arguments.map(\.name), in: &context, together: true) {
                "There can be only one argument named \"\($0)\"."
            }
        }
    }

    static func uniqueInputFieldNames(_ context: inout ValidationContext) {
        for fields in context.objectValues where fields.count > 1 {
            reportRepeated(fields.map(\.name), in: &context) { "There can be only one input field named \"\($0)\"." }
        }
    }

    /// Reports each name written again after its first, at both places; or, `together`, each
    /// name written more than once in one error at all its places (graphql-js does the one for
    /// operations, fragments and input fields, the other for variables and arguments).
    private static func reportRepeated(
        _ names: [GraphQLName], in context: inout ValidationContext, together: Bool = false,
        _ message: (String) -> String
    ) {
        var first: [String: Int] = [:]
        var places: [(name: String, offsets: [Int])] = []
        for name in names {
            if let earlier = first[name.value] {
                if !together { context.report(message(name.value), at: [earlier, name.offset]) }
            } else {
                first[name.value] = name.offset
            }
            if together {
                if let index = places.firstIndex(where: { $0.name == name.value }) {
                    places[index].offsets.append(name.offset)
                } else {
                    places.append((name.value, [name.offset]))
                }
            }
        }
        for (name, offsets) in places where offsets.count > 1 { context.report(message(name), at: offsets) }
    }

}
