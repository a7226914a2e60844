/// A request's operation, parsed, validated against the schema and with its variables coerced:
/// ready to answer. Preparing refuses what the specification calls request errors (a syntax
/// mistake, a validation error, no operation to run, variables that don't fit), each with
/// GraphQL's message and place.
///
/// ```swift
/// let prepared = try GraphQLPreparedOperation(query: "{ hero { name } }", in: schema)
/// let (result, answeredBy) = prepared.answer(in: schema, mocks: mocks)
/// ```
package struct GraphQLPreparedOperation: Sendable {
    package let document: GraphQLDocument
    package let operation: GraphQLOperation
    package let variables: [String: GraphQLJSON]

    /// The operation's name, if it has one.
    package var name: String? { operation.name?.value }
    package var kind: GraphQLOperationKind { operation.kind }

    /// What gave an answer: the generator, or the mocks' answer for the operation.
    package enum Answerer: String, Sendable {
        case generated, mocks
    }

    /// Parses `query`, validates it against `schema`, chooses the operation `operationName`
    /// names (or the only one) and coerces `variables` for it.
    package init(
        query: String, operationName: String? = nil, variables: GraphQLJSON? = nil, in schema: GraphQLSchema,
        limits: GraphQLLimits = GraphQLLimits()
    ) throws(GraphQLRequestError) {
        guard query.utf8.count <= limits.queryBytes else {
            throw GraphQLRequestError([
                GraphQLError("The query is larger than \(limits.queryBytes) bytes; send a smaller one.")
            ])
        }
        let document: GraphQLDocument
        do {
            document = try GraphQLParser.parse(GraphQLSource(query))
        } catch {
            let source = GraphQLSource(query)
            throw GraphQLRequestError([GraphQLError(error.message, at: [source.location(of: error.offset)])])
        }
        // Measured before validation, which may compare fields pairwise.
        if let refusal = GraphQLBounds.check(document, limits: limits) { throw GraphQLRequestError([refusal]) }
        let problems = GraphQLValidator.validate(document, against: schema)
        guard problems.isEmpty else { throw GraphQLRequestError(problems) }
        let operations = document.operations
        let chosen: GraphQLOperation
        if let operationName {
            guard let named = operations.first(where: { $0.name?.value == operationName }) else {
                throw GraphQLRequestError([GraphQLError("Unknown operation named \"\(operationName)\".")])
            }
            chosen = named
        } else {
            guard let only = operations.first else {
                throw GraphQLRequestError([GraphQLError("Must provide an operation.")])
            }
            guard operations.count == 1 else {
                throw GraphQLRequestError([
                    GraphQLError("Must provide operation name if query contains multiple operations.")
                ])
            }
            chosen = only
        }
        let (values, errors) = GraphQLVariables.coerce(variables, for: chosen, in: schema, source: document.source)
        guard errors.isEmpty else { throw GraphQLRequestError(errors) }
        self.document = document
        operation = chosen
        self.variables = values
    }

    /// The answer to the operation: the mocks' answer for its name, trimmed to its selection
    /// and completed where it asks for more, else one generated from the schema.
    package func answer(
        in schema: GraphQLSchema, mocks: GraphQLMocks = GraphQLMocks(), answerLimit: Int = 16 << 20
    ) -> (result: GraphQLResult, answeredBy: Answerer) {
        if let name, let mocked = mocks.operations[name] {
            return (execute(mocked, in: schema, mocks: mocks, answerLimit: answerLimit), .mocks)
        }
        return (execute(nil, in: schema, mocks: mocks, answerLimit: answerLimit), .generated)
    }

    /// The answer to the operation from `mocked` (a stub's answer), trimmed to its selection and
    /// completed where it asks for more.
    package func answer(
        mocked: GraphQLJSON, in schema: GraphQLSchema, mocks: GraphQLMocks = GraphQLMocks(),
        answerLimit: Int = 16 << 20
    ) -> GraphQLResult {
        execute(mocked, in: schema, mocks: mocks, answerLimit: answerLimit)
    }

    /// The events a subscription sends: the mocks' events for its name, each trimmed and
    /// completed as an answer is, else `count` generated ones, each drawn from its own seed.
    package func events(
        in schema: GraphQLSchema, mocks: GraphQLMocks = GraphQLMocks(), count: Int = 3, answerLimit: Int = 16 << 20
    ) -> (events: [GraphQLResult], answeredBy: Answerer) {
        if let name, let mocked = mocks.subscriptions[name] {
            return (mocked.map { execute($0, in: schema, mocks: mocks, answerLimit: answerLimit) }, .mocks)
        }
        let events = (0..<count).map { index in
            execute(
                nil, in: schema, mocks: mocks, answerLimit: answerLimit,
                seed: GraphQLSeed.root.mixing("event").mixing(index))
        }
        return (events, .generated)
    }

    /// The operation executed over `mocked` (an answer: its data, and errors kept as given), or
    /// over generated values from `seed`.
    private func execute(
        _ mocked: GraphQLJSON?, in schema: GraphQLSchema, mocks: GraphQLMocks, answerLimit: Int,
        seed: GraphQLSeed = .root
    ) -> GraphQLResult {
        var executor = GraphQLExecutor(
            schema: schema, document: document, variables: variables, mocks: mocks, answerLimit: answerLimit)
        let origin = GraphQLOrigin(seed: seed)
        guard let mocked else { return executor.execute(operation, root: .generated(origin)) }
        var given: [GraphQLError] = []
        if case .list(let errors)? = mocked["errors"] { given = errors.compactMap(GraphQLError.init(json:)) }
        if mocked["data"] == .null { return GraphQLResult(data: .null, errors: given) }
        var result = executor.execute(operation, root: .given(mocked["data"] ?? .object([]), origin))
        result.errors = given + result.errors
        return result
    }
}

/// A request GraphQL refuses before answering it: the errors a response without `data` lists.
package struct GraphQLRequestError: Error, Sendable, Equatable {
    package var errors: [GraphQLError]

    package init(_ errors: [GraphQLError]) {
        self.errors = errors
    }

    package var result: GraphQLResult { .refusal(errors) }
}

extension GraphQLError {
    /// An error as a mocks file writes it: `{"message": …}`, with `locations`, `path` and
    /// `extensions` kept when they are well formed.
    init?(json: GraphQLJSON) {
        guard case .string(let message)? = json["message"] else { return nil }
        var locations: [GraphQLLocation] = []
        if case .list(let places)? = json["locations"] {
            for place in places {
                if case .int(let line)? = place["line"], case .int(let column)? = place["column"] {
                    locations.append(GraphQLLocation(line: line, column: column))
                }
            }
        }
        var path: [GraphQLPathComponent]?
        if case .list(let steps)? = json["path"] {
            path = steps.compactMap { step in
                switch step {
                case .string(let key): .key(key)
                case .int(let index): .index(index)
                default: nil
                }
            }
        }
        self.init(message, at: locations, path: path)
        if let extensions = json["extensions"], extensions.isObject { self.extensions = extensions }
    }
}
