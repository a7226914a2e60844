import Foundation
import RequestMocker

/// Answers one request to one operation as the contract declares: chooses the status, the media
/// type and the body, in the order `MockRegistry.register(_:validation:generation:basePath:state:at:)`
/// documents, and adds the declared headers.
struct ContractResponder: Sendable {
    let source: ContractSource
    /// The contract as it was when the request arrived.
    let contract: OpenAPIContract
    let operation: OpenAPIContract.Operation
    let plan: OperationPlan
    let request: MockRequest
    /// The path parameters' values, by name, as the router captured them.
    let pathValues: [String: String]
    var preferences: Preferences
    /// The operation's index in the contract's operations, when known (the router gives it).
    let index: Int?
    /// The request's query items, read once.
    let queryItems: [URLQueryItem]
    /// Whether the reply is a refusal: its status is ours, so an `Accept` that takes none of the
    /// declared media types gets the first of them rather than a `406`.
    var refusing = false

    /// - Parameters:
    ///   - preferences: what to choose, instead of what the request prefers.
    ///   - queryItems: the request's query items, when they were read already.
    init(
        source: ContractSource, contract: OpenAPIContract, operation: OpenAPIContract.Operation, plan: OperationPlan,
        request: MockRequest, pathValues: [String: String], preferences: Preferences? = nil, index: Int? = nil,
        queryItems: [URLQueryItem]? = nil
    ) {
        let queryItems = queryItems ?? request.queryItems
        self.queryItems = queryItems
        self.index = index
        self.source = source
        self.contract = contract
        self.operation = operation
        self.plan = plan
        self.request = request
        self.pathValues = pathValues
        self.preferences = preferences ?? Preferences(request, queryItems: queryItems)
    }

    /// The reply: the operation's response, or the problem that stands in for it; for a
    /// request that breaks the contract, the refusal `strict` validation asks for, or the
    /// response with the violations beside it (`warn`).
    mutating func reply() -> ContractReply {
        reply(to: verdict())
    }

    /// What checking the request found (nothing, with validation off).
    func verdict() -> RequestValidator.Verdict {
        source.validation == .off
            ? RequestValidator.Verdict()
            : RequestValidator(
                plan: plan, request: request, pathValues: pathValues, conditionNames: conditionNames,
                queryItems: queryItems
            ).verdict()
    }

    /// Whether the reply to a clean request is the operation's declared answer, the same for
    /// every such request: it asks for nothing (`Prefer`), bodies are static, it isn't a `HEAD`,
    /// it takes any media type, and the operation's resources don't remember. The source keeps
    /// that answer ready (``ContractSource``), made once.
    var answersAsDeclared: Bool {
        preferences.code == nil && preferences.example == nil && !preferences.dynamic
            && source.generation == .static && request.method != .head && source.resourceMap == nil
            && { $0 == nil || $0 == "*/*" }(request.header(.accept))
    }

    /// The reply, given what checking the request found.
    mutating func reply(to verdict: RequestValidator.Verdict) -> ContractReply {
        var reply: ContractReply
        if source.validation == .strict, !verdict.isClean {
            reply = refusal(verdict)
        } else if let stored = storedReply() {
            reply = stored
        } else {
            switch chosenResponse() {
            case .refused(let problem): reply = problem
            case .chosen(let (status, response)): reply = self.reply(status, response)
            }
        }
        let lines = verdict.lines + verdict.warningLines
        guard !lines.isEmpty else { return reply }
        reply.answer = OpenAPIContract.Answer(
            operation: reply.answer.operation, status: reply.answer.status, how: reply.answer.how,
            violations: verdict.lines, warnings: verdict.warningLines)
        // One line: the first ten findings, each on its own after a semicolon.
        let shown = lines.prefix(10).joined(separator: "; ") + (lines.count > 10 ? "; …" : "")
        reply.headers.add(
            "RequestMocker-Violations", String(shown.unicodeScalars.map { $0.value < 0x20 ? " " : Character($0) }))
        return reply
    }

