extension GraphQLSchema {
    /// The schema as SDL: its own types and directives (the built-in ones left out), in its order,
    /// with descriptions, default values and the directives applied to its definitions. Read
    /// back, it gives the same schema.
    public var sdl: String {
        var blocks: [String] = []
        let defaultRoots =
            queryType == "Query" && (mutationType ?? "Mutation") == "Mutation"
            && (subscriptionType ?? "Subscription") == "Subscription"
        if description != nil || !defaultRoots {
            var lines = [GraphQLPrinter.description(description, indent: "") + "schema {"]
            lines.append("  query: \(queryType)")
            if let mutationType { lines.append("  mutation: \(mutationType)") }
            if let subscriptionType { lines.append("  subscription: \(subscriptionType)") }
            blocks.append(lines.joined(separator: "\n") + "\n}")
        }
        for name in directiveNames where !GraphQLBuiltIns.directiveNames.contains(name) {
            guard let directive = directives[name] else { continue }
            blocks.append(
                GraphQLPrinter.description(directive.description, indent: "") + "directive @\(name)"
                    + GraphQLPrinter.arguments(directive.arguments) + (directive.isRepeatable ? " repeatable" : "")
                    + " on " + directive.locations.joined(separator: " | "))
        }
        for name in typeNames {
            guard let type = types[name], type.offset != nil else { continue }
            blocks.append(GraphQLPrinter.type(type))
        }
        return blocks.joined(separator: "\n\n") + "\n"
    }
}

/// Writes the parts of a schema and values as GraphQL text.
enum GraphQLPrinter {
    static func type(_ type: GraphQLNamedType) -> String {
        var head = description(type.description, indent: "") + type.kind.keyword + " " + type.name
        if !type.interfaces.isEmpty { head += " implements " + type.interfaces.joined(separator: " & ") }
        head += directives(type.directives)
        switch type.kind {
        case .scalar:
            return head
        case .object, .interface:
            let fields = type.fields.map { field in
                description(field.description, indent: "  ") + "  " + field.name + arguments(field.arguments) + ": "
                    + field.type.description + deprecated(field.deprecationReason)
            }
            return head + " {\n" + fields.joined(separator: "\n") + "\n}"
        case .union:
            return head + " = " + type.members.joined(separator: " | ")
        case .enumeration:
            let values = type.enumValues.map { value in
                description(value.description, indent: "  ") + "  " + value.name + deprecated(value.deprecationReason)
            }
            return head + " {\n" + values.joined(separator: "\n") + "\n}"
        case .inputObject:
            let fields = type.inputFields.map { "  " + inputValue($0, indent: "  ") }
            return head + " {\n" + fields.joined(separator: "\n") + "\n}"
        }
    }

    /// `(a: Int = 1, b: String)`, or on lines of their own when one has a description.
    static func arguments(_ arguments: [GraphQLInputValue]) -> String {
        guard !arguments.isEmpty else { return "" }
        if arguments.allSatisfy({ $0.description == nil }) {
            return "(" + arguments.map { inputValue($0, indent: "") }.joined(separator: ", ") + ")"
        }
        return "(\n" + arguments.map { "    " + inputValue($0, indent: "    ") }.joined(separator: "\n") + "\n  )"
    }

    /// `name: Type = default @deprecated(…)`, its description above it.
    static func inputValue(_ value: GraphQLInputValue, indent: String) -> String {
        let text =
            value.name + ": " + value.type.description + (value.defaultValue.map { " = " + Self.value($0) } ?? "")
            + deprecated(value.deprecationReason)
        guard let described = value.description else { return text }
        return description(described, indent: indent).dropFirst(indent.count) + indent + text
    }

    static func deprecated(_ reason: String?) -> String {
        guard let reason else { return "" }
        return reason == GraphQLBuiltIns.defaultDeprecationReason
            ? " @deprecated" : " @deprecated(reason: \(string(reason)))"
    }

    /// The directives applied, `@deprecated` aside (written from the deprecation reason).
    static func directives(_ directives: [GraphQLDirective]) -> String {
        directives.filter { $0.name.value != "deprecated" }.map { directive in
            " @" + directive.name.value
                + (directive.arguments.isEmpty
                    ? ""
                    : "(" + directive.arguments.map { "\($0.name.value): \(value($0.value))" }.joined(separator: ", ")
                        + ")")
        }.joined()
    }

