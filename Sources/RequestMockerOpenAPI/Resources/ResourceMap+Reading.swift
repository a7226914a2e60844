import RequestMocker

/// Finds a contract's resources for ``ResourceMap``: groups the operations by path, pairs item
/// paths with their collections, and reads each collection's id, shapes, paging and filters
/// from its operations' schemas and parameters.
struct ResourceMapReader {
    let contract: OpenAPIContract
    private(set) var collections: [ResourceMap.Collection] = []
    private(set) var singletons: [ResourceMap.Singleton] = []
    private(set) var skipped: [String] = []

    /// The names an item's id property may have after the path parameter's own.
    static let idNames = ["id", "pk", "uuid", "key"]
    /// The names of a list's integer members that count its items.
    static let totalNames: Set<String> = ["count", "total", "total_count", "totalCount"]
    /// The names of a page's size parameter, in the order they are looked for.
    static let pageSizeNames = ["per_page", "page_size", "pageSize", "size", "limit"]

    init(contract: OpenAPIContract) {
        self.contract = contract
    }

    /// A path template without its trailing slash (the root stays `/`), or `nil` for a path key
    /// that carries a query or a fragment, which names no resource.
    static func normalized(_ template: String) -> String? {
        // In bytes: every stateful answer asks, and `String.contains(String)` goes through Foundation.
        let bytes = template.utf8
        guard !bytes.contains(UInt8(ascii: "?")), !bytes.contains(UInt8(ascii: "#")) else { return nil }
        guard bytes.count > 1, bytes.last == UInt8(ascii: "/") else { return template }
        var path = template
        while path.utf8.count > 1, path.utf8.last == UInt8(ascii: "/") { path.removeLast() }
        return path
    }

    /// The template's last segment's parameter name, when the whole segment is one (`{petId}`).
    static func lastParameter(of path: String) -> String? {
        guard let last = path.split(separator: "/").last, last.hasPrefix("{"), last.hasSuffix("}"),
            !last.dropFirst().dropLast().contains(where: { $0 == "{" || $0 == "}" })
        else { return nil }
        return String(last.dropFirst().dropLast())
    }

    /// The template without its last segment (`/` for a path of one segment).
    static func parent(of path: String) -> String {
        let segments = path.split(separator: "/")
        return "/" + segments.dropLast().joined(separator: "/")
    }

    /// The names of the template's parameters, in order.
    static func parameters(in path: String) -> [String] {
        // `{`, one or more characters that are no brace, `}`: scanned, as a request's every
        // answer asks (a regular expression literal is compiled again at each call).
        var names: [String] = []
        var rest = Substring(path)
        while let open = rest.firstIndex(of: "{") {
            let after = rest[rest.index(after: open)...]
            guard let close = after.firstIndex(where: { $0 == "{" || $0 == "}" }) else { break }
            if after[close] == "{" {
                rest = after[close...]
                continue
            }
            if close > after.startIndex { names.append(String(after[..<close])) }
            rest = after[after.index(after: close)...]
        }
        return names
    }

    mutating func read() {
        // The operations of each path, by method; the path as the contract first wrote it.
        var order: [String] = []
        var written: [String: String] = [:]
        var methods: [String: [HTTPMethod: Int]] = [:]
        for (index, operation) in contract.operations.enumerated() {
            guard let path = Self.normalized(operation.path) else { continue }
            if methods[path] == nil {
                order.append(path)
                written[path] = operation.path
            }
            methods[path, default: [:]][operation.method] = methods[path]?[operation.method] ?? index
        }
        var itemPaths: [String: String] = [:]
        for path in order {
            guard Self.lastParameter(of: path) != nil, path != "/" else { continue }
            let parent = Self.parent(of: path)
            if methods[parent] != nil, itemPaths[parent] == nil { itemPaths[parent] = path }
        }
        for path in order {
            guard let itemPath = itemPaths[path], let item = methods[itemPath], let own = methods[path] else {
                continue
            }
            readCollection(
                path: written[path] ?? path, itemPath: written[itemPath] ?? itemPath, own: own, item: item)
        }
        let collectionItems = Set(collections.compactMap { Self.normalized($0.itemPath) })
        for path in order where Self.lastParameter(of: path) == nil && itemPaths[path] == nil {
            guard collectionItems.contains(Self.parent(of: path)), let own = methods[path], own[.get] != nil,
                own[.put] != nil || own[.patch] != nil
            else { continue }
            var operations: [ResourceMap.Role: Int] = [:]
            operations[.read] = own[.get]
            operations[.replace] = own[.put]
            operations[.merge] = own[.patch]
            let template = written[path] ?? path
            singletons.append(
                ResourceMap.Singleton(
                    path: template, parentParameters: Self.parameters(in: template), operations: operations))
        }
    }

