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

    /// How the contract answered one request: the operation, the status, and where the body
    /// came from. The `RequestMocker-OpenAPI` header, the journal and the server's log show it
    /// the same way: `getPet 200 example dog`.
    public struct Answer: Sendable, Hashable, CustomStringConvertible {
        /// The `operationId`, else the method and the path template.
        public let operation: String
        public let status: Int
        /// `example` (the media type's single example), `example NAME`, `schema example`,
        /// `generated`, `dynamic SEED`, either with ` minimal` after it (the smallest valid body,
        /// made because the full one passes the bounds on a body's size), `empty` (no body), or
        /// `problem` (the contract source's own problem+json).
        public let how: String
        /// What the request broke, one line each (`query limit: expected integer, got "x"`).
        public let violations: [String]

        public var description: String { "\(operation) \(status) \(how)" }
    }
}

extension MockRegistry {
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
        var members: [String: JSONValue] = [:]
        for source in contractSources where source.remembers {
            members.merge(source.store.snapshot()) { _, latest in latest }
        }
        return .object(members)
    }

    /// Puts every remembering contract's resources back as they started: the contract's examples.
    public func resetResources() {
        for source in contractSources { source.resetResources() }
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
