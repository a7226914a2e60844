import Foundation
import RequestMocker

extension GraphQLSchema {
    /// The schema an introspection result describes: `{"data": {"__schema": …}}` or
    /// `{"__schema": …}`, the `schema.json` an Apollo iOS project keeps. It is checked by the
    /// same rules as SDL, and a problem points into the JSON (`file:line:column`).
    ///
    /// - Throws: ``GraphQLSchemaError`` with every problem.
    package convenience init(introspection source: GraphQLSource) throws(GraphQLSchemaError) {
        var reader = IntrospectionReader(source: source)
        let definitions = reader.definitions()
        guard reader.problems.isEmpty else { throw GraphQLSchemaError(problems: reader.problems) }
        var builder = GraphQLSchemaBuilder(source: source)
        guard let schema = builder.build(GraphQLDocument(source: source, definitions: definitions)) else {
            throw GraphQLSchemaError(problems: builder.problems)
        }
        self.init(copying: schema)
    }
}

/// Turns an introspection result into the type system's definitions, as if read from SDL, so
/// one builder and one set of rules serve both. Each definition's places are the JSON's.
private struct IntrospectionReader {
    let source: GraphQLSource
    var problems: [GraphQLSchemaError.Problem] = []

    mutating func problem(at offset: Int, _ message: String) {
        problems.append(
            GraphQLSchemaError.Problem(file: source.name, location: source.location(of: offset), message: message))
    }

    mutating func definitions() -> [GraphQLDocument.Definition] {
        let root: DocumentNode
        do {
            root = try DocumentNode.parseJSON(source.bytes)
        } catch {
            problem(at: error.offset, "The introspection result isn't JSON: \(error.reason).")
            return []
        }
        guard let schema = root["data"]?["__schema"] ?? root["__schema"], schema.object != nil else {
            problem(
                at: root.offset,
                "This JSON isn't an introspection result: it has neither `data.__schema` nor `__schema`; "
                    + "save what the introspection query answers, or give the schema's SDL.")
            return []
        }
        var definitions: [GraphQLDocument.Definition] = []
        var operationTypes: [(kind: GraphQLOperationKind, type: GraphQLName)] = []
        for kind in GraphQLOperationKind.allCases {
            let key = kind.rawValue + "Type"
            guard let node = schema[key], node.object != nil else { continue }
            guard let name = string(node, "name") else { continue }
            operationTypes.append((kind, GraphQLName(name, at: node.offset)))
        }
        if operationTypes.isEmpty {
            problem(at: schema.offset, "The introspection result has no `queryType`: every schema has a query root.")
        }
        definitions.append(
            .schema(
                GraphQLSchemaDefinition(
                    offset: schema.offset, description: string(schema, "description"), isExtension: false,
                    directives: [], operationTypes: operationTypes)))
        for type in array(schema, "types") {
            guard let name = string(type, "name"), !name.hasPrefix("__") else { continue }
            if let definition = typeDefinition(type, name: name) { definitions.append(.type(definition)) }
        }
        for directive in array(schema, "directives") {
            guard let name = string(directive, "name"), !GraphQLBuiltIns.directiveNames.contains(name) else { continue }
            let locations = array(directive, "locations").compactMap { node in
                node.string.map { GraphQLName($0, at: node.offset) }
            }
            definitions.append(
                .directive(
                    GraphQLDirectiveDefinition(
                        offset: directive.offset, description: string(directive, "description"),
                        name: GraphQLName(name, at: directive.offset), arguments: inputValues(directive, "args"),
                        isRepeatable: directive["isRepeatable"]?.bool ?? false, locations: locations)))
        }
        return definitions
    }

