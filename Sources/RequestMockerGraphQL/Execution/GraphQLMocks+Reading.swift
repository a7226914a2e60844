import Foundation
import RequestMocker

extension GraphQLMocks {
    /// The mocks a JSON or YAML file holds, checked against `schema`:
    ///
    /// ```yaml
    /// scalars: { DateTime: "2026-02-03T04:05:06Z" }
    /// types: { Human: { name: Luke } }
    /// operations: { HeroName: { data: { hero: { name: R2-D2 } } } }
    /// subscriptions: { ReviewAdded: [ { data: { reviewAdded: { stars: 5 } } } ] }
    /// ```
    ///
    /// Values are written under field names (a request's alias finds its field's value); an
    /// abstract type's value says which object type it is with `__typename` unless its fields
    /// say it.
    ///
    /// - Parameters:
    ///   - url: the mocks file.
    ///   - schema: the schema its values are checked against.
    /// - Throws: ``GraphQLMocksError`` with every problem: where in the file, what is wrong, and
    ///   what to do.
    public init(contentsOf url: URL, schema: GraphQLSchema) throws(GraphQLMocksError) {
        let bytes: [UInt8]
        switch GraphQLSchemaError.read(url, kind: "mocks") {
        case .success(let read): bytes = read
        case .failure(let failure):
            throw GraphQLMocksError(problems: failure.problems, isFileMissing: failure.isFileMissing)
        }
        try self.init(bytes, file: url, schema: schema)
    }

    /// Mocks written in Swift, checked against `schema` as a file's are (each problem names the
    /// path of its value: `types.Human.name`).
    ///
    /// ```swift
    /// let mocks = try GraphQLMocks(
    ///     scalars: ["DateTime": "2026-02-03T04:05:06Z"],
    ///     types: ["Human": ["name": "Luke"]],
    ///     operations: ["HeroName": ["data": ["hero": ["__typename": "Droid", "name": "R2-D2"]]]],
    ///     checkedAgainst: schema)
    /// ```
    ///
    /// - Parameters:
    ///   - scalars: a value for every field of the scalar named by each key.
    ///   - types: field values (an object) for the object or interface type named by each key.
    ///   - operations: the answer (`{"data": …}`) of the operation named by each key.
    ///   - subscriptions: the events (answers) of the subscription named by each key.
    ///   - schema: the schema the values are checked against.
    /// - Throws: ``GraphQLMocksError`` with every value that doesn't fit the schema.
    public init(
        scalars: [String: JSONValue] = [:], types: [String: JSONValue] = [:], operations: [String: JSONValue] = [:],
        subscriptions: [String: [JSONValue]] = [:], checkedAgainst schema: GraphQLSchema
    ) throws(GraphQLMocksError) {
        let whole: JSONValue = .object([
            "scalars": .object(scalars), "types": .object(types), "operations": .object(operations),
            "subscriptions": .object(subscriptions.mapValues(JSONValue.array)),
        ])
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try whole.serialized())
        } catch {
            throw GraphQLMocksError(problems: [
                GraphQLSchemaError.Problem(file: nil, location: nil, message: "\(error)")
            ])
        }
        try self.init(bytes, file: URL(fileURLWithPath: "GraphQLMocks"), schema: schema, located: false)
    }

    package init(
        _ bytes: [UInt8], file: URL, schema: GraphQLSchema, located: Bool = true
    ) throws(GraphQLMocksError) {
        let root: DocumentNode
        do {
            root = try DocumentSyntax(of: bytes) == .json ? DocumentNode.parseJSON(bytes) : YAMLReader.parse(bytes)
        } catch {
            let (line, column) = DocumentSource.location(of: error.offset, in: bytes)
            throw GraphQLMocksError(problems: [
                GraphQLSchemaError.Problem(
                    file: file.path, location: GraphQLLocation(line: line, column: column),
                    message: "This isn't JSON or YAML: \(error.reason)")
            ])
        }
        // A value is read, answered and measured by recursion: as deep as a request's JSON may
        // be, under its section and name (and an answer's `data`).
        guard GraphQLJSON.depth(of: root) <= GraphQLJSON.maximumRequestDepth + 4 else {
            throw GraphQLMocksError(problems: [
                GraphQLSchemaError.Problem(
                    file: located ? file.path : nil, location: nil,
                    message: "The mocks nest deeper than \(GraphQLJSON.maximumRequestDepth) levels under a section "
                        + "and a name; no GraphQL answer needs that many.")
            ])
        }
        var checker = GraphQLMocksChecker(
            schema: schema, source: DocumentSource(url: file, bytes: bytes, root: root), located: located)
        self = checker.read(root)
        guard checker.problems.isEmpty else {
            // In the order of the file, as a compiler lists its errors.
            let ordered = checker.problems.sorted { first, second in
                let (a, b) = (
                    first.location ?? GraphQLLocation(line: 0, column: 0),
                    second.location ?? GraphQLLocation(line: 0, column: 0)
                )
                return (a.line, a.column) < (b.line, b.column)
            }
            throw GraphQLMocksError(problems: ordered)
        }
    }
}

