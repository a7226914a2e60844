import RequestMocker

/// A JSON Schema `pattern`: the ECMA-262 regular expressions contracts write, read by our own
/// small engine so that a check never takes more than linear time, whatever a request sends, and
/// so that a value can be made to match it.
///
/// Read: literals and escapes (`\d \w \s` and their negations, `\t \n \r \f \v \0`, `\xHH`,
/// `\uHHHH`, an escaped punctuation character), `.`, classes with ranges and negation, groups
/// (`( )`, `(?: )`, `(?<name> )`), alternation, the quantifiers `* + ? {n} {n,} {n,m}` (lazy or not:
/// it doesn't change whether a value matches), and `^` and `$`. Refused, with the column:
/// back-references, look-arounds, `\b`, and flags, which JSON Schema doesn't have.
///
/// Matching is a search, as JSON Schema says (`^` and `$` anchor it); it runs a Pike machine, so
/// its time grows with the value's length times the pattern's size, never more.
package struct SchemaPattern: Sendable {
    /// A pattern that can't be read: where, and why.
    package struct Error: Swift.Error, Sendable, Equatable {
        /// The 1-based position in the pattern, counted in characters.
        package let column: Int
        package let reason: String

        package init(column: Int, reason: String) {
            self.column = column
            self.reason = reason
        }
    }

    /// A set of Unicode scalar values: ranges, and the complements of others (`\S` in `[\s\S]`),
    /// possibly negated as a whole.
    struct ScalarSet: Sendable, Equatable {
        var ranges: [ClosedRange<UInt32>] = []
        /// Each lists ranges whose scalars it leaves out; every other scalar is in the set.
        var complements: [[ClosedRange<UInt32>]] = []
        var negated = false

        func contains(_ scalar: Unicode.Scalar) -> Bool {
            let value = scalar.value
            let member =
                ranges.contains { $0.contains(value) }
                || complements.contains { excluded in !excluded.contains { $0.contains(value) } }
            return member != negated
        }

        static let digits = ScalarSet(ranges: [0x30...0x39])
        static let word = ScalarSet(ranges: [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
        static let space = ScalarSet(ranges: [
            0x09...0x0D, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680, 0x2000...0x200A, 0x2028...0x2029,
            0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000, 0xFEFF...0xFEFF,
        ])
        /// `.`: anything but a line terminator.
        static let dot = ScalarSet(ranges: [0x0A...0x0A, 0x0D...0x0D, 0x2028...0x2029], negated: true)
    }

    /// The pattern's structure.
    indirect enum Node: Sendable, Equatable {
        case set(ScalarSet)
        case sequence([Node])
        case alternation([Node])
        case repetition(Node, min: Int, max: Int?)
        case start
        case end
    }

    /// One step of the compiled program.
    enum Instruction: Sendable {
        case scalar(ScalarSet)
        case split(Int, Int)
        case jump(Int)
        case assertStart
        case assertEnd
        case match
    }

    /// The pattern as written.
    package let pattern: String
    let tree: Node
    /// Whether every match starts at the value's start (`^…` outside any group): then threads
    /// start only there, and a match fails as soon as none is left.
    private let isAnchoredAtStart: Bool
    /// For a pattern that is one class per character between `^` and `$` (`^CA[0-9a-f]{32}$`,
    /// most of a real contract's), those classes: a value matches when it has as many
    /// characters, each in its class, which is checked without the machine.
    private let fixedSets: [ScalarSet]?
    let program: [Instruction]

    /// How large a compiled pattern may be: `{n,m}` copies what it repeats, so a short pattern
    /// can ask for a large program.
    static let maximumProgram = 20_000
    /// How deeply groups may nest.
    static let maximumNesting = 64

    /// Reads `pattern`.
    ///
    /// - Throws: ``Error`` with the column of what can't be read.
    package init(_ pattern: String) throws(Error) {
        self.pattern = pattern
        var parser = SchemaPatternParser(Array(pattern.unicodeScalars))
        tree = try parser.parse()
        switch tree {
        case .start: isAnchoredAtStart = true
        case .sequence(let nodes): isAnchoredAtStart = nodes.first == .start
        default: isAnchoredAtStart = false
        }
        var program: [Instruction] = []
        try Self.compile(tree, into: &program)
        program.append(.match)
        self.program = program
        var sets: [ScalarSet] = []
        var isFixed = program.count >= 3
        for (index, instruction) in program.enumerated() {
            switch (instruction, index) {
            case (.assertStart, 0): continue
            case (.assertEnd, program.count - 2), (.match, program.count - 1): continue
            case (.scalar(let set), _) where index > 0 && index < program.count - 2: sets.append(set)
            default: isFixed = false
            }
        }
        fixedSets = isFixed ? sets : nil
    }

    /// Whether `text` contains a match.
    package func matches(_ text: String) -> Bool {
        if let fixedSets {
            var index = 0
            for scalar in text.unicodeScalars {
                guard index < fixedSets.count, fixedSets[index].contains(scalar) else { return false }
                index += 1
            }
            return index == fixedSets.count
        }
        // The scalars are read in order, once each, without copying them out.
        let length = text.unicodeScalars.count
        var scalars = text.unicodeScalars.makeIterator()
        // The threads waiting before the scalar at `position`, each at most once.
        var current = ThreadList(capacity: program.count)
        var next = ThreadList(capacity: program.count)
        var pending: [Int] = []
        pending.reserveCapacity(program.count)
        var position = 0
        while true {
            // A search: a new thread starts at every position (only the first, when anchored).
            if position == 0 || !isAnchoredAtStart {
                if add(0, to: &current, at: position, length: length, pending: &pending) { return true }
            } else if current.count == 0 {
                return false
            }
            guard let scalar = scalars.next() else { break }
            next.clear()
            for index in 0..<current.count {
                let pc = current.slots[index]
                if case .scalar(let set) = program[pc], set.contains(scalar) {
                    if add(pc + 1, to: &next, at: position + 1, length: length, pending: &pending) { return true }
                }
            }
            swap(&current, &next)
            position += 1
        }
        return false
    }

    /// Adds the thread at `pc` and every thread it reaches without reading (splits, jumps,
    /// assertions that hold at `position`); returns whether one of them is a match.
    private func add(
        _ pc: Int, to list: inout ThreadList, at position: Int, length: Int, pending: inout [Int]
    ) -> Bool {
        pending.removeAll(keepingCapacity: true)
        pending.append(pc)
        while let pc = pending.popLast() {
            guard list.insert(pc) else { continue }
            switch program[pc] {
            case .match: return true
            case .jump(let target): pending.append(target)
            case .split(let first, let second): pending.append(contentsOf: [second, first])
            case .assertStart: if position == 0 { pending.append(pc + 1) }
            case .assertEnd: if position == length { pending.append(pc + 1) }
            case .scalar: break
            }
        }
        return false
    }

    /// The threads of one step: their program counters in the order added, each once.
    private struct ThreadList {
        /// The first `count` are the list; the array keeps its size, so adding never grows it.
        private(set) var slots: [Int]
        private(set) var count = 0
        private var present: [Bool]

        init(capacity: Int) {
            present = Array(repeating: false, count: capacity)
            slots = Array(repeating: 0, count: capacity)
        }

        mutating func insert(_ pc: Int) -> Bool {
            guard !present[pc] else { return false }
            present[pc] = true
            slots[count] = pc
            count += 1
            return true
        }

        mutating func clear() {
            for index in 0..<count { present[slots[index]] = false }
            count = 0
        }
    }

    private static func compile(_ node: Node, into program: inout [Instruction]) throws(Error) {
        guard program.count < maximumProgram else {
            throw Error(column: 1, reason: "the pattern repeats too much to check (over \(maximumProgram) steps)")
        }
        switch node {
        case .set(let set): program.append(.scalar(set))
        case .start: program.append(.assertStart)
        case .end: program.append(.assertEnd)
        case .sequence(let nodes):
            for node in nodes { try compile(node, into: &program) }
        case .alternation(let branches):
            var jumps: [Int] = []
            for (index, branch) in branches.enumerated() {
                if index < branches.count - 1 {
                    let split = program.count
                    program.append(.split(split + 1, 0))
                    try compile(branch, into: &program)
                    jumps.append(program.count)
                    program.append(.jump(0))
                    program[split] = .split(split + 1, program.count)
                } else {
                    try compile(branch, into: &program)
                }
            }
            for jump in jumps { program[jump] = .jump(program.count) }
        case .repetition(let body, let min, let max):
            for _ in 0..<min { try compile(body, into: &program) }
            if let max {
                // Each optional copy may be skipped, which skips the rest too.
                var splits: [Int] = []
                for _ in min..<max {
                    splits.append(program.count)
                    program.append(.split(program.count + 1, 0))
                    try compile(body, into: &program)
                }
                for split in splits { program[split] = .split(split + 1, program.count) }
            } else {
                let loop = program.count
                program.append(.split(loop + 1, 0))
                try compile(body, into: &program)
                program.append(.jump(loop))
                program[loop] = .split(loop + 1, program.count)
            }
        }
    }
}
