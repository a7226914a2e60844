import Foundation
import RequestMocker

/// A contract as a source of answers: routes a request to its operation, checks it, and answers
/// as the operation declares (see `MockRegistry.register(_:validation:generation:basePath:state:at:)`).
///
/// Besides the resources of a contract that remembers, it keeps only what is the same for every
/// request anyway: static generated bodies, and each operation's declared answer to a clean
/// request that asks for nothing.
package final class ContractSource: AnswerSource, CustomStringConvertible {
    /// The contract and its router, replaced whole when `serve` reloads an edited file, and how
    /// many times that happened.
    private let current: LockedState<Revision>

    /// One revision of the contract, with its router: one reference, which each request copies
    /// out of the lock (the contract's many fields would each be retained).
    private final class Revision: Sendable {
        let contract: OpenAPIContract
        let router: OpenAPIRouter
        let number: Int
        /// Each operation's declared answer to a clean request that asks for nothing, by its
        /// index, made once (see ``ContractResponder/answersAsDeclared``): gone with the revision.
        let ready = LockedState<[Int: SourceAnswer]>([:])

        init(_ contract: OpenAPIContract, _ router: OpenAPIRouter, _ number: Int) {
            (self.contract, self.router, self.number) = (contract, router, number)
        }
    }
    let validation: OpenAPIContract.Validation
    let generation: OpenAPIContract.Generation
    let basePath: String?
    /// Static generated bodies by operation, status and media type, and the schema they were
    /// made for (held, so its address names no other schema while the entry is here: a request
    /// still on a reloaded contract's old revision can't leave its body for the new one's).
    private let generated = LockedState<
        [StaticKey: (Schema, Result<SchemaGenerator.Generated, SchemaGenerator.Failure>)]
    >(
        [:])
    /// The same bodies as bytes of their media type, by the same keys: encoded once.
    private let encoded = LockedState<[StaticKey: (Schema, body: Data, isMinimal: Bool)]>([:])

    /// What a static body is kept under: the place it answers and the schema it was made for.
    private struct StaticKey: Hashable {
        let place: String
        let schema: ObjectIdentifier
    }

    /// The resources the contract declares, when it answers with state, and what they hold: one
    /// store per source, so per registry.
    private let resources: LockedState<ResourceMap>?
    package let store = ResourceStore()
    /// What a reset puts back: the contents given (`--data`, a seed in Swift), else `nil` for
    /// the contract's examples.
    private let seed = LockedState<ResourceContents?>(nil)

    /// - Parameter remembering: whether the contract's resources answer with state: a create is
    ///   listed and read back, an edit seen, a delete gone.
    package init(
        contract: OpenAPIContract, validation: OpenAPIContract.Validation, generation: OpenAPIContract.Generation,
        basePath: String?, remembering: Bool = false
    ) {
        self.validation = validation
        self.generation = generation
        self.basePath = basePath.map(Self.normalized)
        current = LockedState(Revision(contract, contract.router(basePath: basePath.map(Self.normalized)), 0))
        resources = remembering ? LockedState(contract.resourceMap) : nil
        resourceMap?.seed(store, from: contract)
    }

    /// Puts the resources back as they were at start: the seed given, else the contract's examples.
    package func resetResources() throws(ResourceStore.Refusal) {
        if let seed = seed.withLock({ $0 }) {
            try store.load(seed)
        } else {
            try store.reset()
            resourceMap?.seed(store, from: contract)
        }
    }

    /// Checks `root` against the contract's resources (see
    /// ``ResourceMap/contents(of:in:from:maximumItems:maximumBytes:)``).
    package func resourceContents(
        of root: DocumentNode, from origin: ResourceMap.DataOrigin
    ) throws(RequestMockerError) -> ResourceContents {
        guard let map = resourceMap else {
            throw .invalidResources(
                source: origin.name, line: nil, column: nil, pointer: "#",
                reason: "\(self) doesn't remember; register it with state: .resources (serve: --stateful)")
        }
        return try map.contents(of: root, in: contract, from: origin)
    }

    /// Makes `contents` the seed a reset puts back, and the resources from now.
    package func seedResources(_ contents: ResourceContents) throws(ResourceStore.Refusal) {
        seed.withLock { $0 = contents }
        try store.load(contents)
    }

    /// Whether the contract's resources answer with state.
    var remembers: Bool { resources != nil }

    /// The resources answered from now, when the source remembers.
    package var resourceMap: ResourceMap? { resources?.withLock { $0 } }

    /// The contract answered from now.
    package var contract: OpenAPIContract { current.withLock { $0.contract } }

    /// The contract answered from now, and how many reloads came before it: what a
    /// ``DriftWatch`` checks against, starting over when it changes.
    var revision: (contract: OpenAPIContract, number: Int) {
        let revision = current.withLock { $0 }
        return (revision.contract, revision.number)
    }

    /// How many reloads came so far, without copying the contract: asked on every exchange.
    var revisionNumber: Int { current.withLock { $0.number } }

    /// Answers from `contract` from now on (an edited file, read again); requests being answered
    /// finish with the one they started with.
    package func reload(_ contract: OpenAPIContract) {
        let router = contract.router(basePath: basePath)
        current.withLock { $0 = Revision(contract, router, $0.number + 1) }
        generated.withLock { $0 = [:] }
        encoded.withLock { $0 = [:] }
        resources?.withLock { $0 = contract.resourceMap }
    }

    package var description: String { "the contract \(contract.url.lastPathComponent)" }

    /// `/v1/` and `v1` as `/v1`; `/` as no base path.
    static func normalized(_ basePath: String) -> String {
        let trimmed = basePath.split(separator: "/").joined(separator: "/")
        return trimmed.isEmpty ? "" : "/" + trimmed
    }

    package func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        let queryItems = request.queryItems
        let query = queryItems.isEmpty ? [] : queryItems.filter { !Preferences.queryNames.contains($0.name) }
        let revision = current.withLock { $0 }
        let router = revision.router
        switch router.route(request.method, segments: request.pathSegments, query: query) {
        case .notFound:
            // A path the contract has, but outside its base path: say where it serves.
            let underBase = router.basePaths.first { base in
                let segments = PathPattern.segments(ofEncodedPath: base)
                return !request.pathSegments.starts(with: segments)
                    && router.route(request.method, segments: segments + request.pathSegments, query: query)
                        != .notFound
            }
            misses.append(
                SourceAnswer.Miss(
                    note: {
                        "\(self) has no path for \(request.method) \(request.path)"
                            + (underBase.map { "; it serves under \($0): send \(request.method) \($0)\(request.path)" }
                                ?? "")
                    }, forbidsNetwork: false))
            return nil
        case .methodNotAllowed(let allowed):
            let methods = allowed.map(\.rawValue).joined(separator: ", ")
            var reply = ContractReply.problem(
                405, operation: "\(request.method) \(request.path)",
                detail: "\(request.path) declares no \(request.method) operation; it declares \(methods)")
            reply.headers.add("Allow", methods)
            return reply.answer(from: revision.contract.url)
        case .operation(let index, let parameters):
            let contract = revision.contract
            let responder = ContractResponder(
                source: self, contract: contract, operation: contract.operations[index], plan: contract.plans[index],
                request: request, pathValues: parameters, index: index, queryItems: queryItems)
            let verdict = responder.verdict()
            // A clean request that asks for nothing gets the answer made for the first such.
            let remembered = verdict.isClean && verdict.warnings.isEmpty && responder.answersAsDeclared
            if remembered, let ready = revision.ready.withLock({ $0[index] }) { return ready }
            // Resources change in the order requests arrive (ids are handed out in that order),
            // so a contract that remembers answers here.
            if remembers {
                var responder = responder
                return responder.reply(to: verdict).answer(from: contract.url)
            }
            // Anything else is made where the transport makes slow answers: a body may be
            // generated.
            return .respondLater(file: contract.url) { [responder] in
                var responder = responder
                let reply = responder.reply(to: verdict)
                if remembered { revision.ready.withLock { $0[index] = reply.answer(from: contract.url) } }
                return .respond(reply.response, from: .contract(contract.url, reply.answer))
            }
        }
    }

    /// The operation `request` reaches, as `GET /users/{userId}`, or `nil` when the contract has
    /// none for it.
    func operationName(of request: MockRequest) -> String? {
        let query = request.queryItems.filter { !Preferences.queryNames.contains($0.name) }
        let revision = current.withLock { $0 }
        let (contract, router) = (revision.contract, revision.router)
        guard case .operation(let index, _) = router.route(request.method, segments: request.pathSegments, query: query)
        else { return nil }
        return "\(contract.operations[index].method) \(contract.operations[index].path)"
    }

    /// The status and body the contract answers `request` with, or `nil` when it has no path for
    /// it: a request's whole way through the source (routing, checking, choosing), for the
    /// benchmark.
    package func reply(to request: MockRequest) -> (status: Int, body: Data)? {
        var misses: [SourceAnswer.Miss] = []
        guard let response = answer(request, misses: &misses)?.response?.response,
            case .body(let body, _) = response.content
        else { return nil }
        return (response.status?.code ?? 0, body)
    }

    /// The static body generated for `schema` under `key` as bytes of `mediaType`, made and
    /// encoded once.
    func staticBytes(
        _ key: String, _ schema: Schema, as mediaType: String
    ) -> Result<(body: Data, isMinimal: Bool), SchemaGenerator.Failure> {
        let place = StaticKey(place: key, schema: ObjectIdentifier(schema))
        if let known = encoded.withLock({ $0[place] }) { return .success((known.body, known.isMinimal)) }
        return staticBody(key, schema).map { generated in
            let made = (ContractResponder.encoded(generated.value, as: mediaType), generated.isMinimal)
            encoded.withLock { $0[place] = (schema, made.0, made.1) }
            return made
        }
    }

    /// The static body generated for `schema` under `key`, made once.
    func staticBody(_ key: String, _ schema: Schema) -> Result<SchemaGenerator.Generated, SchemaGenerator.Failure> {
        let place = StaticKey(place: key, schema: ObjectIdentifier(schema))
        if let known = generated.withLock({ $0[place] }) { return known.1 }
        let made = Result { () throws(SchemaGenerator.Failure) in
            try SchemaGenerator.generated(for: schema, direction: .response)
        }
        generated.withLock { $0[place] = (schema, made) }
        return made
    }
}
