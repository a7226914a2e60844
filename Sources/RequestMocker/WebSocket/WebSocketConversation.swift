/// A WebSocket endpoint whose answers depend on what came before (a protocol with a handshake,
/// subscriptions that start and stop): one instance per connection, used only from the
/// connection's own thread, instead of a script's fixed rules.
///
/// ```swift
/// var script = WebSocketScript(subprotocols: ["graphql-transport-ws"])
/// script.conversation = { GraphQLTransportConversation(endpoint) }
/// ```
package protocol WebSocketConversation: AnyObject {
    /// What to send in answer to `message` (a `close` action ends the connection).
    func receive(_ message: WebSocketMessage) -> [WebSocketScript.Action]
    /// When something is next due to be sent unasked, if anything is.
    var nextDue: ContinuousClock.Instant? { get }
    /// What is due by `now`.
    func due(at now: ContinuousClock.Instant) -> [WebSocketScript.Action]
}

extension WebSocketScript {
    /// A script whose connections each hold a conversation `start` makes: its messages are
    /// answered by the conversation, as written (no `$` substitution).
    package static func conversing(
        subprotocols: [String], maximumMessageSize: Int = 1024 * 1024,
        _ start: @escaping @Sendable () -> any WebSocketConversation
    ) -> WebSocketScript {
        var script = WebSocketScript(subprotocols: subprotocols, maximumMessageSize: maximumMessageSize)
        script.conversation = start
        return script
    }
}
