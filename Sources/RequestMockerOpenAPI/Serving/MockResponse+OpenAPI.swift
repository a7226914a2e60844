import RequestMocker

extension MockResponse {
    /// Answers with what a contract declares for one of its operations, whatever filter it is
    /// registered with: a test picks a documented error without writing its body.
    ///
    /// ```swift
    /// let contract = try OpenAPIContract(contentsOf: URL(fileURLWithPath: "openapi.json"))
    /// registry.register(.get("/pets/<id>"), respond: .openAPI(contract, operationID: "getPet"))
    /// registry.register(
    ///     .get("/pets/404"), respond: .openAPI(contract, operationID: "getPet", status: 404, example: "notFound"),
    ///     at: .first)
    /// ```
    ///
    /// The response is chosen as a registered contract chooses one (see
    /// `MockRegistry.register(_:validation:generation:basePath:state:at:)`), with `status` and
    /// `example` standing in for `Prefer: code=…, example=…`; the media type follows the
    /// request's `Accept`. The request is not checked against the contract.
    ///
    /// - Parameters:
    ///   - contract: the contract that declares the response.
    ///   - operationID: the operation's `operationId`, or, for one without, its method and path
    ///     template as ``OpenAPIContract/Operation/description`` shows them (`GET /health`).
    ///   - status: the status to answer with; the lowest declared 2xx when `nil`.
    ///   - example: the name of one of the response's `examples`.
    ///   - generation: how a body is made where the contract gives no example.
    /// - Returns: the response; when the contract lacks the operation, the status or the example,
    ///   one that refuses every request, saying which (RequestMockerTesting reports it when the
    ///   test ends).
    public static func openAPI(
        _ contract: OpenAPIContract, operationID: String, status: Int? = nil, example: String? = nil,
        generation: OpenAPIContract.Generation = .static
    ) -> MockResponse {
        guard
            let index = contract.operations.firstIndex(where: { $0.operationID == operationID })
                ?? contract.operations.firstIndex(where: { $0.description == operationID })
        else {
            let known = contract.operations.prefix(10).map(\.description).joined(separator: ", ")
            return MockResponse(
                content: .unbuildable(
                    reason: "\(contract.url.lastPathComponent) has no operation \"\(operationID)\"; it has "
                        + (known.isEmpty ? "none" : known + (contract.operations.count > 10 ? ", …" : ""))))
        }
        let operation = contract.operations[index]
        let plan = contract.plans[index]
        let declared = plan.responses.map(\.status)
        if let status, plan.response(for: status) == nil {
            return MockResponse(
                content: .unbuildable(
                    reason: "\(operation) declares no \(status) response and no default; it declares "
                        + declared.joined(separator: ", ")))
        }
        if let example {
            let candidates =
                status.map { plan.response(for: $0).map { [$0] } ?? [] }
                ?? plan.responses.filter { $0.status.hasPrefix("2") || $0.status == "default" }
            let names = candidates.flatMap { $0.content.flatMap { $0.examples.map(\.name) } }
            if !names.contains(example) {
                return MockResponse(
                    content: .unbuildable(
                        reason: "\(operation) \(status.map(String.init) ?? "2xx") has no example named \"\(example)\"; "
                            + (names.isEmpty ? "it has no named examples" : "it has " + names.joined(separator: ", "))))
            }
        }
        let source = ContractSource(contract: contract, validation: .off, generation: generation, basePath: nil)
        var preferences = Preferences()
        preferences.code = status.map(String.init)
        preferences.example = example
        return .inline { [preferences] request, _ in
            var responder = ContractResponder(
                source: source, contract: contract, operation: operation, plan: plan, request: request,
                pathValues: [:], preferences: preferences)
            return responder.reply().response
        }
    }
}

extension OpenAPIContract: StubContract {
    /// What the contract declares for `operation`: `MockResponse.openAPI(_:operationID:status:example:)`,
    /// for a stub's `"openapi"` response.
    public func declaredResponse(operation: String, status: Int?, example: String?) -> MockResponse {
        .openAPI(self, operationID: operation, status: status, example: example)
    }
}
