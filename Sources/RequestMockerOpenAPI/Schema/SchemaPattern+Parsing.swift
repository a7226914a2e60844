import RequestMocker

/// Reads a pattern into ``SchemaPattern/Node``s. Groups recurse, at most
/// ``SchemaPattern/maximumNesting`` deep.
struct SchemaPatternParser {
    typealias Node = SchemaPattern.Node
    typealias ScalarSet = SchemaPattern.ScalarSet

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var depth = 0

    init(_ scalars: [Unicode.Scalar]) {
        self.scalars = scalars
    }

    mutating func parse() throws(SchemaPattern.Error) -> Node {
        let node = try alternation()
        if index < scalars.count { throw fail("an unmatched \")\"; remove it or escape it as \\)") }
        return node
    }

    private func fail(_ reason: String, at position: Int? = nil) -> SchemaPattern.Error {
        SchemaPattern.Error(column: (position ?? index) + 1, reason: reason)
    }

    private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private mutating func alternation() throws(SchemaPattern.Error) -> Node {
        var branches = [try sequence()]
        while peek == "|" {
            index += 1
            branches.append(try sequence())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    private mutating func sequence() throws(SchemaPattern.Error) -> Node {
        var nodes: [Node] = []
        while let scalar = peek, scalar != "|", scalar != ")" {
            var node = try term()
            let quantifierStart = index
            if let (min, max) = try quantifier() {
                switch node {
                case .start, .end: throw fail("\"^\" and \"$\" can't be repeated", at: quantifierStart)
                default: node = .repetition(node, min: min, max: max)
                }
            }
            nodes.append(node)
        }
        return nodes.count == 1 ? nodes[0] : .sequence(nodes)
    }

    private mutating func term() throws(SchemaPattern.Error) -> Node {
        let start = index
        let scalar = scalars[index]
        index += 1
        switch scalar {
        case "^": return .start
        case "$": return .end
        case ".": return .set(.dot)
        case "\\": return .set(try escape(inClass: false))
        case "[": return .set(try characterClass())
        case "(": return try group(openedAt: start)
        case "*", "+", "?": throw fail("\"\(scalar)\" has nothing to repeat; escape it as \\\(scalar)", at: start)
        case "{" where isQuantifier(from: start):
            throw fail("a quantifier has nothing to repeat", at: start)
        default: return .set(ScalarSet(ranges: [scalar.value...scalar.value]))
        }
    }

    private mutating func group(openedAt start: Int) throws(SchemaPattern.Error) -> Node {
        if peek == "?" {
            let next = index + 1 < scalars.count ? scalars[index + 1] : nil
            if next == ":" {
                index += 2
            } else if next == "<", index + 2 < scalars.count, scalars[index + 2] != "=", scalars[index + 2] != "!" {
                // A named group: the name doesn't change what matches.
                guard let close = scalars[index...].firstIndex(of: ">") else {
                    throw fail("a group name without \">\"")
                }
                index = close + 1
            } else {
                throw fail(
                    "look-arounds and group flags (\"(?\(next.map(String.init) ?? "")\") aren't read; "
                        + "write the pattern "
                        + "without them", at: start)
            }
        }
        depth += 1
        defer { depth -= 1 }
        guard depth <= SchemaPattern.maximumNesting else {
            throw fail("groups nested deeper than \(SchemaPattern.maximumNesting)", at: start)
        }
        let inside = try alternation()
        guard peek == ")" else { throw fail("a \"(\" without its \")\"", at: start) }
        index += 1
        return inside
    }

    /// A quantifier after a term, if there is one: its bounds (`nil` for no upper bound).
    private mutating func quantifier() throws(SchemaPattern.Error) -> (Int, Int?)? {
        guard let scalar = peek else { return nil }
        let bounds: (Int, Int?)
        switch scalar {
        case "*": bounds = (0, nil)
        case "+": bounds = (1, nil)
        case "?": bounds = (0, 1)
        case "{" where isQuantifier(from: index):
            let start = index
            index += 1
            let min = number() ?? 0
            var max: Int? = min
            if peek == "," {
                index += 1
                max = number()
            }
            index += 1  // "}"
            if let max, max < min { throw fail("{\(min),\(max)}: the larger number comes second", at: start) }
            bounds = (min, max)
            if peek == "?" { index += 1 }
            return bounds
        default: return nil
        }
        index += 1
        // A lazy quantifier matches the same values.
        if peek == "?" { index += 1 }
        return bounds
    }

    /// Whether `{` at `position` starts `{n}`, `{n,}` or `{n,m}` (else it is a literal `{`).
    private func isQuantifier(from position: Int) -> Bool {
        var cursor = position + 1
        func digits() -> Bool {
            let first = cursor
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) { cursor += 1 }
            return cursor > first
        }
        guard digits() else { return false }
        if cursor < scalars.count, scalars[cursor] == "," {
            cursor += 1
            _ = digits()
        }
        return cursor < scalars.count && scalars[cursor] == "}"
    }

    /// A decimal number, capped so that it can't overflow (the program's size limit refuses
    /// a large one later).
    private mutating func number() -> Int? {
        var value: Int?
        while let scalar = peek, ("0"..."9").contains(scalar) {
            value = min((value ?? 0) * 10 + Int(scalar.value - 0x30), 1_000_000)
            index += 1
        }
        return value
    }

    private mutating func characterClass() throws(SchemaPattern.Error) -> ScalarSet {
        let start = index - 1
        var set = ScalarSet()
        if peek == "^" {
            set.negated = true
            index += 1
        }
        var first = true
        while true {
            guard let scalar = peek else { throw fail("a \"[\" without its \"]\"", at: start) }
            if scalar == "]", !first { break }
            first = false
            let low = try classAtom()
            if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
                index += 1
                let high = try classAtom()
                guard let lower = low.single, let upper = high.single else {
                    throw fail("a range between classes, such as [\\d-z]; escape the \"-\"")
                }
                guard lower <= upper else { throw fail("a range out of order; write the smaller end first") }
                set.ranges.append(lower...upper)
            } else if let complement = low.complement {
                set.complements.append(complement)
            } else {
                set.ranges += low.ranges
            }
        }
        index += 1
        return set
    }

