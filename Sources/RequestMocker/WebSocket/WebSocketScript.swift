import Foundation

/// What a WebSocket endpoint of `MockServer` says: messages on connect, and rules that answer
/// the client's messages, in the manner of `ScriptedServer`.
///
/// Rules are tried in order on each message the client sends; the first that matches runs its
/// actions. A message no rule matches closes the connection with code 1008 and a reason that
/// says so, unless a catch-all rule (``Rule/any(_:)``) is last.
///
/// ```swift
/// let script = try WebSocketScript(
///     onConnect: [.text(#"{"type":"welcome"}"#)],
///     rules: [
///         .text("^hello (.+)$", [.text("hi $1")]),
///         .json(["type": "ping"], [.text(#"{"type":"pong"}"#)]),
///         .text("^bye$", [.close(code: 1000, reason: "see you")]),
///         .any([.echo]),
///     ])
/// registry.register(.webSocket("/chat"), respond: .webSocket(script))
/// ```
public struct WebSocketScript: Sendable {
    /// Actions run as soon as the handshake is done, before any message.
    public var onConnect: [Action]
    /// Tried in order; the first that matches a message answers it.
    public var rules: [Rule]
    /// The subprotocols the endpoint speaks, most preferred first: of those the client offers
    /// (`Sec-WebSocket-Protocol`), the one earliest here is chosen. Empty by default, which
    /// chooses none.
    public var subprotocols: [String]
    /// The largest message taken, in bytes, however it is fragmented; a larger one closes the
    /// connection with code 1009, found before it is read. 1 MiB by default; kept between 125
    /// bytes and 1 GiB.
    /// Makes each connection's conversation, for an endpoint that answers by what came before
    /// (``conversing(subprotocols:maximumMessageSize:_:)``); `nil` for one that follows `rules`.
    package var conversation: (@Sendable () -> any WebSocketConversation)?
    public var maximumMessageSize: Int {
        didSet { maximumMessageSize = Self.clamped(maximumMessageSize) }
    }

    private static func clamped(_ size: Int) -> Int { min(max(125, size), 1024 * 1024 * 1024) }

    /// - Parameters:
    ///   - onConnect: actions run on connect.
    ///   - rules: the rules, in the order they are tried.
    ///   - subprotocols: the subprotocols spoken, most preferred first.
    ///   - maximumMessageSize: the largest message taken (125 bytes to 1 GiB).
    public init(
        onConnect: [Action] = [], rules: [Rule] = [], subprotocols: [String] = [],
        maximumMessageSize: Int = 1024 * 1024
    ) {
        self.onConnect = onConnect
        self.rules = rules
        self.subprotocols = subprotocols
        self.maximumMessageSize = Self.clamped(maximumMessageSize)
    }

    /// Sends every message back as it came.
    public static let echo = WebSocketScript(rules: [.any([.echo])])

    /// One step of an answer.
    public enum Action: Sendable, Hashable {
        /// Sends a text message, after substitutions: `$0` (the whole match: the message for a
        /// JSON rule or a catch-all; a binary message's bytes one character a byte), `$1`…`$n`
        /// (the pattern's groups; an unmatched one is empty) and `$$` for a dollar sign.
        case text(String)
        /// Sends a binary message.
        case binary(Data)
        /// Sends the message being answered back, as it came.
        case echo
        /// Waits before the next action (messages that arrive meanwhile wait too).
        case pause(Duration)
        /// Starts the closing handshake with this code (1000 by default: a normal closure) and
        /// reason (at most 123 bytes of UTF-8).
        case close(code: Int = 1000, reason: String = "")
    }

    /// What a rule matches.
    public enum Match: Sendable, Equatable {
        /// A text message the regular expression matches.
        case text(pattern: String)
        /// A binary message whose bytes, read one character a byte (ISO 8859-1), the regular
        /// expression matches; `nil` matches every binary message.
        case binary(pattern: String?)
        /// A text message that parses as JSON equal to the value (key order and number spelling
        /// don't matter).
        case json(JSONValue)
        /// Every message.
        case any
    }