    private mutating func typeDefinition(_ node: DocumentNode, name: String) -> GraphQLTypeDefinition? {
        let kinds: [String: GraphQLTypeDefinition.Kind] = [
            "SCALAR": .scalar, "OBJECT": .object, "INTERFACE": .interface, "UNION": .union, "ENUM": .enumeration,
            "INPUT_OBJECT": .inputObject,
        ]
        guard let kindName = string(node, "kind"), let kind = kinds[kindName] else {
            problem(
                at: node["kind"]?.offset ?? node.offset,
                "The type \"\(name)\" has no kind a named type has: it is \(node["kind"]?.string ?? "missing"); "
                    + "a type's kind is one of " + kinds.keys.sorted().joined(separator: ", ") + ".")
            return nil
        }
        var definition = GraphQLTypeDefinition(
            offset: node.offset, description: string(node, "description"), isExtension: false, kind: kind,
            name: GraphQLName(name, at: node.offset))
        if let url = string(node, "specifiedByURL") {
            definition.directives.append(
                directive("specifiedBy", at: node.offset, arguments: ["url": .string(url, block: false)]))
        }
        if node["isOneOf"]?.bool == true { definition.directives.append(directive("oneOf", at: node.offset)) }
        definition.interfaces = array(node, "interfaces").compactMap { reference in
            string(reference, "name").map { GraphQLName($0, at: reference.offset) }
        }
        definition.members = array(node, "possibleTypes").compactMap { reference in
            kind == .union ? string(reference, "name").map { GraphQLName($0, at: reference.offset) } : nil
        }
        for field in array(node, "fields") {
            guard let fieldName = string(field, "name"), let type = typeReference(field["type"], of: field) else {
                continue
            }
            definition.fields.append(
                GraphQLFieldDefinition(
                    offset: field.offset, description: string(field, "description"),
                    name: GraphQLName(fieldName, at: field.offset), arguments: inputValues(field, "args"), type: type,
                    directives: deprecation(field)))
        }
        for value in array(node, "enumValues") {
            guard let valueName = string(value, "name") else { continue }
            definition.values.append(
                GraphQLEnumValueDefinition(
                    offset: value.offset, description: string(value, "description"),
                    name: GraphQLName(valueName, at: value.offset), directives: deprecation(value)))
        }
        definition.inputFields = inputValues(node, "inputFields")
        return definition
    }

    private mutating func inputValues(_ node: DocumentNode, _ key: String) -> [GraphQLInputValueDefinition] {
        array(node, key).compactMap { value -> GraphQLInputValueDefinition? in
            guard let name = string(value, "name"), let type = typeReference(value["type"], of: value) else {
                return nil
            }
            var defaultValue: GraphQLValue?
            if let text = string(value, "defaultValue") {
                do throws(GraphQLSyntaxError) {
                    var parsed = try GraphQLParser.parseConstantValue(GraphQLSource(text))
                    parsed.offset = value["defaultValue"]?.offset ?? value.offset
                    defaultValue = parsed
                } catch {
                    problem(
                        at: value["defaultValue"]?.offset ?? value.offset,
                        "The default value of \"\(name)\" isn't a GraphQL value: \(error.message) It reads: \(text)")
                }
            }
            return GraphQLInputValueDefinition(
                offset: value.offset, description: string(value, "description"),
                name: GraphQLName(name, at: value.offset), type: type, defaultValue: defaultValue,
                directives: deprecation(value))
        }
    }

    /// A type reference, `{"kind": "NON_NULL", "ofType": {"kind": "LIST", …}}`, read without
    /// recursion (the JSON reader bounds its nesting).
    private mutating func typeReference(_ node: DocumentNode?, of owner: DocumentNode) -> GraphQLTypeReference? {
        var wrappers: [String] = []
        var current = node
        while let reference = current {
            let kind = string(reference, "kind")
            if kind == "NON_NULL" || kind == "LIST" {
                wrappers.append(kind ?? "")
                current = reference["ofType"]
                continue
            }
            guard let name = string(reference, "name") else { break }
            var type = GraphQLTypeReference.named(GraphQLName(name, at: reference.offset))
            for wrapper in wrappers.reversed() {
                if wrapper == "LIST" {
                    type = .list(type)
                } else if case .nonNull = type {
                    problem(at: reference.offset, "A type reference wraps NON_NULL in NON_NULL: unwrap one.")
                } else {
                    type = .nonNull(type)
                }
            }
            return type
        }
        problem(
            at: (current ?? owner).offset,
            "A type reference ends without a named type: give `name`, or `ofType` under NON_NULL and LIST.")
        return nil
    }

    /// `@deprecated(reason:)` for a member the result marks deprecated.
    private func deprecation(_ node: DocumentNode) -> [GraphQLDirective] {
        guard node["isDeprecated"]?.bool == true else { return [] }
        let reason = string(node, "deprecationReason") ?? GraphQLBuiltIns.defaultDeprecationReason
        return [directive("deprecated", at: node.offset, arguments: ["reason": .string(reason, block: false)])]
    }

    private func directive(
        _ name: String, at offset: Int, arguments: KeyValuePairs<String, GraphQLValue.Kind> = [:]
    ) -> GraphQLDirective {
        GraphQLDirective(
            offset: offset, name: GraphQLName(name, at: offset),
            arguments: arguments.map { key, value in
                GraphQLArgument(name: GraphQLName(key, at: offset), value: GraphQLValue(kind: value, offset: offset))
            })
    }

    private func string(_ node: DocumentNode, _ key: String) -> String? {
        node[key]?.string
    }

    private func array(_ node: DocumentNode, _ key: String) -> [DocumentNode] {
        if case .array(let elements) = node[key]?.value { elements } else { [] }
    }
}
