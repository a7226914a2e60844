import RequestMocker

extension Schema {
    /// The schema read through its `allOf` parts (and, for types, its `oneOf`/`anyOf` branches):
    /// what a parameter's text is converted by.
    var lookup: SchemaLookup { SchemaLookup(self) }

    /// ``SchemaLookup/types``, without making a lookup for a schema that has no parts or
    /// branches (nearly every parameter's): read for every parameter of every request.
    var lookedUpTypes: Set<String>? {
        allOf.isEmpty && oneOf.isEmpty && anyOf.isEmpty ? types : lookup.types
    }
}

/// A schema with its `allOf` parts, breadth first and at most 64 of them, asked for the first
/// answer any of them gives.
struct SchemaLookup {
    private let parts: [Schema]

    init(_ schema: Schema) {
        var parts = [schema]
        var next = 0
        while next < parts.count, parts.count < 64 {
            for part in parts[next].allOf where !parts.contains(where: { $0 === part }) { parts.append(part) }
            next += 1
        }
        self.parts = parts
    }

    /// The types the schema allows: its parts' first, else the union of its branches'.
    var types: Set<String>? {
        if let types = parts.lazy.compactMap(\.types).first { return types }
        let branches = parts.flatMap { $0.oneOf + $0.anyOf }.compactMap(\.types)
        return branches.isEmpty ? nil : branches.reduce(into: Set()) { $0.formUnion($1) }
    }

    var items: Schema? { parts.lazy.compactMap(\.items).first }

    /// The `format` of the first part that gives one.
    var format: String? { parts.lazy.compactMap(\.format).first }

    var required: [String] { parts.flatMap(\.required) }

    /// The properties the parts declare.
    var declaredNames: Set<String> {
        Set(parts.flatMap { $0.properties.map(\.name) })
    }

    /// The properties the parts declare, in order, each name once (as the first part declares it).
    var properties: [(name: String, schema: Schema)] {
        var seen: Set<String> = []
        return parts.flatMap(\.properties).filter { seen.insert($0.name).inserted }
    }

    /// The schema of the declared property `name` (the first part's that declares it).
    func declaredProperty(_ name: String) -> Schema? {
        parts.lazy.compactMap { $0.propertyIndex[name] }.first
    }

    /// Whether a part declares the property `name`.
    func declares(_ name: String) -> Bool {
        parts.contains { $0.propertyIndex[name] != nil }
    }

    /// The property's schema: declared, else what `additionalProperties` says.
    func property(_ name: String) -> Schema? {
        if let declared = parts.lazy.compactMap({ $0.propertyIndex[name] }).first { return declared }
        for part in parts {
            if case .schema(let extra) = part.additionalProperties { return extra }
        }
        return nil
    }
}

/// A parameter's text as a JSON value: a number, a Boolean or `null` where the schema allows
/// one and the text is one, else a string.
enum ParameterText {
    static func value(_ text: String, _ schema: Schema?) -> JSONValue {
        read(text, schema).value
    }

    /// The value, and the number it is when no `Int` or `Double` holds it exactly (an integer
    /// past `Int`'s range, whose nearest `Double` may be `Int`'s bound).
    static func read(_ text: String, _ schema: Schema?) -> (value: JSONValue, exact: ExactNumber?) {
        guard let types = schema?.lookedUpTypes else { return (.string(text), nil) }
        let isNumeric = types.contains("integer") || types.contains("number")
        if isNumeric, let int = Int(text) { return (.int(int), nil) }
        // A whole number past Int's range is still a number (its format may refuse it).
        if isNumeric, text.wholeMatch(of: /-?[0-9]{19,400}/) != nil, let double = Double(text) {
            return (.double(double), ExactNumber.inexact(text, readingAs: double))
        }
        if types.contains("number"), let double = Double(text), double.isFinite,
            text.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) })
        {
            return (.double(double), ExactNumber.inexact(text, readingAs: double))
        }
        if types.contains("boolean"), text == "true" || text == "false" { return (.bool(text == "true"), nil) }
        if types.contains("null"), text == "null" || text.isEmpty, !types.contains("string") { return (.null, nil) }
        return (.string(text), nil)
    }
}
