/// Parses a GraphQL document, one token of look-ahead, as the specification's grammar says:
/// operations and fragments, and the type system's definitions and extensions
/// (`GraphQLParser+TypeSystem.swift`).
///
/// Nesting (selection sets, list and object values, list types) is bounded by
/// ``maximumDepth``, so a hostile document can't exhaust the smallest thread stack the library
/// parses on.
///
/// ```swift
/// let document = try GraphQLParser.parse(GraphQLSource("{ hero { name } }"))
/// ```
package struct GraphQLParser {
    /// The deepest nesting a document may have: selection sets, list and object values and list
    /// types, counted together. An introspection query nests about 15 deep.
    package static let maximumDepth = 64

    var lexer: GraphQLLexer
    /// The token under look-ahead.
    var token: GraphQLToken
    private var depth = 0

    private init(_ source: GraphQLSource) throws(GraphQLSyntaxError) {
        lexer = GraphQLLexer(source.bytes)
        token = try lexer.next()
    }

    /// The document `source` holds: one definition or more.
    package static func parse(_ source: GraphQLSource) throws(GraphQLSyntaxError) -> GraphQLDocument {
        var parser = try GraphQLParser(source)
        var definitions: [GraphQLDocument.Definition] = []
        repeat {
            definitions.append(try parser.parseDefinition())
        } while parser.token.kind != .end
        return GraphQLDocument(source: source, definitions: definitions)
    }

    /// The constant value `source` holds alone: an introspection result's `defaultValue`.
    package static func parseConstantValue(_ source: GraphQLSource) throws(GraphQLSyntaxError) -> GraphQLValue {
        var parser = try GraphQLParser(source)
        let value = try parser.parseValue(isConst: true)
        guard parser.token.kind == .end else { throw parser.unexpected() }
        return value
    }

    // MARK: Tokens

    mutating func advance() throws(GraphQLSyntaxError) {
        token = try lexer.next()
    }

    /// Passes a token of `kind`, or fails naming what was found.
    @discardableResult
    mutating func expect(_ kind: GraphQLToken.Kind) throws(GraphQLSyntaxError) -> GraphQLToken {
        guard token.kind == kind else {
            throw GraphQLSyntaxError(at: token.start, "Expected \(kind.described), found \(token.described).")
        }
        let passed = token
        try advance()
        return passed
    }

    /// Passes a token of `kind` when it is the next one.
    mutating func skip(_ kind: GraphQLToken.Kind) throws(GraphQLSyntaxError) -> Bool {
        guard token.kind == kind else { return false }
        try advance()
        return true
    }

    /// Whether the next token is the name `keyword`.
    func peek(keyword: String) -> Bool {
        token.kind == .name && token.value == keyword
    }

    mutating func expect(keyword: String) throws(GraphQLSyntaxError) {
        guard peek(keyword: keyword) else {
            throw GraphQLSyntaxError(at: token.start, "Expected \"\(keyword)\", found \(token.described).")
        }
        try advance()
    }

    mutating func skip(keyword: String) throws(GraphQLSyntaxError) -> Bool {
        guard peek(keyword: keyword) else { return false }
        try advance()
        return true
    }

    func unexpected() -> GraphQLSyntaxError {
        GraphQLSyntaxError(at: token.start, "Unexpected \(token.described).")
    }

    mutating func parseName() throws(GraphQLSyntaxError) -> GraphQLName {
        let name = try expect(.name)
        return GraphQLName(name.value, at: name.start)
    }

    /// Enters one level of nesting, or fails past ``maximumDepth``.
    mutating func enter() throws(GraphQLSyntaxError) {
        depth += 1
        guard depth <= Self.maximumDepth else {
            throw GraphQLSyntaxError(
                at: token.start,
                "The document nests deeper than \(Self.maximumDepth) levels (selection sets, lists, input objects"
                    + " and list types together): flatten it.")
        }
    }

    mutating func leave() {
        depth -= 1
    }

    /// A list of one item or more between `open` and `close`.
    mutating func many<Item>(
        _ open: GraphQLToken.Kind, _ close: GraphQLToken.Kind,
        _ item: (inout GraphQLParser) throws(GraphQLSyntaxError) -> Item
    ) throws(GraphQLSyntaxError) -> [Item] {
        try expect(open)
        var items: [Item] = []
        repeat {
            items.append(try item(&self))
        } while !(try skip(close))
        return items
    }

    // MARK: Definitions

    private mutating func parseDefinition() throws(GraphQLSyntaxError) -> GraphQLDocument.Definition {
        if token.kind == .braceLeft {
            let offset = token.start
            return .operation(
                GraphQLOperation(
                    offset: offset, description: nil, kind: .query, name: nil, variables: [], directives: [],
                    selections: try parseSelectionSet()))
        }
        let offset = token.start
        let description = try parseDescription()
        guard token.kind == .name else { throw unexpected() }
        switch token.value {
        case "query", "mutation", "subscription":
            return .operation(try parseOperation(at: offset, description: description))
        case "fragment":
            return .fragment(try parseFragment(at: offset, description: description))
        case "extend" where description == nil:
            return try parseExtension()
        default:
            guard let definition = try parseTypeSystemDefinition(at: offset, description: description) else {
                throw unexpected()
            }
            return definition
        }
    }

    /// A description (a string before a definition), if there is one.
    mutating func parseDescription() throws(GraphQLSyntaxError) -> String? {
        guard token.kind == .string || token.kind == .blockString else { return nil }
        let value = token.value
        try advance()
        return value
    }

    private mutating func parseOperation(
        at offset: Int, description: String?
    ) throws(GraphQLSyntaxError) -> GraphQLOperation {
        guard let kind = GraphQLOperationKind(rawValue: token.value) else { throw unexpected() }
        try advance()
        let name = token.kind == .name ? try parseName() : nil
        var variables: [GraphQLVariableDefinition] = []
        if token.kind == .parenLeft {
            variables = try many(.parenLeft, .parenRight) { parser throws(GraphQLSyntaxError) in
                try parser.parseVariableDefinition()
            }
        }
        let directives = try parseDirectives(isConst: false)
        return GraphQLOperation(
            offset: offset, description: description, kind: kind, name: name, variables: variables,
            directives: directives, selections: try parseSelectionSet())
    }

    private mutating func parseVariableDefinition() throws(GraphQLSyntaxError) -> GraphQLVariableDefinition {
        let offset = token.start
        let description = try parseDescription()
        try expect(.dollar)
        let name = try parseName()
        try expect(.colon)
        let typeOffset = token.start
        let type = try parseType()
        let defaultValue = try skip(.equals) ? try parseValue(isConst: true) : nil
        return GraphQLVariableDefinition(
            offset: offset, description: description, name: name, type: type, typeOffset: typeOffset,
            defaultValue: defaultValue, directives: try parseDirectives(isConst: true))
    }

    private mutating func parseFragment(
        at offset: Int, description: String?
    ) throws(GraphQLSyntaxError) -> GraphQLFragment {
        try expect(keyword: "fragment")
        guard !peek(keyword: "on") else { throw unexpected() }
        let name = try parseName()
        try expect(keyword: "on")
        let typeCondition = try parseName()
        return GraphQLFragment(
            offset: offset, description: description, name: name, typeCondition: typeCondition,
            directives: try parseDirectives(isConst: false), selections: try parseSelectionSet())
    }

    // MARK: Selections

    mutating func parseSelectionSet() throws(GraphQLSyntaxError) -> [GraphQLSelection] {
        try enter()
        defer { leave() }
        return try many(.braceLeft, .braceRight) { parser throws(GraphQLSyntaxError) in try parser.parseSelection() }
    }

    private mutating func parseSelection() throws(GraphQLSyntaxError) -> GraphQLSelection {
        let offset = token.start
        guard try skip(.spread) else { return .field(try parseField()) }
        if token.kind == .name, !peek(keyword: "on") {
            let name = try parseName()
            return .fragmentSpread(
                GraphQLFragmentSpread(offset: offset, name: name, directives: try parseDirectives(isConst: false)))
        }
        let typeCondition = try skip(keyword: "on") ? try parseName() : nil
        return .inlineFragment(
            GraphQLInlineFragment(
                offset: offset, typeCondition: typeCondition, directives: try parseDirectives(isConst: false),
                selections: try parseSelectionSet()))
    }

    private mutating func parseField() throws(GraphQLSyntaxError) -> GraphQLField {
        let offset = token.start
        var alias: GraphQLName?
        var name = try parseName()
        if try skip(.colon) {
            alias = name
            name = try parseName()
        }
        let arguments = try parseArguments(isConst: false)
        let directives = try parseDirectives(isConst: false)
        let selectionSetOffset = token.kind == .braceLeft ? token.start : nil
        let selections = selectionSetOffset == nil ? [] : try parseSelectionSet()
        return GraphQLField(
            offset: offset, alias: alias, name: name, arguments: arguments, directives: directives,
            selections: selections, selectionSetOffset: selectionSetOffset)
    }

    mutating func parseArguments(isConst: Bool) throws(GraphQLSyntaxError) -> [GraphQLArgument] {
        guard token.kind == .parenLeft else { return [] }
        return try many(.parenLeft, .parenRight) { parser throws(GraphQLSyntaxError) in
            let name = try parser.parseName()
            try parser.expect(.colon)
            return GraphQLArgument(name: name, value: try parser.parseValue(isConst: isConst))
        }
    }

    mutating func parseDirectives(isConst: Bool) throws(GraphQLSyntaxError) -> [GraphQLDirective] {
        var directives: [GraphQLDirective] = []
        while token.kind == .at {
            let offset = token.start
            try advance()
            let name = try parseName()
            directives.append(
                GraphQLDirective(offset: offset, name: name, arguments: try parseArguments(isConst: isConst)))
        }
        return directives
    }

    // MARK: Values and types

    mutating func parseValue(isConst: Bool) throws(GraphQLSyntaxError) -> GraphQLValue {
        let offset = token.start
        let kind: GraphQLValue.Kind
        switch token.kind {
        case .bracketLeft:
            try enter()
            defer { leave() }
            try advance()
            var items: [GraphQLValue] = []
            while !(try skip(.bracketRight)) { items.append(try parseValue(isConst: isConst)) }
            return GraphQLValue(kind: .list(items), offset: offset)
        case .braceLeft:
            try enter()
            defer { leave() }
            try advance()
            var fields: [GraphQLObjectField] = []
            while !(try skip(.braceRight)) {
                let name = try parseName()
                try expect(.colon)
                fields.append(GraphQLObjectField(name: name, value: try parseValue(isConst: isConst)))
            }
            return GraphQLValue(kind: .object(fields), offset: offset)
        case .int: kind = .int(token.value)
        case .float: kind = .float(token.value)
        case .string: kind = .string(token.value, block: false)
        case .blockString: kind = .string(token.value, block: true)
        case .name:
            switch token.value {
            case "true": kind = .boolean(true)
            case "false": kind = .boolean(false)
            case "null": kind = .null
            default: kind = .enumValue(token.value)
            }
        case .dollar where !isConst:
            try advance()
            return GraphQLValue(kind: .variable(try parseName().value), offset: offset)
        case .dollar:
            throw GraphQLSyntaxError(
                at: token.start, "Unexpected variable here: a default value or a schema's value is a constant.")
        default:
            throw unexpected()
        }
        try advance()
        return GraphQLValue(kind: kind, offset: offset)
    }

    mutating func parseType() throws(GraphQLSyntaxError) -> GraphQLTypeReference {
        var type: GraphQLTypeReference
        if token.kind == .bracketLeft {
            try enter()
            defer { leave() }
            try advance()
            let inner = try parseType()
            try expect(.bracketRight)
            type = .list(inner)
        } else {
            type = .named(try parseName())
        }
        if try skip(.bang) { type = .nonNull(type) }
        return type
    }
}
