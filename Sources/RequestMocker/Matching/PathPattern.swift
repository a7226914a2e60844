/// A URL path pattern: literal segments, `*`, `**` and named variables.
///
/// The rules (DESIGN.md's matching contract):
/// - The request's percent-encoded path is split on `/` and each segment percent-decoded;
///   leading and trailing slashes are ignored, and an empty path equals `/`.
/// - A literal segment matches itself exactly (case-sensitive). Literals in the pattern may be
///   written decoded (`a b`) or encoded (`a%20b`).
/// - `*` matches exactly one segment; a pattern that is only `*` matches every path.
/// - `**` matches zero or more segments.
/// - `<name>` matches one segment and captures it, decoded, under `name`; `{name}` and
///   `${name}` are other spellings of the same thing.
/// - Otherwise the number of segments must be equal: `/user/<id>/delete` does **not** match
///   `/user/12345`: there is no prefix matching (end a pattern with `**` to match deeper paths).
///
/// A string literal builds a pattern; an invalid literal does not crash: the filter that holds
/// it fails every request that reaches it with ``PathPatternError``. Use
/// ``init(validating:)`` to check a pattern that comes from input.
///
/// ```swift
/// let pattern: PathPattern = "/users/<id>/posts/*"
/// pattern.match("/users/42/posts/7")?["id"]   // "42"
/// try PathPattern(validating: "/users/<id")   // throws: unbalanced "<" at column 8
/// ```
public struct PathPattern: Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    enum Segment: Hashable, Sendable {
        case literal(String)
        case any
        case anyDepth
        case variable(String)
    }

    /// The pattern as written.
    public let rawValue: String
    let segments: [Segment]
    /// Why the pattern is invalid, or `nil` when it is valid.
    public let error: PathPatternError?

    /// Parses a pattern, throwing when it is invalid.
    ///
    /// - Throws: ``PathPatternError`` quoting the pattern and the column of the mistake.
    public init(validating pattern: String) throws {
        self.init(pattern)
        if let error { throw error }
    }

    /// Parses a pattern; an invalid one is kept with its ``error`` set and matches nothing.
    public init(_ pattern: String) {
        rawValue = pattern
        switch Self.parse(pattern) {
        case .success(let segments):
            self.segments = segments
            error = nil
        case .failure(let error):
            segments = []
            self.error = error
        }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { rawValue }

    /// Whether two patterns match the same paths by the same rules: equal segments, whatever
    /// the slashes around them; invalid patterns are the same only when written the same.
    func isSame(as other: PathPattern) -> Bool {
        if error != nil || other.error != nil { return rawValue == other.rawValue }
        return segments == other.segments
    }

    /// Whether the pattern is a lone `*`, which matches every path (checked without building an
    /// array, since it runs for every request a filter sees).
    private var matchesEveryPath: Bool {
        segments.count == 1 && segments[0] == .any
    }

    /// The names of the variables, in order.
    public var variableNames: [String] {
        segments.compactMap { if case .variable(let name) = $0 { name } else { nil } }
    }

    /// Matches a percent-encoded path, returning the captured variables, or `nil` on a miss.
    public func match(_ encodedPath: String) -> Captures? {
        match(segments: Self.segments(ofEncodedPath: encodedPath))
    }

    func match(segments path: [String]) -> Captures? {
        guard error == nil else { return nil }
        if matchesEveryPath { return Captures() }
        var captures = Captures()
        return Self.match(segments, path, &captures) ? captures : nil
    }

    /// Why `path` does not match, in words, or `nil` when it does.
    func mismatch(segments path: [String]) -> String? {
        if let error { return error.description }
        if match(segments: path) != nil { return nil }
        let shown = "/" + path.joined(separator: "/")
        if !segments.contains(.anyDepth), segments.count != path.count {
            return "path \(shown) has \(path.count) segment\(path.count == 1 ? "" : "s"), "
                + "pattern \(rawValue) has \(segments.count)"
        }
        for (index, (segment, actual)) in zip(segments, path).enumerated() {
            if case .literal(let literal) = segment, literal != actual {
                return "path segment \(index + 1) is \"\(actual)\", pattern \(rawValue) wants \"\(literal)\""
            }
            if segment == .anyDepth { break }
        }
        return "path \(shown) does not match pattern \(rawValue)"
    }

    /// Matches without recursion, in at most (pattern segments × path segments) steps.
    ///
    /// Every segment but `**` takes exactly one path segment, so this is glob matching with
    /// one star to come back to: when the segments after the latest `**` fail, that `**`
    /// takes one more path segment and they are tried again. Earlier `**`s never need to take
    /// more (the latest one can absorb anything they would), so each `**` takes as few segments
    /// as it can, and captures come from that leftmost match.
    private static func match(_ pattern: [Segment], _ path: [String], _ captures: inout Captures) -> Bool {
        var next = 0  // in the pattern
        var position = 0  // in the path
        // The latest `**`: where it is, where the path stood after it, and the captures then.
        var star: (segment: Int, position: Int, captured: Int)?
        while position < path.count {
            if next < pattern.count {
                switch pattern[next] {
                case .anyDepth:
                    star = (next, position, captures.pairs.count)
                    next += 1
                    continue
                case .literal(let literal) where literal == path[position]:
                    next += 1
                    position += 1
                    continue
                case .any:
                    next += 1
                    position += 1
                    continue
                case .variable(let name):
                    captures.append(name, path[position])
                    next += 1
                    position += 1
                    continue
                case .literal:
                    break
                }
            }
            // A mismatch, or pattern left over: the latest `**` takes one more segment.
            guard let latest = star else { return false }
            star = (latest.segment, latest.position + 1, latest.captured)
            next = latest.segment + 1
            position = latest.position + 1
            captures.removeLast(captures.pairs.count - latest.captured)
        }
        // The path is used up: only `**`s may remain, each taking nothing.
        return pattern[next...].allSatisfy { $0 == .anyDepth }
    }

    package static func segments(ofEncodedPath path: String) -> [String] {
        // Runs for every request, so it walks the UTF-8 bytes instead of splitting Substrings.
        let bytes = path.utf8
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, bytes[lower] == UInt8(ascii: "/") { lower = bytes.index(after: lower) }
        while upper > lower, bytes[bytes.index(before: upper)] == UInt8(ascii: "/") {
            upper = bytes.index(before: upper)
        }
        guard lower < upper else { return [] }
        var segments: [String] = []
        segments.reserveCapacity(1 + bytes[lower..<upper].count { $0 == UInt8(ascii: "/") })
        var start = lower
        var hasEscape = false
        var index = lower
        while true {
            if index == upper || bytes[index] == UInt8(ascii: "/") {
                let segment = String(decoding: bytes[start..<index], as: UTF8.self)
                segments.append(hasEscape ? (segment.removingPercentEncoding ?? segment) : segment)
                guard index < upper else { return segments }
                start = bytes.index(after: index)
                hasEscape = false
            } else if bytes[index] == UInt8(ascii: "%") {
                hasEscape = true
            }
            index = bytes.index(after: index)
        }
    }

    /// Where a filter with this pattern, for `host` (or any host), goes in the registry's index.
    func indexKey(host: String?) -> FilterIndex.Key {
        if error != nil || segments.contains(.anyDepth) || matchesEveryPath { return .general(host: host) }
        var positions: [Int] = []
        var literals: [String] = []
        for (position, segment) in segments.enumerated() {
            if case .literal(let literal) = segment {
                positions.append(position)
                literals.append(literal)
            }
        }
        return .shape(.init(host: host, count: segments.count, literalPositions: positions, literals: literals))
    }
}