    private mutating func readCollection(
        path: String, itemPath: String, own: [HTTPMethod: Int], item: [HTTPMethod: Int]
    ) {
        let parameter = Self.lastParameter(of: Self.normalized(itemPath) ?? itemPath) ?? "id"
        // The item as a read answers it, else as a create or a replace does.
        guard
            let answered = [item[.get], own[.post], item[.put], item[.patch]].lazy.compactMap({ $0 })
                .compactMap(successSchema).first
        else {
            skipped.append("\(path): not kept, its items have no JSON schema in any answer")
            return
        }
        let names = [parameter] + Self.idNames
        let (itemSchema, itemShape) = Self.itemShape(of: answered, names: names) ?? (answered, .bare)
        let properties = itemSchema.lookup.properties
        guard let idName = names.first(where: { name in properties.contains { $0.name == name } }) else {
            skipped.append(
                "\(path): not kept, its items have no id property (\(names.joined(separator: ", ")))")
            return
        }
        let idSchema = properties.first { $0.name == idName }?.schema
        var operations: [ResourceMap.Role: Int] = [:]
        operations[.create] = own[.post]
        operations[.read] = item[.get]
        operations[.replace] = item[.put]
        operations[.merge] = item[.patch]
        operations[.delete] = item[.delete]
        var list: ResourceMap.Shape?
        var totals: [[String]] = []
        var paging: ResourceMap.Paging?
        var filters: [String] = []
        var ignored: [String] = []
        if let index = own[.get], let schema = successSchema(index) {
            list = Self.listShape(schema, item: itemSchema, idName: idName)
            if list != nil {
                operations[.list] = index
                if case .wrapped = list { totals = Self.totals(in: schema) }
                let query = contract.plans[index].parameters.filter { $0.location == .query }
                paging = Self.paging(query)
                let pagingNames: Set<String> =
                    switch paging {
                    case .offset(let limit, let offset, _)?: [limit, offset]
                    case .page(let page, let size, _)?: Set([page] + (size.map { [$0] } ?? []))
                    case nil: []
                    }
                let itemNames = Set(properties.map(\.name))
                for name in query.map(\.name) where !pagingNames.contains(name) {
                    if itemNames.contains(name) { filters.append(name) } else { ignored.append(name) }
                }
            }
        }
        // Where each item operation's 2xx answers hold the item, found once rather than per answer.
        var answerShapes: [ResourceMap.AnswerKey: ResourceMap.Shape] = [:]
        for index in operations.values where index != operations[.list] {
            for response in contract.plans[index].responses {
                guard let status = Int(response.status), (200..<300).contains(status),
                    let schema = response.content.first(where: { $0.mediaType.isJSON })?.schema
                else { continue }
                answerShapes[ResourceMap.AnswerKey(operation: index, status: status)] =
                    Self.itemShape(of: schema, names: names)?.shape ?? .bare
            }
        }
        collections.append(
            ResourceMap.Collection(
                path: path, itemPath: itemPath, parentParameters: Self.parameters(in: path),
                itemParameter: parameter, idProperty: idName, idKind: Self.idKind(idSchema), idSchema: idSchema,
                itemSchema: itemSchema, item: itemShape, list: list, totals: totals, paging: paging,
                filters: filters, ignoredParameters: ignored, operations: operations, answerShapes: answerShapes))
    }

