import RequestMocker

extension OpenAPIContract {
    /// How requests are checked against the contract before they are answered.
    public enum Validation: String, Sendable, Hashable, CaseIterable {
        /// A request the contract doesn't allow is answered with the operation's own `422`,
        /// `400` or `default` response, else a `422` problem listing the violations.
        case strict
        /// Every request is answered as if valid; violations go to the
        /// `RequestMocker-Violations` header and the journal.
        case warn
        /// Requests are not checked.
        case off
    }

    /// How bodies are made where the contract gives no example.
    public enum Generation: Sendable, Hashable {
        /// The same value every time, from the schema alone.
        case `static`
        /// Values drawn from `seed`, the operation, the status, the media type, the path and
        /// the sorted query: the same request gets the same body in every run, another request
        /// another body.
        case dynamic(seed: UInt64)
    }

    /// Whether the contract's resources keep what requests do to them.
    ///
    /// With ``resources``, a collection (`/pets`) and its items (`/pets/{petId}`) answer from a
    /// store the registry keeps: a create is listed and read back, an edit is seen, a delete is
    /// gone. The contract still decides which operations exist, what a valid request is and what
    /// an answer looks like.
    public enum State: Sendable, Hashable {
        /// Every answer as the contract declares it, the same whatever came before (the default).
        case none
        /// Collections, their items and singletons remember, starting from the contract's
        /// examples.
        case resources
    }

    /// How the contract answered one request (`ContractAnswer`, which the journal keeps).
    public typealias Answer = ContractAnswer
}

extension MockRegistry {
    /// Whether a contract is among the sources: `serve`'s log then says when a source before it
    /// answered a request that asked the contract for something (`Prefer: code=404`).
    package var servesContract: Bool {
        state.withLock { state in state.index.ordered.contains { $0.source is ContractSource } }
    }

    /// Adds a contract: requests to its paths that no source before it answers are answered as
    /// the contract declares, after checking them against it.
    ///
    /// ```swift
    /// let contract = try OpenAPIContract(contentsOf: URL(fileURLWithPath: "openapi.json"))
    /// registry.register(contract)                                  // strict, static bodies
    /// registry.register(contract, validation: .warn, generation: .dynamic(seed: 7), basePath: "/v2")
    /// ```
    ///
    /// How a response is chosen, in order:
    /// - the operation: literal path segments before templates, then document order; a path the
    ///   contract lacks goes on to the next source; a known path without the method is a `405`
    ///   with `Allow`;
    /// - the status: `Prefer: code=404` (or the query `__code=404`), else the lowest declared
    ///   2xx, else `2XX`, else `default` (as 200), else `501`;
    /// - the media type: by `Accept`, JSON first without one; nothing acceptable is a `406`;
    /// - the body: `Prefer: example=NAME` (or `__example=NAME`), else the media type's example,
    ///   else its first named example, else the schema's example, else a generated body
    ///   (`Prefer: dynamic=true` or `__dynamic=true` draws it from a seed).
    ///
    /// Every answer carries `RequestMocker-OpenAPI: <operation> <status> <how>`.
    ///
    /// - Parameters:
    ///   - contract: the contract.
    ///   - validation: how requests are checked (``OpenAPIContract/Validation/strict`` by default).
    ///   - generation: how bodies without examples are made.
    ///   - basePath: the path the operations are served under; the contract's own (its first
    ///     server's path) when `nil`. Paths and operations with `servers` of their own keep theirs.
    ///   - state: ``OpenAPIContract/State/resources`` to have the contract's resources remember
    ///     what requests do (see the OpenAPIContracts article, "Resources that remember");
    ///     ``OpenAPIContract/State/none`` (the default) answers every request as declared.
    ///   - placement: ``Placement/last`` (the default) or ``Placement/first``.
    /// - Returns: a handle that removes the contract again.
    @discardableResult
    public func register(
        _ contract: OpenAPIContract, validation: OpenAPIContract.Validation = .strict,
        generation: OpenAPIContract.Generation = .static, basePath: String? = nil,
        state: OpenAPIContract.State = .none, at placement: Placement = .last
    ) -> FilterHandle {
        insert(
            ContractSource(
                contract: contract, validation: validation, generation: generation, basePath: basePath,
                remembering: state == .resources),
            at: placement.position)
    }

    /// What the contracts registered with `state: .resources` hold now: an object whose keys are
    /// the concrete paths of their collections (`/pets`, `/users/7/posts`), each with its items
    /// in creation order, and of their written singletons (`/users/7/settings`), each with its
    /// value; as stored, `writeOnly` members included. Each registry has its own.
    ///
    /// ```swift
    /// registry.register(contract, state: .resources)
    /// _ = try await session.data(for: createPet)          // POST /v1/pets {"name": "Rex"}
    /// #expect(registry.resources["/pets"]?[0]?["name"] == "Rex")
    /// ```
    public var resources: JSONValue {
        resourcesDocument.jsonValue
    }

