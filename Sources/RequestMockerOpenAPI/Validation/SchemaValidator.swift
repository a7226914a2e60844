import Foundation
import RequestMocker

/// Checks a JSON value against a compiled ``Schema``: the keywords OpenAPI contracts use, with
/// a pointer, a keyword and a message for each violation.
///
/// It recurses with the value and the schemas' combinators, at most ``maximumDepth`` levels
/// (a value nested deeper is reported, not checked further), so it fits the smallest thread
/// stack the library runs on. A schema met again for the same value without getting deeper
/// into it (`allOf: [{$ref: itself}]`) adds nothing and is not checked again, and a check takes
/// at most ``maximumSteps`` steps, whatever the schemas' `anyOf`s multiply to. A `pattern` is
/// checked on at most 64 KiB of a string.
package struct SchemaValidator {
    /// Whether the value is sent to the API (a `readOnly` property is then not required) or
    /// answered by it (a `writeOnly` one is not).
    package enum Direction: Sendable {
        case request
        case response
    }

    /// One way the value breaks its schema.
    package struct Violation: Sendable, Equatable, CustomStringConvertible {
        /// The JSON pointer of the offending value within the checked one (`""` for itself).
        package let pointer: String
        /// The keyword that failed (`type`, `required`, `pattern`, …).
        package let keyword: String
        package let message: String

        package var description: String { (pointer.isEmpty ? "/" : pointer) + ": " + message }
    }

    /// How deep the check goes. Each level takes about 3.6 KiB of stack in a debug build (measured),
    /// so 100 levels fit a server connection's 512 KiB thread with room to spare; deeper values
    /// are reported rather than checked.
    package static let maximumDepth = 100
    /// How many schema-and-value checks one validation makes at most.
    package static let maximumSteps = 200_000
    /// How much of a string a `pattern` reads.
    package static let patternLimit = 64 * 1024

    let direction: Direction
    private(set) var violations: [Violation] = []
    /// A trial (a branch of `anyOf`, `oneOf` or `not`) only needs to know whether the value
    /// fails: it stops at the first violation and words none.
    private let isTrial: Bool
    private var failed = false
    /// Where the value being checked is, from the checked value's top: its pointer is only
    /// spelled out when a violation is reported.
    private var path: [Step] = []

    enum Step {
        case key(String)
        case index(Int)
    }
    /// Shared with the trials of `anyOf`, `oneOf` and `not`, which count against the same budget.
    private let work: Work

    /// The steps left, the schemas being checked for the value at each depth, and the numbers
    /// carried exactly.
    private final class Work {
        var steps = SchemaValidator.maximumSteps
        var exhausted = false
        var active: [(schema: ObjectIdentifier, valueDepth: Int)] = []
        let exactNumbers: [String: ExactNumber]

        init(exactNumbers: [String: ExactNumber]) {
            self.exactNumbers = exactNumbers
        }
    }

    /// The violations of `value` against `schema`, in the order found.
    ///
    /// - Parameter exactNumbers: the numbers of `value` no `Int` or `Double` holds exactly, by
    ///   their JSON pointer (`JSONValue.parsingExactly(_:)` gives them): those are compared as
    ///   written, as are bounds, `enum`s and `const`s the contract writes so.
    package static func violations(
        of value: JSONValue, against schema: Schema, direction: Direction,
        exactNumbers: [String: ExactNumber] = [:]
    ) -> [Violation] {
        var validator = SchemaValidator(
            direction: direction, work: Work(exactNumbers: exactNumbers), isTrial: false)
        validator.check(value, against: schema, depth: 0, valueDepth: 0)
        if validator.work.exhausted {
            validator.report(
                "complexity", "the schema's alternatives multiply past \(maximumSteps) checks; not checked further")
        }
        return validator.violations
    }

    private init(direction: Direction, work: Work, isTrial: Bool) {
        self.direction = direction
        self.work = work
        self.isTrial = isTrial
    }

    /// Records a violation of the value being checked (or of its member or element `step`).
    mutating func report(
        at step: Step? = nil, _ keyword: String, _ message: @autoclosure () -> String
    ) {
        failed = true
        guard !isTrial else { return }
        let pointer = Self.pointer(path + (step.map { [$0] } ?? []))
        violations.append(Violation(pointer: pointer, keyword: keyword, message: message()))
    }

    private static func pointer(_ path: [Step]) -> String {
        path.map { step in
            switch step {
            case .key(let key): "/" + Located.escaped(key)
            case .index(let index): "/\(index)"
            }
        }.joined()
    }

    /// The value being checked as written, when it is a number carried exactly.
    private var exactValue: ExactNumber? {
        work.exactNumbers.isEmpty ? nil : work.exactNumbers[Self.pointer(path)]
    }

    /// Checks `value`, the member or element `step` of the value being checked.
    private mutating func check(
        _ value: JSONValue, at step: Step, against schema: Schema, depth: Int, valueDepth: Int
    ) {
        path.append(step)
        check(value, against: schema, depth: depth, valueDepth: valueDepth)
        path.removeLast()
    }

    /// Whether `value` satisfies `schema`, without reporting why not (for `anyOf`, `oneOf`, `not`).
    private func satisfies(_ value: JSONValue, _ schema: Schema, depth: Int, valueDepth: Int) -> Bool {
        var trial = SchemaValidator(direction: direction, work: work, isTrial: true)
        // Where the value is matters only to find the numbers carried exactly.
        if !work.exactNumbers.isEmpty { trial.path = path }
        trial.check(value, against: schema, depth: depth, valueDepth: valueDepth)
        return !trial.failed
    }

    private mutating func check(
        _ value: JSONValue, against schema: Schema, depth: Int, valueDepth: Int
    ) {
        guard depth < Self.maximumDepth else {
            report("depth", "nested deeper than \(Self.maximumDepth) levels of schema; not checked further")
            return
        }
        guard !(isTrial && failed) else { return }
        guard work.steps > 0 else {
            work.exhausted = true
            return
        }
        work.steps -= 1
        // Only a schema with combinators can come back to the same value; a leaf can't loop.
        let combines = !schema.allOf.isEmpty || !schema.anyOf.isEmpty || !schema.oneOf.isEmpty || schema.not != nil
        let id = ObjectIdentifier(schema)
        if combines {
            if work.active.contains(where: { $0.schema == id && $0.valueDepth == valueDepth }) { return }
            work.active.append((id, valueDepth))
        }
        defer { if combines { work.active.removeLast() } }
        if value == .null, schema.acceptsNull { return }
        if let mask = schema.typeMask, let types = schema.types, !Self.hasType(value, in: mask) {
            let expected = types.isEmpty ? "nothing (the schema is false)" : types.sorted().joined(separator: " or ")
            report("type", "expected \(expected), got \(Self.shown(value))")
            return
        }
        checkValues(value, schema)
        switch value {
        case .object(let members): checkObject(members, schema, depth, valueDepth)
        case .array(let elements): checkArray(elements, schema, depth, valueDepth)
        default: break
        }
        for part in schema.allOf { check(value, against: part, depth: depth + 1, valueDepth: valueDepth) }
        checkAlternatives(value, schema, depth, valueDepth)
        if let not = schema.not, satisfies(value, not, depth: depth + 1, valueDepth: valueDepth) {
            report("not", "matches the schema it must not match (\(not.pointer))")
        }
    }

    /// `enum`, `const`, and the string and number keywords: what doesn't recurse, kept out of
    /// ``check(_:against:depth:valueDepth:)`` so its frame, one per level, stays small.
    @inline(never)
    private mutating func checkValues(_ value: JSONValue, _ schema: Schema) {
        let exact = value.doubleValue != nil ? exactValue : nil
        // Its Double may be whole where the number isn't (1.00000000000000000001).
        if let exact, !exact.isInteger, let mask = schema.typeMask, !mask.contains(.number), mask.contains(.integer) {
            report("type", "expected integer, got \(exact)")
        }
        if let options = schema.enumeration,
            exact != nil || schema.hasExactValues
                ? !Self.contains(schema.enumNodes ?? [], exact ?? ExactNumber(value), value) : !options.contains(value)
        {
            report(
                "enum",
                "expected one of \(options.prefix(10).map(Self.shown).joined(separator: ", "))"
                    + (options.count > 10 ? ", …" : "") + "; got \(Self.shown(value))")
        }
        if let constant = schema.constant,
            exact != nil || schema.hasExactValues
                ? !Self.contains([schema.constantNode].compactMap { $0 }, exact ?? ExactNumber(value), value)
                : constant != value
        {
            report("const", "expected \(Self.shown(constant)), got \(Self.shown(value))")
        }
        switch value {
        case .string(let string): checkString(string, schema)
        case .int, .double:
            if exact != nil || !schema.exactBounds.isEmpty {
                checkNumber(exact ?? ExactNumber(value), value, schema)
            } else {
                checkNumber(value.doubleValue ?? 0, value, schema)
            }
        default: break
        }
    }

    private mutating func checkObject(
        _ members: [String: JSONValue], _ schema: Schema, _ depth: Int, _ valueDepth: Int
    ) {
        let declared = schema.propertyIndex
        for name in schema.required where members[name] == nil {
            let property = declared[name]
            if direction == .request, property?.readOnly == true { continue }
            if direction == .response, property?.writeOnly == true { continue }
            report("required", "missing the required property \"\(name)\"")
        }
        if let minimum = schema.minProperties, members.count < minimum {
            report("minProperties", "has \(members.count) properties; at least \(minimum) expected")
        }
        if let maximum = schema.maxProperties, members.count > maximum {
            report("maxProperties", "has \(members.count) properties; at most \(maximum) expected")
        }
        // Declared properties in document order (names are unique: the reader refuses a key
        // written twice), then the others in key order; when every member was a declared one,
        // there are no others.
        var matched = 0
        for (name, property) in schema.properties {
            guard let member = members[name] else { continue }
            matched += 1
            check(member, at: .key(name), against: property, depth: depth + 1, valueDepth: valueDepth + 1)
        }
        guard matched < members.count else { return }
        for name in members.keys.filter({ declared[$0] == nil }).sorted() {
            guard let member = members[name] else { continue }
            switch schema.additionalProperties {
            case .allowed: break
            case .forbidden:
                report(at: .key(name), "additionalProperties", "the property \"\(name)\" is not allowed here")
            case .schema(let extra):
                check(member, at: .key(name), against: extra, depth: depth + 1, valueDepth: valueDepth + 1)
            }
        }
    }

    private mutating func checkArray(
        _ elements: [JSONValue], _ schema: Schema, _ depth: Int, _ valueDepth: Int
    ) {
        if let minimum = schema.minItems, elements.count < minimum {
            report("minItems", "has \(elements.count) items; at least \(minimum) expected")
        }
        if let maximum = schema.maxItems, elements.count > maximum {
            report("maxItems", "has \(elements.count) items; at most \(maximum) expected")
        }
        if schema.uniqueItems {
            for (index, element) in elements.enumerated() {
                if let earlier = elements[..<index].firstIndex(of: element) {
                    report(at: .index(index), "uniqueItems", "repeats item \(earlier); items must be unique")
                    break
                }
            }
        }
        if let items = schema.items {
            for (index, element) in elements.enumerated() {
                check(element, at: .index(index), against: items, depth: depth + 1, valueDepth: valueDepth + 1)
            }
        }
    }

    private mutating func checkString(_ string: String, _ schema: Schema) {
        if schema.minLength != nil || schema.maxLength != nil {
            let length = string.unicodeScalars.count
            if let minimum = schema.minLength, length < minimum {
                report("minLength", "is \(length) characters long; at least \(minimum) expected")
            }
            if let maximum = schema.maxLength, length > maximum {
                report("maxLength", "is \(length) characters long; at most \(maximum) expected")
            }
        }
        if let pattern = schema.pattern {
            if string.utf8.count > Self.patternLimit {
                report(
                    "pattern",
                    "is longer than \(Self.patternLimit / 1024) KiB, more than a pattern is checked on; "
                        + "send a shorter value")
            } else if !pattern.matches(string) {
                report("pattern", "\(Self.shown(.string(string))) doesn't match the pattern \(pattern.pattern)")
            }
        }
        if let format = schema.format, let problem = FormatCheck.problem(with: string, format: format) {
            report("format", "\(Self.shown(.string(string))) is not \(problem)")
        }
    }

    /// `anyOf` and `oneOf`; a discriminator that names a branch decides it alone. With a
    /// `mapping`, a value that names neither a mapped schema nor a branch by its own name
    /// (OpenAPI's implicit mapping) is a violation naming the values allowed. Without one, a value
    /// that names no branch (real contracts name their schemas otherwise) decides nothing: the
    /// branches are tried as without it.
    private mutating func checkAlternatives(
        _ value: JSONValue, _ schema: Schema, _ depth: Int, _ valueDepth: Int
    ) {
        for (keyword, branches) in [("anyOf", schema.anyOf), ("oneOf", schema.oneOf)] where !branches.isEmpty {
            if let discriminator = schema.discriminator, case .string(let name)? = value[discriminator.property] {
                if let chosen = discriminator.mapping[name] ?? Self.implicitBranch(named: name, discriminator, branches)
                {
                    check(value, against: chosen, depth: depth + 1, valueDepth: valueDepth)
                    continue
                }
                if !discriminator.mapping.isEmpty {
                    let allowed = Self.discriminatorValues(discriminator, branches)
                    report(
                        at: .key(discriminator.property), "discriminator",
                        "\(Self.shown(.string(name))) names no schema of the \(keyword); expected one of "
                            + allowed.map { Self.shown(.string($0)) }.joined(separator: ", "))
                    continue
                }
            }
            // anyOf needs one match, oneOf a second one to fail; a spent budget stops both.
            var matching = 0
            for branch in branches where !work.exhausted {
                if satisfies(value, branch, depth: depth + 1, valueDepth: valueDepth) { matching += 1 }
                if matching == (keyword == "anyOf" ? 1 : 2) { break }
            }
            guard !work.exhausted else { return }
            if matching == 0 {
                report(keyword, "matches none of the \(branches.count) schemas of \(keyword)")
            } else if keyword == "oneOf", matching > 1 {
                report(keyword, "matches \(matching) of the schemas of oneOf; exactly one expected")
            }
        }
    }

    /// The values a discriminator takes: its mapping's, in order, then the names of the branches
    /// the mapping doesn't name (the implicit mapping).
    static func discriminatorValues(
        _ discriminator: (property: String, mapping: [String: Schema], order: [String]), _ branches: [Schema]
    ) -> [String] {
        discriminator.order + implicitlyNamed(discriminator, branches).map(\.name)
    }

    /// The branch `name` names by OpenAPI's implicit mapping: a branch declared by name (a
    /// `$ref` to a component, or to a schema at the top of a file) whose name is `name`
    /// exactly, and which the mapping doesn't name (a mapping's value replaces the implicit one).
    private static func implicitBranch(
        named name: String, _ discriminator: (property: String, mapping: [String: Schema], order: [String]),
        _ branches: [Schema]
    ) -> Schema? {
        implicitlyNamed(discriminator, branches).first { $0.name == name }
    }

    /// The branches declared by name that the mapping doesn't name.
    private static func implicitlyNamed(
        _ discriminator: (property: String, mapping: [String: Schema], order: [String]), _ branches: [Schema]
    ) -> [Schema] {
        branches.filter { branch in
            branch.isDeclaredByName && !discriminator.mapping.values.contains { $0 === branch }
        }
    }

    static func hasType(_ value: JSONValue, in types: Schema.TypeMask) -> Bool {
        switch value {
        case .null: types.contains(.null)
        case .bool: types.contains(.boolean)
        case .int: !types.isDisjoint(with: [.integer, .number])
        case .double(let number): types.contains(.number) || (types.contains(.integer) && number.rounded() == number)
        case .string: types.contains(.string)
        case .array: types.contains(.array)
        case .object: types.contains(.object)
        }
    }

    /// A value as a message shows it: its JSON, cut at 40 characters.
    static func shown(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 40 ? String(text.prefix(40)) + "…" : text
    }

    static func shown(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}