    /// The JSON schema of the operation's lowest declared 2xx response.
    private func successSchema(_ index: Int) -> Schema? {
        ResourceMap.readSchema(of: index, in: contract)
    }

    /// The item a response's schema holds, and where: the schema itself when it has one of the
    /// id's `names`, else its one member when that is an object (`{"pet": {...}}`), else its items
    /// when it is an array of such objects (an item answered alone in an array); `nil` when it is
    /// none of these.
    static func itemShape(of schema: Schema, names: [String]) -> (schema: Schema, shape: ResourceMap.Shape)? {
        let lookup = schema.lookup
        let properties = lookup.properties
        if properties.contains(where: { names.contains($0.name) }) { return (schema, .bare) }
        if lookup.types == ["array"], let items = lookup.items,
            items.lookup.properties.contains(where: { names.contains($0.name) })
        {
            return (items, .alone)
        }
        guard properties.count == 1, let (member, inner) = properties.first,
            inner.lookup.types?.contains("object") == true
        else { return nil }
        return (inner, .wrapped(member: member))
    }

    /// Where a list response's schema holds the items: the array itself, or the object member
    /// that is an array of items (the one whose items are the item schema or have its id, else
    /// the only array member); `nil` when it holds no list of items.
    static func listShape(_ schema: Schema, item: Schema, idName: String) -> ResourceMap.Shape? {
        let lookup = schema.lookup
        if lookup.types?.contains("array") == true { return .bare }
        let arrays = lookup.properties.filter { $0.schema.lookup.types?.contains("array") == true }
        if let member = arrays.first(where: { member in
            guard let items = member.schema.lookup.items else { return false }
            return items === item || items.lookup.declares(idName)
        }) {
            return .wrapped(member: member.name)
        }
        return arrays.count == 1 ? .wrapped(member: arrays[0].name) : nil
    }

    /// The integer members named like a total, at the top or one object down.
    static func totals(in schema: Schema) -> [[String]] {
        var found: [[String]] = []
        for (name, property) in schema.lookup.properties {
            let types = property.lookup.types ?? []
            if totalNames.contains(name), types.contains("integer") || types.contains("number") {
                found.append([name])
            } else if types.contains("object") {
                for (inner, value) in property.lookup.properties where totalNames.contains(inner) {
                    if value.lookup.types?.contains("integer") == true { found.append([name, inner]) }
                }
            }
        }
        return found
    }

    /// The paging the query parameters ask for: `limit` and `offset`, else `page` with a size.
    static func paging(_ query: [OperationPlan.Parameter]) -> ResourceMap.Paging? {
        let byName = Dictionary(query.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func defaultValue(_ name: String?) -> Int? {
            name.flatMap { byName[$0]?.schema?.defaultNode?.count }
        }
        if byName["limit"] != nil, byName["offset"] != nil {
            return .offset(limit: "limit", offset: "offset", defaultLimit: defaultValue("limit"))
        }
        guard byName["page"] != nil else { return nil }
        let size = pageSizeNames.first { byName[$0] != nil }
        return .page(page: "page", size: size, defaultSize: defaultValue(size))
    }

    static func idKind(_ schema: Schema?) -> ResourceMap.IDKind {
        guard let schema else { return .string }
        let lookup = schema.lookup
        if let types = lookup.types, types.contains("integer") || types.contains("number"), !types.contains("string") {
            return .integer
        }
        return lookup.format == "uuid" ? .uuid : .string
    }
}

extension OpenAPIContract {
    /// The contract's resources: collections, items, singletons, and the operations that stay
    /// stateless.
    package var resourceMap: ResourceMap { ResourceMap(self) }
}
