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
    let limits: GraphQLLimits
    /// The time between a subscription's events over WebSocket (the first is sent at once).
    let eventInterval: Duration

    /// The schema and mocks answering now; `serve` replaces them when their files change.
    package struct Revision: Sendable {
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
        current.withLock {
            $0.schema = schema
            $0.mocks = mocks
        }
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
        return .respondLater(file: revision.file) { [self] in
            let reply = self.reply(to: request, revision: revision)
            return .respond(reply.response, from: .contract(revision.file, reply.answer))
        }
    }

    /// The reply to `request`: a refusal of what isn't a GraphQL request, a request error, or
    /// the operation's answer.
    func reply(to request: MockRequest, revision: Revision, stub: GraphQLJSON? = nil) -> GraphQLReply {
        let mediaType = GraphQLHTTPRequest.mediaType(accept: request.header(.accept))
        let parameters: GraphQLHTTPRequest
        do {
            parameters = try GraphQLHTTPRequest(request)
        } catch {
            return GraphQLReply(
                status: error.status, mediaType: mediaType, result: .refusal([GraphQLError(error.message)]),
                operation: "-", how: "refused", allow: error.allow)
        }
        let named = parameters.operationName ?? "-"
        func refusal(_ errors: [GraphQLError], how: String = "refused", status: Int? = nil) -> GraphQLReply {
            // In `application/json` a request error is a 200 (legacy clients read the body
            // whatever the status); in the newer media type it is a 400.
            let code = status ?? (mediaType == "application/json" ? 200 : 400)
            return GraphQLReply(
                status: code, mediaType: mediaType, result: .refusal(errors), operation: named, how: how)
        }
        let query: String
        switch persisted.withLock({ $0.resolve(parameters.query, extensions: parameters.extensions) }) {
        case .query(let text): query = text
        case .refused(let error, let status):
            let notFound = error.message == "PersistedQueryNotFound"
            return refusal([error], how: notFound ? "persisted-query-not-found" : "refused", status: status)
        }
        let prepared: GraphQLPreparedOperation
        do {
            prepared = try GraphQLPreparedOperation(
                query: query, operationName: parameters.operationName, variables: parameters.variables,
                in: revision.schema, limits: limits)
        } catch {
            return refusal(error.errors)
        }
        let operation = prepared.name ?? prepared.kind.rawValue
        if prepared.kind == .mutation, parameters.method == .get {
            return GraphQLReply(
                status: 405, mediaType: mediaType,
                result: .refusal([GraphQLError("A mutation is sent with POST, not GET.")]), operation: operation,
                how: "refused", allow: "POST")
        }
        if prepared.kind == .subscription {
            return refusal(
                [GraphQLError("A subscription is answered over WebSocket (graphql-transport-ws) at \(path).")])
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

/// An HTTP reply carrying a GraphQL result.
struct GraphQLReply {
    var status: Int
    var mediaType: String
    var result: GraphQLResult
    /// The operation's name (or kind) and what answered, for the header and the journal.
    var operation: String
    var how: String
    var allow: String?

    var answer: ContractAnswer {
        var answer = ContractAnswer(
            operation: operation, status: status, how: how,
            violations: result.data == nil ? result.errors.map(\.message) : [])
        answer.kind = "graphql"
        return answer
    }

    var response: MockResponse {
        var headers: HTTPHeaders = [.contentType: mediaType, "RequestMocker-GraphQL": "\(operation) \(how)"]
        if let allow { headers.add("Allow", allow) }
        return MockResponse(
            content: .body(Data(result.serialized()), defaultContentType: nil), status: HTTPStatus(status),
            headers: headers)
    }
}
