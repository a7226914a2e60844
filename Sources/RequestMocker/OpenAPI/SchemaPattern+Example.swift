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
        var scalars = String.UnicodeScalarView()
        // Depth first over the tree, with an explicit stack (the tree may be deep).
        var pending: [Node] = [tree]
        while let node = pending.popLast() {
            switch node {
            case .start, .end: break
            case .set(let set):
                guard let scalar = Self.firstScalar(in: set) else { return nil }
                scalars.append(scalar)
            case .sequence(let nodes): pending.append(contentsOf: nodes.reversed())
            case .alternation(let branches): if let first = branches.first { pending.append(first) }
            case .repetition(let body, let min, _):
                guard min <= 10_000 else { return nil }
                pending.append(contentsOf: Array(repeating: body, count: min))
            }
        }
        let example = String(scalars)
        return matches(example) ? example : nil
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
