import RequestMocker

/// One message's values by name (a query's, a message's headers), in the order first seen,
/// each name's values together; header names compared without case.
struct GroupedTexts {
    let ignoresCase: Bool
    private var order: [String] = []
    private var values: [String: (name: String, texts: [String])] = [:]

    init(ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
    }

    mutating func add(_ name: String, _ text: String) {
        let key = ignoresCase ? name.lowercased() : name
        if values[key] == nil {
            order.append(key)
            values[key] = (name, [text])
        } else {
            values[key]?.texts.append(text)
        }
    }

    var groups: [(String, [String])] { order.compactMap { values[$0].map { ($0.name, $0.texts) } } }
}

/// Named text values (query parameters, headers), each under the name first written; header
/// names are compared without case. At most ``maximumNames`` names are kept; the others are
/// counted in ``dropped``.
struct NamedTexts {
    /// Real operations have a few dozen; a name made of a value (`?1700000000123`) would grow
    /// without end.
    static let maximumNames = 200
    private(set) var dropped = 0
    let ignoresCase: Bool
    private(set) var keys: [String] = []
    private(set) var names: [String: String] = [:]
    private(set) var values: [String: TextShape] = [:]

    init(ignoresCase: Bool) {
        self.ignoresCase = ignoresCase
    }

    mutating func add(_ name: String, _ texts: [String]) {
        let key = ignoresCase ? name.lowercased() : name
        if values[key] == nil {
            guard keys.count < Self.maximumNames else {
                dropped += 1
                return
            }
            keys.append(key)
            names[key] = name
        }
        values[key, default: TextShape()].add(texts)
    }

    mutating func absorb(_ other: NamedTexts) {
        dropped += other.dropped
        for key in other.keys {
            guard let theirs = other.values[key] else { continue }
            if values[key] == nil {
                guard keys.count < Self.maximumNames else {
                    dropped += theirs.count
                    continue
                }
                keys.append(key)
                names[key] = other.names[key]
            }
            values[key, default: TextShape()].absorb(theirs)
        }
    }

    /// The names and what their values had in common, in the order first seen.
    var entries: [(name: String, texts: TextShape)] {
        keys.compactMap { key in values[key].map { (names[key] ?? key, $0) } }
    }
}

/// What the texts of a parameter or header had in common.
struct TextShape {
    private(set) var count = 0
    private var allInteger = true
    private var allNumber = true
    private var allBoolean = true
    private var repeated = false

    mutating func add(_ texts: [String]) {
        count += 1
        if texts.count > 1 { repeated = true }
        for text in texts {
            if allInteger, !Self.isInteger(text) { allInteger = false }
            if allNumber, !Self.isNumber(text) { allNumber = false }
            if allBoolean, text != "true", text != "false" { allBoolean = false }
        }
    }

    mutating func absorb(_ other: TextShape) {
        count += other.count
        allInteger = allInteger && other.allInteger
        allNumber = allNumber && other.allNumber
        allBoolean = allBoolean && other.allBoolean
        repeated = repeated || other.repeated
    }

    /// The schema: `integer`, `number` or `boolean` when every value was one, else `string`; an
    /// array of it when a request repeated the name.
    var schema: DocumentNode {
        let type = allInteger ? "integer" : allNumber ? "number" : allBoolean ? "boolean" : "string"
        let scalar = DocumentNode.map([("type", .text(type))])
        return repeated ? .map([("type", .text("array")), ("items", scalar)]) : scalar
    }

    /// An integer as JSON writes one, no leading zero, within `Int`.
    static func isInteger(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard let first = digits.first, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
        return (first != "0" || digits.count == 1) && Int(text) != nil
    }

    /// A number as JSON writes one.
    static func isNumber(_ text: String) -> Bool {
        guard isInteger(text) || text.contains(".") || text.lowercased().contains("e") else { return false }
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard let first = digits.first, first.isASCII, first.isNumber,
            digits.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }),
            !(first == "0" && digits.count > 1 && digits.dropFirst().first?.isNumber == true),
            let value = Double(text)
        else { return false }
        return value.isFinite
    }
}