    /// The query names the operation's path key carries (`/responses?beta=true`): declared.
    private var conditionNames: Set<String> {
        guard operation.path.utf8.contains(UInt8(ascii: "?")) else { return [] }
        return Set(URLComponents(string: operation.path.drop { $0 != "?" } + "")?.queryItems?.map(\.name) ?? [])
    }

    /// The reply from the resources' store, when the source remembers, the operation is a
    /// resource's, and the request forces no declared answer.
    private func storedReply() -> ContractReply? {
        guard let map = source.resourceMap, preferences.code == nil, preferences.example == nil,
            let index
        else { return nil }
        let responder = ResourceResponder(
            map: map, store: source.store, contract: contract, operation: operation, index: index, plan: plan,
            request: request,
            pathValues: pathValues, declared: declaredReply)
        return responder.reply()
    }

    /// The operation's declared answer for `status`, as without state (its example, else generated).
    private func declaredReply(_ status: Int) -> ContractReply {
        var forced = self
        forced.preferences = Preferences()
        forced.preferences.code = String(status)
        switch forced.chosenResponse() {
        case .refused(let problem): return problem
        case .chosen(let (code, response)): return forced.reply(code, response)
        }
    }

    func problem(_ status: Int, _ detail: String, extra: [String: JSONValue] = [:]) -> ContractReply {
        ContractReply.problem(status, operation: operation.description, detail: detail, extra: extra)
    }

    /// The status and its response: the one asked for, else the lowest 2xx, `2XX`, or `default`.
    private func chosenResponse() -> Choice<(Int, OperationPlan.Response)> {
        let declared = plan.responses.map(\.status).joined(separator: ", ")
        if let code = preferences.code {
            guard let forced = Int(code), (100...599).contains(forced) else {
                return .refused(
                    problem(400, "the preferred code \"\(code)\" is not an HTTP status; ask for one such as code=404"))
            }
            guard let response = plan.response(for: forced) else {
                return .refused(
                    problem(
                        404,
                        "\(operation.description) declares no \(forced) response and no default; it declares "
                            + (declared.isEmpty ? "none" : declared)))
            }
            return .chosen((forced, response))
        }
        if let lowest = plan.lowestSuccess, let response = plan.response(for: lowest) {
            return .chosen((lowest, response))
        }
        if let range = plan.responses.first(where: { $0.status.uppercased() == "2XX" }) { return .chosen((200, range)) }
        if let fallback = plan.responses.first(where: { $0.status == "default" }) { return .chosen((200, fallback)) }
        return .refused(
            problem(
                501,
                "\(operation.description) declares no 2xx response and no default"
                    + (declared.isEmpty ? "" : "; ask for one of \(declared) with Prefer: code=…")))
    }

    func reply(_ status: Int, _ response: OperationPlan.Response) -> ContractReply {
        var headers: HTTPHeaders = [:]
        var body = Data()
        var how = "empty"
        if !response.content.isEmpty {
            guard
                let index = MediaNegotiation.choose(accept: request.header(.accept), offered: response.offered)
                    ?? (refusing ? 0 : nil)
            else {
                let offered = response.offered.joined(separator: ", ")
                return problem(
                    406, "\(operation.description) \(status) answers with \(offered), and Accept takes none of them")
            }
            let media = response.content[index]
            headers.add(.contentType, media.contentType)
            switch self.body(status, response, media) {
            case .refused(let problem): return problem
            case .chosen(let (bytes, chosen)): (body, how) = (bytes, chosen)
            }
        } else if let name = preferences.example {
            return problem(404, "\(operation.description) \(status) has no body, so no example named \"\(name)\"")
        }
        if request.method == .head || status == 204 || status == 304 { body = Data() }
        for header in response.headers where !Self.framing.contains(header.name.lowercased()) {
            if let value = headerValue(header, of: response) { headers.add(HTTPHeaders.Name(header.name), value) }
        }
        if operation.isDeprecated { headers.add("Deprecation", "true") }
        let answer = OpenAPIContract.Answer(operation: operation.description, status: status, how: how, violations: [])
        headers.add("RequestMocker-OpenAPI", answer.description)
        return ContractReply(status: status, headers: headers, body: body, answer: answer)
    }