    /// A match and the actions that answer the messages it matches.
    public struct Rule: Sendable {
        /// What it matches.
        public let match: Match
        /// What runs when it matches.
        public let actions: [Action]
        /// The compiled pattern, for text and binary patterns.
        let expression: RegularExpression?

        private init(match: Match, actions: [Action], expression: RegularExpression?) {
            self.match = match
            self.actions = actions
            self.expression = expression
        }

        /// Text messages `pattern` matches (`NSRegularExpression` syntax; `.` also matches line
        /// breaks).
        ///
        /// - Throws: ``RequestMockerError/invalidRegularExpression(pattern:reason:)``.
        public static func text(_ pattern: String, _ actions: [Action]) throws(RequestMockerError) -> Rule {
            Rule(match: .text(pattern: pattern), actions: actions, expression: try compile(pattern))
        }

        /// Binary messages, all of them or those whose bytes `pattern` matches (one character a
        /// byte).
        ///
        /// - Throws: ``RequestMockerError/invalidRegularExpression(pattern:reason:)``.
        public static func binary(_ pattern: String? = nil, _ actions: [Action]) throws(RequestMockerError) -> Rule {
            Rule(match: .binary(pattern: pattern), actions: actions, expression: try pattern.map(compile))
        }

        /// Text messages that parse as JSON equal to `value`.
        public static func json(_ value: JSONValue, _ actions: [Action]) -> Rule {
            Rule(match: .json(value), actions: actions, expression: nil)
        }

        /// Every message: put it last to answer what nothing else does. With no actions it
        /// ignores the message.
        public static func any(_ actions: [Action]) -> Rule {
            Rule(match: .any, actions: actions, expression: nil)
        }

        private static func compile(_ pattern: String) throws(RequestMockerError) -> RegularExpression {
            do {
                return try RegularExpression(pattern)
            } catch {
                throw .invalidRegularExpression(pattern: pattern, reason: error.reason)
            }
        }

        /// Bytes read one character a byte (ISO 8859-1, which maps every byte).
        private static func latin1(_ data: Data) -> String {
            String(data: data, encoding: .isoLatin1) ?? ""
        }

        /// The groups of `message` if this rule matches it: `[whole match, groups…]`.
        func groups(in message: WebSocketMessage) -> [String]? {
            switch (match, message) {
            case (.any, .text(let text)):
                return [text]
            case (.any, .binary(let data)), (.binary(pattern: nil), .binary(let data)):
                return [Self.latin1(data)]
            case (.text, .text(let text)):
                return expression?.groups(in: text)
            case (.binary, .binary(let data)):
                return expression?.groups(in: Self.latin1(data))
            case (.json(let value), .text(let text)):
                return (try? JSONValue(parsing: Data(text.utf8))) == value ? [text] : nil
            case (.text, .binary), (.binary, .text), (.json, .binary):
                return nil
            }
        }
    }

    /// The actions that answer `message`, with the groups its rule captured, or `nil` when no
    /// rule matches it.
    package func answer(to message: WebSocketMessage) -> (actions: [Action], groups: [String])? {
        for rule in rules {
            if let groups = rule.groups(in: message) { return (rule.actions, groups) }
        }
        return nil
    }

    /// Why the script can't be played, if it can't: a close code a server may not send, or a
    /// reason longer than a close frame holds.
    var problem: String? {
        let actions = onConnect.map { ("onConnect", $0) } + rules.flatMap { rule in rule.actions.map { ("rules", $0) } }
        for (place, action) in actions {
            guard case .close(let code, let reason) = action else { continue }
            guard Self.isSendable(closeCode: code) else {
                return "a close action in \(place) has code \(code); a server may send 1000-1003, 1007-1014 or "
                    + "3000-4999"
            }
            guard reason.utf8.count <= 123 else {
                return "a close action in \(place) has a reason of \(reason.utf8.count) bytes; a close frame holds 123"
            }
        }
        return nil
    }

    /// Whether an endpoint may send `code` in a close frame (RFC 6455 §7.4; 1004-1006 and 1015
    /// are reserved for reporting, never sent).
    package static func isSendable(closeCode code: Int) -> Bool {
        (1000...1003).contains(code) || (1007...1014).contains(code) || (3000...4999).contains(code)
    }
}