/// Why a mocks file can't be used: each problem with its file, line and column.
///
/// ```swift
/// do {
///     _ = try GraphQLMocks(types: ["Human": ["name": 4]], checkedAgainst: schema)
/// } catch {
///     print(error)  // types.Human.name: String cannot represent value: 4.
/// }
/// ```
public struct GraphQLMocksError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Every problem found, in the order of the file.
    public var problems: [GraphQLSchemaError.Problem]
    /// Whether the mocks file isn't there (a command exits 66 then, not 65).
    public var isFileMissing = false

    /// Each problem on a line of its own.
    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}

/// Reads a mocks file's sections and checks each value against the schema's types.
struct GraphQLMocksChecker {
    let schema: GraphQLSchema
    let source: DocumentSource
    /// Whether problems name their place in the file (not for mocks written in Swift, whose
    /// text is the checker's own).
    var located = true
    var problems: [GraphQLSchemaError.Problem] = []

    mutating func report(_ node: DocumentNode, _ message: String) {
        guard located else {
            problems.append(GraphQLSchemaError.Problem(file: nil, location: nil, message: message))
            return
        }
        let (line, column) = source.location(of: node.offset)
        problems.append(
            GraphQLSchemaError.Problem(
                file: source.url.path, location: GraphQLLocation(line: line, column: column), message: message))
    }

    mutating func read(_ root: DocumentNode) -> GraphQLMocks {
        var mocks = GraphQLMocks()
        guard case .object(let sections) = root.value else {
            report(root, "A mocks file is an object with `scalars`, `types`, `operations` and `subscriptions`.")
            return mocks
        }
        let known = ["scalars", "types", "operations", "subscriptions"]
        for section in sections.members {
            guard known.contains(section.key) else {
                report(
                    section.value,
                    "Unknown section `\(section.key)`; a mocks file has `scalars`, `types`, `operations` and "
                        + "`subscriptions`." + didYouMean(suggestions(for: section.key, among: known)))
                continue
            }
            guard case .object(let entries) = section.value.value else {
                report(section.value, "`\(section.key)` is an object keyed by names; write `\(section.key): {…}`.")
                continue
            }
            for entry in entries.members {
                let place = "\(section.key).\(entry.key)"
                switch section.key {
                case "scalars": readScalar(entry.key, entry.value, place, into: &mocks)
                case "types": readType(entry.key, entry.value, place, into: &mocks)
                case "operations":
                    if let answer = readAnswer(entry.value, place, roots: operationRoots) {
                        mocks.operations[entry.key] = answer
                    }
                default: readEvents(entry.key, entry.value, place, into: &mocks)
                }
            }
        }
        return mocks
    }

    private var operationRoots: [GraphQLNamedType] {
        [schema.rootType(for: .query), schema.rootType(for: .mutation)].compactMap { $0 }
    }

    private mutating func readScalar(
        _ name: String, _ node: DocumentNode, _ place: String, into mocks: inout GraphQLMocks
    ) {
        guard let type = schema.types[name], type.kind == .scalar else {
            let scalars = schema.typeNames.filter { schema.types[$0]?.kind == .scalar }
            report(
                node,
                "\(place): the schema has no scalar `\(name)`." + didYouMean(suggestions(for: name, among: scalars)))
            return
        }
        let value = GraphQLJSON(node)
        if case .failure(let mistake) = GraphQLOutputCoercion.leaf(value, as: type) {
            report(node, "\(place): \(mistake.message); give a value of the scalar.")
            return
        }
        mocks.scalars[name] = value
    }

    private mutating func readType(
        _ name: String, _ node: DocumentNode, _ place: String, into mocks: inout GraphQLMocks
    ) {
        guard let type = schema.types[name], type.kind == .object || type.kind == .interface else {
            let composite = schema.typeNames.filter {
                schema.types[$0].map { $0.kind == .object || $0.kind == .interface } ?? false
            }
            report(
                node,
                "\(place): the schema has no object or interface type `\(name)`."
                    + didYouMean(suggestions(for: name, among: composite.filter { !$0.hasPrefix("__") })))
            return
        }
        guard case .object(let members) = node.value else {
            report(node, "\(place): give the type's field values as an object (`{name: …}`).")
            return
        }
        for member in members.members {
            guard let field = type.field(member.key) else {
                report(
                    member.value,
                    "\(place).\(member.key): `\(name)` has no field `\(member.key)`."
                        + didYouMean(suggestions(for: member.key, among: type.fields.map(\.name))))
                continue
            }
            check(member.value, as: field.type, at: "\(place).\(member.key)")
        }
        mocks.types[name] = GraphQLJSON(node)
    }