    /// Headers the transport writes itself.
    private static let framing: Set<String> = ["content-type", "content-length", "transfer-encoding"]

    /// The body for `media`, and how it was chosen.
    private func body(
        _ status: Int, _ response: OperationPlan.Response, _ media: OperationPlan.Media
    ) -> Choice<(Data, String)> {
        if let name = preferences.example {
            guard let found = media.examples.first(where: { $0.name == name }) else {
                let names = media.examples.map(\.name)
                return .refused(
                    problem(
                        404,
                        "\(operation.description) \(status) \(media.type) has no example named \"\(name)\"; "
                            + (names.isEmpty ? "it has no named examples" : "it has " + names.joined(separator: ", ")),
                        extra: ["examples": .array(names.map(JSONValue.string))]))
            }
            return .chosen((Self.encoded(found.value, as: media.type), "example \(name)"))
        }
        if let written = media.written { return .chosen(written) }
        guard let schema = media.schema else { return .chosen((Data(), "empty")) }
        if let example = schema.exampleNode {
            return .chosen((Self.encoded(example, as: media.type), "schema example"))
        }
        let made: Result<(body: Data, isMinimal: Bool), SchemaGenerator.Failure>
        let how: String
        if let seed = dynamicSeed(status, media) {
            made = Result { () throws(SchemaGenerator.Failure) in
                try SchemaGenerator.generated(for: schema, direction: .response, seed: seed)
            }.map { (Self.encoded($0.value, as: media.type), $0.isMinimal) }
            how = "dynamic \(seed)"
        } else {
            made = source.staticBytes("\(operation.pointer) \(response.status) \(media.type)", schema, as: media.type)
            how = "generated"
        }
        switch made {
        case .success(let (body, isMinimal)):
            return .chosen((body, how + (isMinimal ? " minimal" : "")))
        case .failure(let failure):
            return .refused(
                problem(
                    500, "\(operation.description) \(status) \(media.type): \(failure.reason)",
                    extra: ["pointer": .string(failure.pointer)]))
        }
    }

    /// The seed of a dynamic body for this request, or `nil` for a static one: the configured
    /// seed (0 when only the request asks) mixed with what identifies the request.
    private func dynamicSeed(_ status: Int, _ media: OperationPlan.Media) -> UInt64? {
        let base: UInt64
        switch source.generation {
        case .dynamic(let seed): base = seed
        case .static:
            guard preferences.dynamic else { return nil }
            base = 0
        }
        let query = queryItems.filter { !Preferences.queryNames.contains($0.name) }
            .map { "\($0.name)=\($0.value ?? "")" }.sorted().joined(separator: "&")
        return SeededRandom.seed(
            [operation.description, String(status), media.type, request.pathSegments.joined(separator: "/"), query],
            base: base)
    }

    /// A declared header's example, else a value generated from its schema; on one line.
    private func headerValue(_ header: OperationPlan.Header, of response: OperationPlan.Response) -> String? {
        var value = header.example
        if value == nil, let schema = header.schema {
            // Made once, as a static body is.
            value = try? source.staticBody("\(operation.pointer) \(response.status) header \(header.name)", schema)
                .get().value
        }
        guard let value else { return nil }
        let text: String =
            switch value.value {
            case .string(let string): string
            case .array(let elements):
                elements.map { element in
                    element.string ?? String(decoding: element.jsonBytes, as: UTF8.self)
                }.joined(separator: ",")
            default: String(decoding: value.jsonBytes, as: UTF8.self)
            }
        // A contract's text is not trusted to be a valid field value.
        return String(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
    }

    /// `value` as the body of `mediaType`: JSON for JSON types, a string's text for others.
    static func encoded(_ value: DocumentNode, as mediaType: String) -> Data {
        if !MediaType(mediaType).isJSON, case .string(let text) = value.value { return Data(text.utf8) }
        return Data(value.jsonBytes)
    }
}

/// What a step of choosing a response chose, or the problem the request gets instead.
enum Choice<Chosen> {
    case chosen(Chosen)
    case refused(ContractReply)
}
