import RequestMocker

extension OpenAPIContract {
    /// One operation of a contract: a method on a path template, with what it declares.
    ///
    /// ```swift
    /// let getPet = contract.operations.first { $0.operationID == "getPet" }
    /// getPet?.path       // "/pets/{petId}"
    /// getPet?.statuses   // ["200", "404", "default"]
    /// ```
    public struct Operation: Sendable, Hashable, CustomStringConvertible {
        /// The method, upper case.
        public let method: HTTPMethod
        /// The path template as the contract writes it (`/pets/{petId}`).
        public let path: String
        /// The `operationId`, when there is one.
        public let operationID: String?
        /// The declared response statuses in document order: codes (`200`), ranges (`2XX`) and
        /// `default`.
        public let statuses: [String]
        /// The media types of its responses' bodies, each once, in document order.
        public let mediaTypes: [String]
        /// The media types its request body may have, in document order.
        public let requestMediaTypes: [String]
        /// Whether the contract marks it `deprecated`.
        public let isDeprecated: Bool
        /// Where it is declared: the JSON pointer in the entry file (`#/paths/~1pets/get`).
        public let pointer: String
        /// The base path of its own or its path's `servers`, when they override the contract's.
        let serverPath: String?

        /// The `operationId`, else the method and the template: how logs and reports name it.
        public var description: String { operationID ?? "\(method) \(path)" }
    }
}

/// Reads the operations of a contract's `paths`, following the `$ref`s on the way.
struct OperationReader {
    let files: ContractFiles
    private(set) var notices: [String] = []
    /// Where each operation read is declared, and its path item, in the order read.
    private(set) var declarations: [(operation: Located, item: Located)] = []

    init(files: ContractFiles) {
        self.files = files
    }

    /// The methods a path item may declare, as its keys (3.2's `query` too).
    static let methods: Set<String> = ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"]

    mutating func operations(of root: Located) throws(OpenAPIContract.Error) -> [OpenAPIContract.Operation] {
        guard let paths = root.member("paths") else { return [] }
        guard paths.node.object != nil else {
            throw paths.error("\"paths\" is \(paths.node.kind); it must be an object")
        }
        var operations: [OpenAPIContract.Operation] = []
        var referencedOperations: [String] = []
        for (written, declared) in paths.members {
            var template = written
            if !template.hasPrefix("/") {
                files.note(
                    declared, "the path \"\(written)\" doesn't start with \"/\"",
                    assumed: "a path without its leading \"/\" is read with one")
                template = "/" + written
            }
            let item = try files.resolve(declared)
            guard item.node.object != nil else {
                files.note(
                    item, "the path item is \(item.node.kind)",
                    assumed: "a path item or an operation that isn't an object is left out")
                continue
            }
            let itemServerPath = Self.serverPath(of: item)
            for (key, declared) in item.members where Self.methods.contains(key) {
                if declared.node["$ref"]?.string != nil {
                    referencedOperations.append("\(key.uppercased()) \(template)")
                }
                let operation = try files.resolve(declared)
                guard operation.node.object != nil else {
                    files.note(
                        operation, "the operation is \(operation.node.kind)",
                        assumed: "a path item or an operation that isn't an object is left out")
                    continue
                }
                operations.append(
                    try read(
                        operation, method: HTTPMethod(rawValue: key), path: template, at: declared,
                        serverPath: Self.serverPath(of: operation) ?? itemServerPath))
                declarations.append((operation, item))
            }
        }
        if !referencedOperations.isEmpty {
            let count = referencedOperations.count
            notices.append(
                (count == 1 ? "1 operation is" : "\(count) operations are")
                    + " given as a $ref, which the specification doesn't allow there; read from what the $ref names: "
                    + referencedOperations.prefix(5).joined(separator: ", ")
                    + (referencedOperations.count > 5 ? ", …" : ""))
        }
        noteDuplicateIDs(in: operations)
        return operations
    }

    private func read(
        _ operation: Located, method: HTTPMethod, path: String, at declared: Located, serverPath: String?
    ) throws(OpenAPIContract.Error) -> OpenAPIContract.Operation {
        var statuses: [String] = []
        var mediaTypes: [String] = []
        for (status, written) in try files.members(of: operation.member("responses"), "responses") {
            statuses.append(status)
            let response = try files.resolve(written)
            for mediaType in try contentTypes(of: response) where !mediaTypes.contains(mediaType) {
                mediaTypes.append(mediaType)
            }
        }
        var requestMediaTypes: [String] = []
        if let body = operation.member("requestBody") {
            requestMediaTypes = try contentTypes(of: try files.resolve(body))
        }
        let operationID = operation.member("operationId")?.node.string
        return OpenAPIContract.Operation(
            method: method, path: path, operationID: operationID, statuses: statuses, mediaTypes: mediaTypes,
            requestMediaTypes: requestMediaTypes, isDeprecated: operation.node["deprecated"]?.bool == true,
            pointer: declared.pointer, serverPath: serverPath)
    }

    /// The path of the first of `value`'s `servers`, its variables at their defaults, without a
    /// trailing slash (`https://api.example.com/v1/` gives `/v1`; a relative `/v1` is a path
    /// already); `nil` when it lists no server.
    static func serverPath(of value: Located) -> String? {
        guard case .array(let servers) = value.node["servers"]?.value, var url = servers.first?["url"]?.string else {
            return nil
        }
        let variables = servers.first?["variables"]?.object
        for member in variables?.members ?? [] {
            url = url.replacingOccurrences(of: "{\(member.key)}", with: member.value["default"]?.string ?? "")
        }
        var path = url
        if let scheme = url.range(of: "://") {
            let afterHost = url[scheme.upperBound...].firstIndex(of: "/") ?? url.endIndex
            path = String(url[afterHost...])
        }
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = String(path[..<end]) }
        while path.hasSuffix("/") { path.removeLast() }
        return path.isEmpty || path.hasPrefix("/") ? path : "/" + path
    }

    /// The keys of a response's or request body's `content`.
    private func contentTypes(of value: Located) throws(OpenAPIContract.Error) -> [String] {
        try files.members(of: value.member("content"), "content").map(\.key)
    }

    /// `operationId`s must be unique; where one isn't, asking for it by name gets the first.
    private mutating func noteDuplicateIDs(in operations: [OpenAPIContract.Operation]) {
        var seen: [String: OpenAPIContract.Operation] = [:]
        for operation in operations {
            guard let id = operation.operationID else { continue }
            if let first = seen[id] {
                notices.append(
                    "operationId \"\(id)\" names both \(first.method) \(first.path) and \(operation.method) "
                        + "\(operation.path); by that name, the first is meant")
            } else {
                seen[id] = operation
            }
        }
    }
}
