import Foundation
import RequestMocker

/// A GraphQL schema served at one path (on one host, or any): each request to it parsed,
/// validated and answered from the schema and its mocks, as GraphQL over HTTP says, with
/// Apollo's automatic persisted queries. Every answer says what made it in
/// `RequestMocker-GraphQL: <operation> <how>`.
package final class GraphQLEndpoint: AnswerSource, CustomStringConvertible {
    /// The host requests must be sent to, lower case; `nil` for any.
    package let host: String?
    /// The path the schema answers at (`/graphql`).
    package let path: String
    private let current: LockedState<Revision>
    private let persisted = LockedState(GraphQLPersistedQueries())
    private let answers = LockedState(GraphQLAnswerCache())
    let limits: GraphQLLimits
    /// The time between a subscription's events over WebSocket (the first is sent at once).
    let eventInterval: Duration

    /// The schema and mocks answering now; `serve` replaces them when their files change.
    package struct Revision: Sendable {
        /// Counts reloads: an answer made from one revision is never given from another.
        var number = 0
        package var schema: GraphQLSchema
        package var mocks: GraphQLMocks
        /// The file the schema was read from, which the journal names.
        package var file: URL
    }

    package init(
        schema: GraphQLSchema, mocks: GraphQLMocks, file: URL, host: String?, path: String,
        limits: GraphQLLimits = GraphQLLimits(), eventInterval: Duration = .zero
    ) {
        self.eventInterval = eventInterval
        self.host = host?.lowercased()
        let trimmed = path.split(separator: "/").joined(separator: "/")
        self.path = "/" + trimmed
        self.limits = limits
        current = LockedState(Revision(schema: schema, mocks: mocks, file: file))
    }

    package var revision: Revision { current.withLock { $0 } }

    /// Answers with `schema` and `mocks` from now on.
    package func reload(schema: GraphQLSchema, mocks: GraphQLMocks) {
        current.withLock { revision in
            revision.schema = schema
            revision.mocks = mocks
            revision.number += 1
        }
        answers.withLock { $0 = GraphQLAnswerCache() }
    }

    package var indexKey: FilterIndex.Key { .general(host: host) }

    package var description: String { "the GraphQL schema \(revision.file.lastPathComponent) at \(path)" }

    package func answer(_ request: MockRequest, misses: inout [SourceAnswer.Miss]) -> SourceAnswer? {
        if let host, request.host != host { return nil }
        guard request.path == path else {
            let path = self.path
            misses.append(
                SourceAnswer.Miss(
                    note: { "\(self) answers at \(path), not \(request.path)" }, forbidsNetwork: false))
            return nil
        }
        let revision = self.revision
        if request.asksForWebSocket {
            let (limits, interval) = (self.limits, eventInterval)
            let script = WebSocketScript.conversing(subprotocols: [GraphQLTransportConversation.subprotocol]) {
                GraphQLTransportConversation(revision: revision, limits: limits, interval: interval)
            }
            let answer = ContractAnswer(
                operation: "subscriptions", status: 101, how: "graphql-transport-ws", violations: [])
            return .respond(
                .webSocket(script, headers: ["RequestMocker-GraphQL": "subscriptions graphql-transport-ws"]),
                captures: Captures(), from: .contract(revision.file, answer))
        }
        let (number, mediaType) = (revision.number, GraphQLHTTPRequest.mediaType(accept: request.header(.accept)))
        let asked: Asked
        switch front(request, mediaType: mediaType) {
        case .refused(let reply):
            return .respond(reply.response, captures: Captures(), from: .contract(revision.file, reply.answer))
        case .asked(let parameters): asked = parameters
        }
        // The same request to the same schema and mocks gets the same answer: made once.
        let key = asked.key(revision: number, mediaType: mediaType)
        if let ready = answers.withLock({ $0.entries[key] }) {
            return .respond(ready.response, captures: Captures(), from: .contract(revision.file, ready.answer))
        }
        return .respondLater(file: revision.file) { [self] in
            let reply = self.reply(to: asked, mediaType: mediaType, revision: revision)
            let body = Data(reply.result.serialized())
            let response = reply.response(body: body)
            answers.withLock { $0.keep(key, (response, reply.answer), size: body.count) }
            return .respond(response, from: .contract(revision.file, reply.answer))
        }
    }

    /// A request read as far as its query: its parameters and the query text (a persisted
    /// query's resolved).
    struct Asked: Sendable {
        var parameters: GraphQLHTTPRequest
        var query: String

        /// What identifies its answer: the SHA-256 of the schema's revision, the media type, the
        /// method, the operation's name, the variables and the query (a digest, so the answers
        /// kept don't also keep their queries, up to 1 MiB each).
        func key(revision: Int, mediaType: String) -> String {
            let identity = [
                String(revision), mediaType, parameters.method.rawValue, parameters.operationName ?? "",
                parameters.variables?.description ?? "", query,
            ].joined(separator: "\u{1F}")
            return SHA256.hex(identity.utf8)
        }
    }

    enum Front {
        case refused(GraphQLReply)
        case asked(Asked)
    }

    /// The request read as GraphQL over HTTP, a persisted query resolved (and registered), or
    /// the refusal of what isn't a GraphQL request.
    func front(_ request: MockRequest, mediaType: String) -> Front {
        let parameters: GraphQLHTTPRequest
        do {
            parameters = try GraphQLHTTPRequest(request)
        } catch {
            return .refused(
                GraphQLReply(
                    status: error.status, mediaType: mediaType, result: .refusal([GraphQLError(error.message)]),
                    operation: "-", how: "refused", allow: error.allow))
        }
        switch persisted.withLock({ $0.resolve(parameters.query, extensions: parameters.extensions) }) {
        case .query(let text):
            return .asked(Asked(parameters: parameters, query: text))
        case .refused(let error, let status):
            let notFound = error.message == "PersistedQueryNotFound"
            return .refused(
                GraphQLReply.refusal(
                    [error], mediaType: mediaType, operation: parameters.operationName ?? "-",
                    how: notFound ? "persisted-query-not-found" : "refused", status: status))
        }
    }

    /// The reply to `request`: a refusal of what isn't a GraphQL request, a request error, or
    /// the operation's answer (from `stub`, a hand-written answer, when given).
    func reply(to request: MockRequest, revision: Revision, stub: GraphQLJSON? = nil) -> GraphQLReply {
        let mediaType = GraphQLHTTPRequest.mediaType(accept: request.header(.accept))
        switch front(request, mediaType: mediaType) {
        case .refused(let reply): return reply
        case .asked(let asked): return reply(to: asked, mediaType: mediaType, revision: revision, stub: stub)
        }
    }

    /// The reply to a request read as far as its query: a request error, or the answer.
    func reply(to asked: Asked, mediaType: String, revision: Revision, stub: GraphQLJSON? = nil) -> GraphQLReply {
        let parameters = asked.parameters
        let named = parameters.operationName ?? "-"
        let prepared: GraphQLPreparedOperation
        do {
            prepared = try GraphQLPreparedOperation(
                query: asked.query, operationName: parameters.operationName, variables: parameters.variables,
                in: revision.schema, limits: limits)
        } catch {
            return .refusal(error.errors, mediaType: mediaType, operation: named)
        }
        let operation = prepared.name ?? prepared.kind.rawValue
        if prepared.kind == .mutation, parameters.method == .get {
            return GraphQLReply(
                status: 405, mediaType: mediaType,
                result: .refusal([GraphQLError("A mutation is sent with POST, not GET.")]), operation: operation,
                how: "refused", allow: "POST")
        }
        if prepared.kind == .subscription {
            return .refusal(
                [GraphQLError("A subscription is answered over WebSocket (graphql-transport-ws) at \(path).")],
                mediaType: mediaType, operation: named)
        }
        if let stub {
            let result = prepared.answer(
                mocked: stub, in: revision.schema, mocks: revision.mocks, answerLimit: limits.answerBytes)
            return GraphQLReply(status: 200, mediaType: mediaType, result: result, operation: operation, how: "stub")
        }
        let (result, answeredBy) = prepared.answer(
            in: revision.schema, mocks: revision.mocks, answerLimit: limits.answerBytes)
        return GraphQLReply(
            status: 200, mediaType: mediaType, result: result, operation: operation, how: answeredBy.rawValue)
    }
}

