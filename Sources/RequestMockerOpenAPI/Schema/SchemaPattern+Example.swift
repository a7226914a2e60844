import RequestMocker

extension SchemaPattern {
    /// The characters an example prefers, in order, where a class allows them: a value reads
    /// better as `AC000…` than as `AC\u{0}…`.
    private static let preferred: [Unicode.Scalar] = Array("a0A_-.:/ bB1".unicodeScalars)

    /// A short value that matches, the same every time: each class gives its first preferred
    /// character, each repetition its fewest copies, each alternation its first branch. `nil`
    /// when that value doesn't match (an anchor in the middle of the pattern, say).
    ///
    /// ```swift
    /// try SchemaPattern("^CA[0-9a-fA-F]{32}$").example  // "CA" and 32 "a"s
    /// ```
    package var example: String? {
        var none: SeededRandom?
        return example(minimumLength: 0, random: &none)
    }

    /// A value that matches and is at least `minimumLength` characters long where the pattern
    /// allows it: repetitions that may repeat more do, the first ones first. With `random`,
    /// classes, alternations and extra repetitions are drawn from it; without, the value is
    /// ``example``'s. `nil` when the value made doesn't match.
    func example(minimumLength: Int, random: inout SeededRandom?) -> String? {
        var scalars = String.UnicodeScalarView()
        var missing = minimumLength - minimumScalarCount
        // Depth first over the tree, with an explicit stack (the tree may be deep).
        var pending: [Node] = [tree]
        while let node = pending.popLast() {
            switch node {
            case .start, .end: break
            case .set(let set):
                guard let scalar = random.map({ _ in Self.randomScalar(in: set, &random) }) ?? Self.firstScalar(in: set)
                else { return nil }
                scalars.append(scalar)
            case .sequence(let nodes): pending.append(contentsOf: nodes.reversed())
            case .alternation(let branches):
                if random != nil, let index = random?.int(in: 0...max(branches.count - 1, 0)), !branches.isEmpty {
                    pending.append(branches[index])
                } else if let first = branches.first {
                    pending.append(first)
                }
            case .repetition(let body, let min, let max):
                let room = (max ?? Int.max) - min
                var extra = Swift.max(0, Swift.min(missing, room))
                if extra == 0, room > 0, random != nil { extra = random?.int(in: 0...Swift.min(room, 3)) ?? 0 }
                missing -= extra
                guard min + extra <= 10_000 else { return nil }
                pending.append(contentsOf: Array(repeating: body, count: min + extra))
            }
        }
        let example = String(scalars)
        return matches(example) ? example : nil
    }

    /// How many scalars the shortest value has: each repetition at its fewest, each
    /// alternation at its first branch (an estimate the length target starts from).
    private var minimumScalarCount: Int {
        var count = 0
        var pending: [(node: Node, times: Int)] = [(tree, 1)]
        while let (node, times) = pending.popLast(), count < 1_000_000 {
            switch node {
            case .start, .end: break
            case .set: count += times
            case .sequence(let nodes): pending.append(contentsOf: nodes.map { ($0, times) })
            case .alternation(let branches): if let first = branches.first { pending.append((first, times)) }
            case .repetition(let body, let min, _):
                pending.append((body, Swift.min(times, 1_000_000) * Swift.min(min, 10_000)))
            }
        }
        return count
    }

    /// A scalar of `set` drawn from `random`: printable ASCII it allows, else its first one.
    private static func randomScalar(in set: ScalarSet, _ random: inout SeededRandom?) -> Unicode.Scalar? {
        let printable = (0x21...0x7E).compactMap(Unicode.Scalar.init).filter(set.contains)
        return random?.element(of: printable) ?? firstScalar(in: set)
    }

    /// The first scalar `set` allows: a preferred one, else the lowest printable one.
    static func firstScalar(in set: ScalarSet) -> Unicode.Scalar? {
        if let preferred = preferred.first(where: set.contains) { return preferred }
        // The lowest printable start of a range, then any scalar the set has.
        let starts = set.ranges.map { max($0.lowerBound, 0x21) }.sorted().compactMap(Unicode.Scalar.init)
        if let start = starts.first(where: set.contains) { return start }
        return (0...0x10FFFF).lazy.compactMap(Unicode.Scalar.init).first(where: set.contains)
    }
}