// MARK: - Parsing

extension PathPattern {
    /// The most segments a pattern may have: far more than any route, and a bound on the work
    /// one match can take.
    public static let maximumSegments = 256

    private static func parse(_ pattern: String) -> Result<[Segment], PathPatternError> {
        let characters = Array(pattern)
        // The same trimming as for request paths: leading and trailing slashes don't count.
        var lower = 0
        var upper = characters.count
        while lower < upper, characters[lower] == "/" { lower += 1 }
        while upper > lower, characters[upper - 1] == "/" { upper -= 1 }
        var segments: [Segment] = []
        var names: Set<String> = []
        var start = lower
        while start < upper {
            guard segments.count < maximumSegments else {
                return .failure(
                    PathPatternError(
                        pattern: pattern, column: start + 1,
                        reason: "the pattern has more than \(maximumSegments) segments; use ** for any depth"))
            }
            var end = start
            while end < upper, characters[end] != "/" { end += 1 }
            switch parseSegment(String(characters[start..<end])) {
            case .success(let segment):
                if case .variable(let name) = segment, !names.insert(name).inserted {
                    return .failure(
                        PathPatternError(
                            pattern: pattern,
                            column: start + 1,
                            reason: "variable \"\(name)\" appears twice; give each variable its own name"
                        ))
                }
                segments.append(segment)
            case .failure(let problem):
                return .failure(
                    PathPatternError(pattern: pattern, column: start + problem.offset + 1, reason: problem.reason))
            }
            start = end + 1
        }
        return .success(segments)
    }

    private struct SegmentProblem: Error {
        let offset: Int
        let reason: String
    }

    private static func parseSegment(_ text: String) -> Result<Segment, SegmentProblem> {
        let characters = Array(text)
        if text == "*" { return .success(.any) }
        if text == "**" { return .success(.anyDepth) }
        if let star = characters.firstIndex(of: "*") {
            return .failure(SegmentProblem(offset: star, reason: "\"*\" and \"**\" must be a whole segment"))
        }
        let (open, close, nameStart): (Character?, Character, Int) =
            text.hasPrefix("${")
            ? ("{", "}", 2) : text.hasPrefix("{") ? ("{", "}", 1) : text.hasPrefix("<") ? ("<", ">", 1) : (nil, ">", 0)
        guard open != nil else {
            if let bracket = characters.firstIndex(where: { "<>{}".contains($0) }) {
                return .failure(
                    SegmentProblem(
                        offset: bracket,
                        reason:
                            "\"\(characters[bracket])\" inside a segment: "
                            + "a variable must be a whole segment, like <name>"
                    ))
            }
            return .success(.literal(text.contains("%") ? (text.removingPercentEncoding ?? text) : text))
        }
        guard let closeIndex = characters.firstIndex(of: close) else {
            return .failure(
                SegmentProblem(
                    offset: nameStart - 1,
                    reason: "unbalanced \"\(characters[nameStart - 1])\": close the variable with \"\(close)\""
                ))
        }
        guard closeIndex == characters.count - 1 else {
            return .failure(
                SegmentProblem(
                    offset: closeIndex + 1,
                    reason: "text after \"\(close)\": a variable must be a whole segment"
                ))
        }
        let name = String(characters[nameStart..<closeIndex])
        if name.isEmpty {
            return .failure(
                SegmentProblem(offset: nameStart, reason: "empty variable name: write a name between the brackets"))
        }
        if let bad = name.firstIndex(where: { !($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == ".") }) {
            let offset = nameStart + name.distance(from: name.startIndex, to: bad)
            return .failure(
                SegmentProblem(
                    offset: offset,
                    reason: "\"\(name[bad])\" in variable name \"\(name)\": use letters, digits, \"_\", \"-\" or \".\""
                ))
        }
        return .success(.variable(name))
    }
}

extension PathPatternError: LocalizedError {
    public var errorDescription: String? { description }
}