    /// A description as a block string on the lines before what it describes, or nothing.
    static func description(_ text: String?, indent: String) -> String {
        guard let text else { return "" }
        // A block string's value loses the indentation of its first line and its blank first and
        // last lines, and can't hold a control character: such text is written as a string.
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let isBlank = { (line: Substring) in line.allSatisfy { $0 == " " || $0 == "\t" } }
        if text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F })
            || text.hasPrefix(" ") || text.hasPrefix("\t") || lines.first.map(isBlank) ?? true
            || lines.last.map(isBlank) ?? true
        {
            return indent + string(text) + "\n"
        }
        let escaped = text.replacingOccurrences(of: "\"\"\"", with: "\\\"\"\"")
        let indented = escaped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty ? "" : indent + line
        }
        return indent + "\"\"\"\n" + indented.joined(separator: "\n") + "\n" + indent + "\"\"\"\n"
    }

    /// A string literal: `"…"`, escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let digits = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// A value as GraphQL writes it, on one line (without recursion past the parser's bound,
    /// which every value read has).
    /// A value as written; `sorted`, an object's fields by name at every level, so two objects
    /// that differ only in their fields' order print the same (as graphql-js compares arguments).
    static func value(_ value: GraphQLValue, sorted: Bool = false) -> String {
        switch value.kind {
        case .variable(let name): "$" + name
        case .int(let text), .float(let text): text
        case .string(let text, _): string(text)
        case .boolean(let flag): flag ? "true" : "false"
        case .null: "null"
        case .enumValue(let name): name
        case .list(let items): "[" + items.map { Self.value($0, sorted: sorted) }.joined(separator: ", ") + "]"
        case .object(let fields):
            "{"
                + (sorted ? fields.sorted { $0.name.value < $1.name.value } : fields).map {
                    "\($0.name.value): \(Self.value($0.value, sorted: sorted))"
                }.joined(separator: ", ") + "}"
        }
    }
}

extension GraphQLPrinter {
    /// A default value as introspection's `defaultValue` gives it: the value it stands for,
    /// written back as a literal of `type` (an enum value bare, a single value for a list in
    /// brackets, an input object's fields in their definition's order, an integral `ID` as a
    /// number), as graphql-js's `astFromValue` writes it.
    static func literal(_ value: GraphQLValue, as type: GraphQLTypeReference, in schema: GraphQLSchema) -> String {
        literal(GraphQLVariables.literal(value, as: type, in: schema), as: type, in: schema)
    }

    private static func literal(_ value: GraphQLJSON, as type: GraphQLTypeReference, in schema: GraphQLSchema) -> String
    {
        if value == .null { return "null" }
        switch type {
        case .nonNull(let inner):
            return literal(value, as: inner, in: schema)
        case .list(let item):
            guard case .list(let items) = value else { return literal(value, as: item, in: schema) }
            return "[" + items.map { literal($0, as: item, in: schema) }.joined(separator: ", ") + "]"
        case .named(let name):
            let named = schema.types[name.value]
            switch (value, named?.kind) {
            case (.object(let members), .inputObject?):
                let fields = (named?.inputFields ?? []).compactMap { field in
                    members.first { $0.key == field.name }.map {
                        "\(field.name): " + literal($0.value, as: field.type, in: schema)
                    }
                }
                return "{" + fields.joined(separator: ", ") + "}"
            case (.string(let text), .enumeration?):
                return text
            case (.string(let text), _) where name.value == "ID" && Int(text) != nil && !text.hasPrefix("+"):
                return text
            default:
                return plain(value)
            }
        }
    }

    /// A value with no type to go by (a custom scalar's): JSON's shape, as GraphQL literals.
    private static func plain(_ value: GraphQLJSON) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .float(let number): number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
        case .string(let text): string(text)
        case .list(let items): "[" + items.map(plain).joined(separator: ", ") + "]"
        case .object(let members): "{" + members.map { "\($0.key): " + plain($0.value) }.joined(separator: ", ") + "}"
        }
    }
}