    /// An answer (`{"data": …, "errors": […]}`) checked against the first of `roots` that has
    /// every field its data names.
    private mutating func readAnswer(_ node: DocumentNode, _ place: String, roots: [GraphQLNamedType]) -> GraphQLJSON? {
        guard case .object(let answer) = node.value else {
            report(node, "\(place): an answer is an object: `{data: {…}}`, with `errors: […]` if it has any.")
            return nil
        }
        for member in answer.members where member.key != "data" && member.key != "errors" {
            report(member.value, "\(place).\(member.key): an answer has only `data` and `errors`.")
        }
        if let errors = answer[member: "errors"]?.value {
            let messages: Bool
            if case .array(let items) = errors.value {
                messages = items.allSatisfy { item in if case .string? = item["message"]?.value { true } else { false }
                }
            } else {
                messages = false
            }
            if !messages { report(errors, "\(place).errors: a list of objects, each with a `message`.") }
        }
        guard let data = answer[member: "data"]?.value else { return GraphQLJSON(node) }
        guard case .object(let fields) = data.value else {
            if case .null = data.value { return GraphQLJSON(node) }
            report(data, "\(place).data: the data is an object keyed by root fields.")
            return nil
        }
        let keys = fields.members.map(\.key).filter { $0 != "__typename" }
        let root = roots.first { root in keys.allSatisfy { root.field($0) != nil } } ?? roots.first
        if let root { checkObject(data, as: root, at: "\(place).data") }
        return GraphQLJSON(node)
    }

    private mutating func readEvents(
        _ name: String, _ node: DocumentNode, _ place: String, into mocks: inout GraphQLMocks
    ) {
        guard let root = schema.rootType(for: .subscription) else {
            report(node, "\(place): the schema has no subscription type; remove `subscriptions` or add one.")
            return
        }
        guard case .array(let events) = node.value else {
            report(node, "\(place): a subscription's events are a list of answers: `[{data: {…}}, …]`.")
            return
        }
        var answers: [GraphQLJSON] = []
        for (index, event) in events.enumerated() {
            if let answer = readAnswer(event, "\(place)[\(index)]", roots: [root]) { answers.append(answer) }
        }
        mocks.subscriptions[name] = answers
    }
}

extension GraphQLMocksChecker {
    /// Checks a value against `type`: a null only where the type allows it, a list where it is
    /// a list, a leaf its scalar or enum takes, an object's fields its type has (as deep as the
    /// file nests, which its reader bounds).
    mutating func check(_ node: DocumentNode, as type: GraphQLTypeReference, at place: String) {
        if case .null = node.value {
            if type.isNonNull { report(node, "\(place): null, but `\(type)` is non-null; give a value.") }
            return
        }
        switch type.nullable {
        case .list(let item):
            guard case .array(let items) = node.value else {
                report(node, "\(place): `\(type)` is a list; write `[…]`.")
                return
            }
            for (index, element) in items.enumerated() { check(element, as: item, at: "\(place)[\(index)]") }
        case .named(let name):
            guard let named = schema.types[name.value] else { return }
            if named.kind.isLeaf {
                if case .failure(let mistake) = GraphQLOutputCoercion.leaf(GraphQLJSON(node), as: named) {
                    report(node, "\(place): \(mistake.message).")
                }
            } else {
                checkObject(node, as: named, at: place)
            }
        case .nonNull:
            return
        }
    }

    /// Checks an object's fields against `type`, the object type its `__typename` names (or
    /// the first whose fields it has) when `type` is abstract.
    mutating func checkObject(_ node: DocumentNode, as type: GraphQLNamedType, at place: String) {
        guard case .object(let members) = node.value else {
            report(node, "\(place): `\(type.name)` is an object; write its fields as `{…}`.")
            return
        }
        var concrete = type
        if type.kind.isAbstract {
            let possible = schema.possibleTypes[type.name] ?? []
            if let typename = members[member: "__typename"]?.value {
                guard case .string(let name) = typename.value, possible.contains(name), let named = schema.types[name]
                else {
                    report(
                        typename,
                        "\(place).__typename: `\(type.name)` is one of \(possible.joined(separator: ", ")); "
                            + "name one of them.")
                    return
                }
                concrete = named
            } else {
                let keys = members.members.map(\.key)
                guard
                    let fitting = possible.compactMap({ schema.types[$0] }).first(where: { candidate in
                        keys.allSatisfy { candidate.field($0) != nil }
                    })
                else {
                    report(
                        node,
                        "\(place): no type of `\(type.name)` (\(possible.joined(separator: ", "))) has all these "
                            + "fields; say which with `__typename`.")
                    return
                }
                concrete = fitting
            }
        }
        for member in members.members where member.key != "__typename" {
            guard let field = concrete.field(member.key) else {
                report(
                    member.value,
                    "\(place).\(member.key): `\(concrete.name)` has no field `\(member.key)`; write values under "
                        + "field names (a request's alias finds its field's value)."
                        + didYouMean(suggestions(for: member.key, among: concrete.fields.map(\.name))))
                continue
            }
            check(member.value, as: field.type, at: "\(place).\(member.key)")
        }
    }
}