    /// Adds a contract whose resources remember, starting from `seed` rather than the contract's
    /// examples (and going back to it on ``resetResources()``).
    ///
    /// The seed is an object keyed by the concrete paths of the contract's collections (each an
    /// array of items) and singletons (each an object), with parent ids filled in and without the
    /// base path: the format of ``resources``, of `serve --data FILE` and of `GET
    /// /__admin/resources`. Each item needs its id property and must be valid under the
    /// contract's item schema.
    ///
    /// ```swift
    /// try registry.register(contract, resources: [
    ///     "/pets": [["id": 1, "name": "Rex"], ["id": 2, "name": "Tom"]],
    ///     "/users/7/settings": ["theme": "dark"],
    /// ])
    /// ```
    ///
    /// - Throws: `RequestMockerError.invalidResources(source:line:column:pointer:reason:)` naming
    ///   the first value that doesn't fit (its JSON pointer) and why; nothing is registered then.
    @discardableResult
    public func register(
        _ contract: OpenAPIContract, validation: OpenAPIContract.Validation = .strict,
        generation: OpenAPIContract.Generation = .static, basePath: String? = nil, resources seed: JSONValue,
        at placement: Placement = .last
    ) throws(RequestMockerError) -> FilterHandle {
        let source = ContractSource(
            contract: contract, validation: validation, generation: generation, basePath: basePath, remembering: true)
        let contents = try source.resourceContents(of: Self.document(seed, "the seed"), from: .value("the seed"))
        try Self.carry { () throws(ResourceStore.Refusal) in try source.seedResources(contents) }
        return insert(source, at: placement.position)
    }

    /// Replaces what the remembering contracts hold with `value`, in the format of ``resources``
    /// (as `PUT /__admin/resources` does); a reset still puts back the seed.
    ///
    /// ```swift
    /// try registry.replaceResources(with: ["/pets": [["id": 9, "name": "Kim"]]])
    /// ```
    ///
    /// - Throws: `RequestMockerError.invalidResources(source:line:column:pointer:reason:)` when a
    ///   value doesn't fit the contract, or no contract remembers; nothing changes then.
    public func replaceResources(with value: JSONValue) throws(RequestMockerError) {
        try replaceResources(with: Self.document(value, "the resources"), from: .value("the resources"))
    }

    /// Replaces what the remembering contracts hold with `root`: each key goes to the first
    /// contract that has that resource; every value is checked before anything changes.
    package func replaceResources(
        with root: DocumentNode, from origin: ResourceMap.DataOrigin
    ) throws(RequestMockerError) {
        let sources = contractSources.filter(\.remembers)
        guard let first = sources.first else {
            throw .invalidResources(
                source: origin.name, line: nil, column: nil, pointer: "#",
                reason: "no contract remembers; register one with state: .resources (serve: --stateful)")
        }
        guard case .object(let members) = root.value else {
            _ = try first.resourceContents(of: root, from: origin)
            return
        }
        // Each source's share of the members; a member no source has goes to the first, whose
        // check then names it.
        var shares = Array(repeating: DocumentObject(), count: sources.count)
        for member in members.members {
            let owner =
                sources.firstIndex { source in
                    source.resourceMap.map {
                        $0.collection(at: member.key) != nil || $0.singleton(at: member.key) != nil
                    }
                        ?? false
                } ?? 0
            _ = shares[owner].append(member)
        }
        var checked: [ResourceContents] = []
        for (source, share) in zip(sources, shares) {
            checked.append(try source.resourceContents(of: DocumentNode(.object(share), at: root.offset), from: origin))
        }
        for (source, contents) in zip(sources, checked) {
            try Self.carry { () throws(ResourceStore.Refusal) in try source.store.load(contents) }
        }
    }

    /// Puts every remembering contract's resources back as they started: the seed they were
    /// given, else the contract's examples.
    public func resetResources() {
        // Only a store that saves to a file (`serve --state`) can refuse, and serve resets
        // through ``resetResourcesReporting()``.
        for source in contractSources { try? source.resetResources() }
    }

    /// ``resetResources()``, throwing when a store can't save what it was reset to.
    package func resetResourcesReporting() throws(RequestMockerError) {
        for source in contractSources {
            try Self.carry { () throws(ResourceStore.Refusal) in try source.resetResources() }
        }
    }

    /// What the remembering contracts hold, in the format of ``resources`` with the items'
    /// members in the order they were written: `GET /__admin/resources`.
    package var resourcesDocument: DocumentNode {
        var object = DocumentObject()
        for source in contractSources where source.remembers {
            for member in source.store.document().object?.members ?? [] { _ = object.append(member) }
        }
        return DocumentNode(.object(object), at: 0)
    }

    /// A value given in Swift as a document to check; a value JSON can't hold (an infinite
    /// number) is refused.
    private static func document(_ value: JSONValue, _ name: String) throws(RequestMockerError) -> DocumentNode {
        do {
            return try DocumentNode.parseJSON([UInt8](try value.serialized()))
        } catch {
            throw .invalidResources(source: name, line: nil, column: nil, pointer: "#", reason: "\(error)")
        }
    }

    /// A store's refusal as the error the registry's callers get.
    private static func carry(_ body: () throws(ResourceStore.Refusal) -> Void) throws(RequestMockerError) {
        do {
            try body()
        } catch {
            throw .invalidResources(source: "the store", line: nil, column: nil, pointer: "#", reason: "\(error)")
        }
    }

    private var contractSources: [ContractSource] {
        state.withLock { state in state.index.ordered.compactMap { $0.source as? ContractSource } }
    }

    /// Adds a contract source made beforehand, which `serve` keeps to reload an edited file into.
    @discardableResult
    package func register(_ source: ContractSource, at placement: Placement = .last) -> FilterHandle {
        insert(source, at: placement.position)
    }
}

extension MockRegistry {
    /// The contracts registered, in the order they are tried: what a stub's `"openapi"`
    /// response answers from when it arrives through the admin API.
    package var contracts: [OpenAPIContract] {
        state.withLock { state in state.index.ordered.compactMap { ($0.source as? ContractSource)?.contract } }
    }
}