    /// One member of a class: a scalar (`single`), an escape's ranges, or the ranges a negated
    /// escape (`\S`) leaves out.
    private mutating func classAtom() throws(SchemaPattern.Error) -> (
        single: UInt32?, ranges: [ClosedRange<UInt32>], complement: [ClosedRange<UInt32>]?
    ) {
        let scalar = scalars[index]
        index += 1
        guard scalar == "\\" else { return (scalar.value, [scalar.value...scalar.value], nil) }
        let set = try escape(inClass: true)
        if set.negated { return (nil, [], set.ranges) }
        if set.ranges.count == 1, set.ranges[0].count == 1 { return (set.ranges[0].lowerBound, set.ranges, nil) }
        return (nil, set.ranges, nil)
    }

    /// The escape after a backslash.
    private mutating func escape(inClass: Bool) throws(SchemaPattern.Error) -> ScalarSet {
        guard let scalar = peek else { throw fail("a \"\\\" at the end of the pattern; write \\\\ for a backslash") }
        let start = index - 1
        index += 1
        func single(_ value: UInt32) -> ScalarSet { ScalarSet(ranges: [value...value]) }
        switch scalar {
        case "d": return .digits
        case "w": return .word
        case "s": return .space
        case "D", "W", "S":
            var set: ScalarSet = scalar == "D" ? .digits : scalar == "W" ? .word : .space
            set.negated = true
            return set
        case "t": return single(0x09)
        case "n": return single(0x0A)
        case "v": return single(0x0B)
        case "f": return single(0x0C)
        case "r": return single(0x0D)
        case "0": return single(0)
        case "b" where inClass: return single(0x08)
        case "b", "B": throw fail("word boundaries (\\\(scalar)) aren't read", at: start)
        case "1"..."9": throw fail("back-references (\\\(scalar)) aren't read", at: start)
        case "x", "u":
            let count = scalar == "x" ? 2 : 4
            guard index + count <= scalars.count,
                let value = UInt32(String(String.UnicodeScalarView(scalars[index..<index + count])), radix: 16)
            else { throw fail("\\\(scalar) needs \(count) hex digits", at: start) }
            index += count
            return single(value)
        default:
            guard !(("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)) else {
                throw fail("the escape \\\(scalar) isn't read", at: start)
            }
            return single(scalar.value)
        }
    }
}
