import Foundation
import RequestMocker

extension ScriptedServer {
    /// What a ``ScriptedServer`` says: a greeting, rules that answer input, and the bytes its data
    /// listener serves.
    ///
    /// Rules are tried in order on each unit of input (a line, by default); the first whose regular
    /// expression matches runs its commands. Input no rule matches closes the connection, unless a
    /// catch-all rule (``Rule/any(_:)``) is last.
    ///
    /// ```swift
    /// let script = try ScriptedServer.Script(
    ///     greeting: [.text("220 $address FTP server ready\r\n")],
    ///     rules: [
    ///         .init("^USER (.+)$", [.text("331 Password required for $1\r\n")]),
    ///         .init("^QUIT$", [.text("221 Bye\r\n"), .close]),
    ///     ],
    ///     data: Data("Hello from the data connection".utf8)
    /// )
    /// ```
    public struct Script: Sendable {
        /// Commands run as soon as a client connects, before any input (FTP's `220` banner).
        public var greeting: [Command]
        /// Tried in order; the first that matches an input answers it.
        public var rules: [Rule]
        /// What the passive data listener sends, and ``Command/sendData`` sends; `$size` is its length.
        public var data: Data
        /// How input is cut into the units rules see.
        public var framing: Framing

        /// - Parameters:
        ///   - greeting: commands run on connect.
        ///   - rules: the rules, in the order they are tried.
        ///   - data: the data listener's bytes.
        ///   - framing: ``Framing/lines`` by default.
        public init(greeting: [Command] = [], rules: [Rule], data: Data = Data(), framing: Framing = .lines) {
            self.greeting = greeting
            self.rules = rules
            self.data = data
            self.framing = framing
        }
    }

    /// How input is cut into the units that rules match.
    public enum Framing: Sendable, Hashable {
        /// Each line, without its `\n` or `\r\n` (the default; right for FTP, SMTP, POP3).
        case lines
        /// Up to and including each occurrence of the delimiter, which stays in the unit:
        /// `.delimiter("\r\n\r\n")` hands an HTTP request head to the rules in one piece.
        case delimiter(String)
        /// Whatever each read returns, for input with no line or delimiter to cut on (a message
        /// split across reads is two inputs).
        case reads
    }

    /// One step of an answer.
    public enum Command: Sendable, Hashable {
        /// Sends text as UTF-8 after substitutions: `$0` (the whole match), `$1`…`$n` (capture
        /// groups; an unmatched one is empty), `$address`, `$port`, `$pasv` (the data
        /// listener as FTP's `h1,h2,h3,h4,p1,p2`), `$size` (the data's length), `$date` (now, RFC
        /// 1123), `$server` (this server's name), and `$$` for a dollar sign. `$12` is group 12
        /// if there is one, else group 1 followed by `2`.
        case text(String)
        /// Sends bytes as they are.
        case bytes(Data)
        /// Waits before the next command (the connection stays open; input waits).
        case pause(Duration)
        /// Closes the connection.
        case close
        /// Sends the script's ``Script/data``.
        case sendData
    }

    /// A regular expression and the commands that answer input it matches.
    public struct Rule: Sendable {
        /// The regular expression, as given.
        public let pattern: String
        /// What runs when it matches.
        public let commands: [Command]
        /// `nil` for ``any(_:)``, which matches everything.
        let expression: RegularExpression?

        /// Compiles `pattern` (`NSRegularExpression` syntax; `.` also matches line breaks).
        ///
        /// - Throws: ``MockServerError/invalidPattern(pattern:reason:)``.
        public init(_ pattern: String, _ commands: [Command]) throws(MockServerError) {
            self.pattern = pattern
            self.commands = commands
            do {
                expression = try RegularExpression(pattern)
            } catch {
                throw .invalidPattern(pattern: pattern, reason: error.reason)
            }
        }

        /// A rule that matches any input: put it last to answer what nothing else does, instead
        /// of closing the connection. With no commands it ignores the input.
        public static func any(_ commands: [Command] = []) -> Rule {
            Rule(pattern: "(?s).*", commands: commands, expression: nil)
        }

        private init(pattern: String, commands: [Command], expression: RegularExpression?) {
            self.pattern = pattern
            self.commands = commands
            self.expression = expression
        }
    }
}

extension ScriptedServer.Rule {
    /// The groups of `input` if this rule matches it.
    func groups(in input: String) -> [String]? {
        guard let expression else { return [input] }
        return expression.groups(in: input)
    }
}
