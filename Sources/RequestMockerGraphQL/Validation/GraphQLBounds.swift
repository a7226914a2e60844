/// How much each operation of a document asks for once its fragments are spread: its fields,
/// its aliases and its nesting depth, worked out without spreading anything. Each fragment is
/// measured once, from what its own selections hold and the fragments it spreads, so a fragment
/// that spreads another twice, forty levels deep (2⁴⁰ fields), is measured in forty steps and
/// refused before anything is expanded.
enum GraphQLBounds {
    /// What one selection set holds, its spreads aside: fields, aliases, depth, and each spread
    /// with the depth it is spread at.
    private struct Measure {
        var fields = 0
        var aliases = 0
        var depth = 0
        var spreads: [(name: String, depth: Int)] = []
    }

    /// What a fragment (or an operation) holds once spread, saturating at `Int.max`.
    private struct Totals {
        var fields = 0
        var aliases = 0
        var depth = 0
    }

    /// The first bound an operation of `document` passes, as a request error; `nil` when every
    /// operation is within `limits`.
    static func check(_ document: GraphQLDocument, limits: GraphQLLimits) -> GraphQLError? {
        var measures: [String: Measure] = [:]
        for fragment in document.fragments where measures[fragment.name.value] == nil {
            measures[fragment.name.value] = measure(fragment.selections)
        }
        let totals = fragmentTotals(measures)
        for operation in document.operations {
            let sum = total(of: measure(operation.selections), spreading: totals)
            let place = [document.source.location(of: operation.offset)]
            let name = operation.name.map { "The operation \"\($0.value)\"" } ?? "The operation"
            if sum.depth > limits.depth {
                return GraphQLError(
                    "\(name) nests \(sum.depth) levels deep; at most \(limits.depth) are answered. Ask for less at "
                        + "once.", at: place)
            }
            if sum.fields > limits.fields {
                return GraphQLError(
                    "\(name) asks for \(sum.fields == .max ? "more than \(Int32.max)" : String(sum.fields)) fields "
                        + "once its fragments are spread; at most \(limits.fields) are answered. Ask for less at once.",
                    at: place)
            }
            if sum.aliases > limits.aliases {
                return GraphQLError(
                    "\(name) uses \(sum.aliases == .max ? "more than \(Int32.max)" : String(sum.aliases)) aliases "
                        + "once its fragments are spread; at most \(limits.aliases) are answered.", at: place)
            }
        }
        return nil
    }

    /// What `selections` hold, their spreads aside (recursive as deep as the document nests,
    /// which the parser bounds).
    private static func measure(_ selections: [GraphQLSelection], at level: Int = 1) -> Measure {
        var result = Measure(depth: selections.isEmpty ? 0 : level)
        for selection in selections {
            switch selection {
            case .field(let field):
                result.fields = adding(result.fields, 1)
                if field.alias != nil { result.aliases = adding(result.aliases, 1) }
                guard !field.selections.isEmpty else { continue }
                let inner = measure(field.selections, at: level + 1)
                result.fields = adding(result.fields, inner.fields)
                result.aliases = adding(result.aliases, inner.aliases)
                result.depth = max(result.depth, inner.depth)
                result.spreads += inner.spreads
            case .inlineFragment(let fragment):
                let inner = measure(fragment.selections, at: level)
                result.fields = adding(result.fields, inner.fields)
                result.aliases = adding(result.aliases, inner.aliases)
                result.depth = max(result.depth, inner.depth)
                result.spreads += inner.spreads
            case .fragmentSpread(let spread):
                result.spreads.append((spread.name.value, level - 1))
            }
        }
        return result
    }

    /// Each fragment's totals, the fragments it spreads first (an explicit stack, not recursion:
    /// a chain of spreads may be as long as the document allows). A spread that leads back to a
    /// fragment under way (a cycle, which validation refuses) adds nothing.
    private static func fragmentTotals(_ measures: [String: Measure]) -> [String: Totals] {
        var totals: [String: Totals] = [:]
        var underWay: Set<String> = []
        for start in measures.keys where totals[start] == nil {
            var stack: [(name: String, next: Int)] = [(start, 0)]
            underWay.insert(start)
            while let top = stack.last {
                let measure = measures[top.name] ?? Measure()
                if top.next < measure.spreads.count {
                    stack[stack.count - 1].next += 1
                    let spread = measure.spreads[top.next].name
                    if totals[spread] == nil, measures[spread] != nil, !underWay.contains(spread) {
                        underWay.insert(spread)
                        stack.append((spread, 0))
                    }
                    continue
                }
                totals[top.name] = total(of: measure, spreading: totals)
                underWay.remove(top.name)
                stack.removeLast()
            }
        }
        return totals
    }

    /// What `measure` holds with the fragments it spreads (those in `totals`; another adds
    /// nothing).
    private static func total(of measure: Measure, spreading totals: [String: Totals]) -> Totals {
        var sum = Totals(fields: measure.fields, aliases: measure.aliases, depth: measure.depth)
        for spread in measure.spreads {
            let spreadTotals = totals[spread.name] ?? Totals()
            sum.fields = adding(sum.fields, spreadTotals.fields)
            sum.aliases = adding(sum.aliases, spreadTotals.aliases)
            sum.depth = max(sum.depth, adding(spread.depth, spreadTotals.depth))
        }
        return sum
    }

    private static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
