import Foundation
import RequestMocker

/// One connection of the `graphql-transport-ws` protocol (the one graphql-ws and Apollo's
/// clients speak): `connection_init` is acknowledged, `ping` answered with `pong`, each
/// `subscribe` answered with its events as `next` messages and then `complete` (a query or a
/// mutation with its one result), an invalid one with `error`; the client's `complete` stops
/// a subscription's events. What breaks the protocol closes the connection with its code.
final class GraphQLTransportConversation: WebSocketConversation {
    static let subprotocol = "graphql-transport-ws"
    /// The most subscriptions one connection may have running.
    static let maximumRunning = 100

    private let revision: GraphQLEndpoint.Revision
    private let limits: GraphQLLimits
    /// The time between a subscription's events (its first is sent at once).
    private let interval: Duration
    private var initialized = false
    /// The subscriptions whose events are still to send, by id, in the order they began.
    private var running: [(id: String, events: [GraphQLResult], next: ContinuousClock.Instant)] = []

    init(revision: GraphQLEndpoint.Revision, limits: GraphQLLimits, interval: Duration) {
        self.revision = revision
        self.limits = limits
        self.interval = interval
    }

    func receive(_ message: WebSocketMessage) -> [WebSocketScript.Action] {
        guard case .text(let text) = message, let json = GraphQLJSON.parse(Data(text.utf8)), json.isObject,
            case .string(let type)? = json["type"]
        else {
            return [.close(code: 4400, reason: "Invalid message: a JSON object with a \"type\" was expected")]
        }
        switch type {
        case "connection_init":
            guard !initialized else { return [.close(code: 4429, reason: "Too many initialisation requests")] }
            initialized = true
            return [Self.send([("type", .string("connection_ack"))])]
        case "ping":
            return [Self.send([("type", .string("pong"))])]
        case "pong":
            return []
        case "subscribe":
            return subscribe(json)
        case "complete":
            if case .string(let id)? = json["id"] { running.removeAll { $0.id == id } }
            return []
        default:
            return [.close(code: 4400, reason: "Invalid message type \"\(type)\"")]
        }
    }

    private func subscribe(_ message: GraphQLJSON) -> [WebSocketScript.Action] {
        guard initialized else { return [.close(code: 4401, reason: "Unauthorized")] }
        guard case .string(let id)? = message["id"], !id.isEmpty, let payload = message["payload"], payload.isObject,
            case .string(let given)? = payload["query"] ?? .string("")
        else {
            return [.close(code: 4400, reason: "Invalid subscribe message: it needs an id and a payload with a query")]
        }
        guard !running.contains(where: { $0.id == id }) else {
            return [.close(code: 4409, reason: "Subscriber for \(id) already exists")]
        }
        let operationName: String? = if case .string(let name)? = payload["operationName"] { name } else { nil }
        let variables = payload["variables"].flatMap { $0.isObject ? $0 : nil }
        let prepared: GraphQLPreparedOperation
        do {
            prepared = try GraphQLPreparedOperation(
                query: given, operationName: operationName, variables: variables, in: revision.schema, limits: limits)
        } catch {
            return [
                Self.send([
                    ("id", .string(id)), ("type", .string("error")), ("payload", .list(error.errors.map(\.json))),
                ])
            ]
        }
        let events: [GraphQLResult]
        if prepared.kind == .subscription {
            guard running.count < Self.maximumRunning else {
                let error = GraphQLError(
                    "This connection already runs \(Self.maximumRunning) subscriptions; complete one first.")
                return [Self.send([("id", .string(id)), ("type", .string("error")), ("payload", .list([error.json]))])]
            }
            events = prepared.events(in: revision.schema, mocks: revision.mocks, answerLimit: limits.answerBytes).events
        } else {
            events = [
                prepared.answer(in: revision.schema, mocks: revision.mocks, answerLimit: limits.answerBytes).result
            ]
        }
        guard interval > .zero, events.count > 1 else {
            return events.map { Self.next(id, $0) } + [Self.complete(id)]
        }
        running.append((id, Array(events.dropFirst()), ContinuousClock.now + interval))
        return [Self.next(id, events[0])]
    }

    var nextDue: ContinuousClock.Instant? {
        running.map(\.next).min()
    }

    func due(at now: ContinuousClock.Instant) -> [WebSocketScript.Action] {
        var actions: [WebSocketScript.Action] = []
        var index = 0
        while index < running.count {
            guard running[index].next <= now else {
                index += 1
                continue
            }
            let id = running[index].id
            actions.append(Self.next(id, running[index].events.removeFirst()))
            if running[index].events.isEmpty {
                actions.append(Self.complete(id))
                running.remove(at: index)
            } else {
                running[index].next = now + interval
                index += 1
            }
        }
        return actions
    }

    private static func next(_ id: String, _ result: GraphQLResult) -> WebSocketScript.Action {
        send([("id", .string(id)), ("type", .string("next")), ("payload", result.json)])
    }

    private static func complete(_ id: String) -> WebSocketScript.Action {
        send([("id", .string(id)), ("type", .string("complete"))])
    }

    private static func send(_ members: [(key: String, value: GraphQLJSON)]) -> WebSocketScript.Action {
        .text(String(decoding: GraphQLJSON.object(members).serialized(), as: UTF8.self))
    }
}