/// The answers made, by what identifies each (``GraphQLEndpoint/Asked/key(revision:mediaType:)``):
/// the most recent 256, each at most 256 KiB.
struct GraphQLAnswerCache: Sendable {
    static let capacity = 256
    static let largestBody = 256 << 10
    var entries: [String: (response: MockResponse, answer: ContractAnswer)] = [:]
    private var order: [String] = []

    mutating func keep(_ key: String, _ entry: (response: MockResponse, answer: ContractAnswer), size: Int) {
        guard entries[key] == nil, size <= Self.largestBody else { return }
        entries[key] = entry
        order.append(key)
        if order.count > Self.capacity { entries[order.removeFirst()] = nil }
    }
}

/// An HTTP reply carrying a GraphQL result.
struct GraphQLReply: Sendable {
    var status: Int
    var mediaType: String
    var result: GraphQLResult
    /// The operation's name (or kind) and what answered, for the header and the journal.
    var operation: String
    var how: String
    var allow: String?

    /// A request error's reply: in `application/json` a 200 (legacy clients read the body
    /// whatever the status), in the newer media type a 400; `status` when it has its own.
    static func refusal(
        _ errors: [GraphQLError], mediaType: String, operation: String, how: String = "refused", status: Int? = nil
    ) -> GraphQLReply {
        let code = status ?? (mediaType == "application/json" ? 200 : 400)
        return GraphQLReply(
            status: code, mediaType: mediaType, result: .refusal(errors), operation: operation, how: how)
    }

    var answer: ContractAnswer {
        var answer = ContractAnswer(
            operation: operation, status: status, how: how,
            violations: result.data == nil ? result.errors.map(\.message) : [])
        answer.kind = "graphql"
        return answer
    }

    var response: MockResponse {
        response(body: Data(result.serialized()))
    }

    func response(body: Data) -> MockResponse {
        var headers: HTTPHeaders = [.contentType: mediaType, "RequestMocker-GraphQL": "\(operation) \(how)"]
        if let allow { headers.add("Allow", allow) }
        return MockResponse(
            content: .body(body, defaultContentType: nil), status: HTTPStatus(status),
            headers: headers)
    }
}
