import Foundation
import RequestMocker

extension ScriptedServer.Script {
    /// Loads a script from a JSON file, so a conversation can live beside the tests as data.
    ///
    /// ```json
    /// {
    ///   "framing": "lines",
    ///   "greeting": ["220 $address FTP server ready\r\n"],
    ///   "data": "Hello from the data connection",
    ///   "rules": [
    ///     {"pattern": "^USER (.+)$", "commands": ["331 Password required for $1\r\n"]},
    ///     {"pattern": "^RETR ", "commands": ["150 Opening\r\n", 0.1, "226 Done\r\n"]},
    ///     {"pattern": "^QUIT$", "commands": ["221 Bye\r\n", {"close": true}]}
    ///   ]
    /// }
    /// ```
    ///
    /// - `framing`: `"lines"` (default), `"reads"`, or `{"delimiter": "\r\n\r\n"}`.
    /// - `data`: a string (sent as UTF-8) or `{"base64": "…"}`.
    /// - A command is a string (``Command/text(_:)``, with substitutions), a number (a pause in
    ///   seconds), `{"pause": seconds}`, `{"base64": "…"}` (``Command/bytes(_:)``),
    ///   `{"close": true}` or `{"sendData": true}`.
    ///
    /// JSON keeps `\r\n` escapes exactly, which line-based protocols need.
    ///
    /// - Throws: ``MockServerError/scriptNotReadable(path:reason:)``, or
    ///   ``MockServerError/invalidScript(path:location:reason:)`` naming the place, such as
    ///   `rules[2].commands[0]`.
    public init(contentsOf url: URL) throws(MockServerError) {
        let path = url.path
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .scriptNotReadable(path: path, reason: (error as NSError).localizedDescription)
        }
        let json: JSONValue
        do {
            json = try JSONValue(parsing: data)
        } catch {
            throw .invalidScript(path: path, location: "byte \(error.offset)", reason: error.reason)
        }
        try self.init(json: json, path: path)
    }

    init(json: JSONValue, path: String) throws(MockServerError) {
        guard case .object(let members) = json else {
            throw .invalidScript(path: path, location: "the top level", reason: "expected an object with \"rules\"")
        }
        let known: Set<String> = ["framing", "greeting", "data", "rules", "comment"]
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw .invalidScript(
                path: path, location: unknown,
                reason: "unknown key; the keys are framing, greeting, data, rules and comment")
        }
        let framing = try Self.framing(members["framing"], path: path)
        let greeting = try Self.commands(members["greeting"] ?? .array([]), at: "greeting", path: path)
        let data = try Self.bytes(members["data"] ?? .string(""), at: "data", path: path)
        guard case .array(let ruleValues) = members["rules"] ?? .array([]) else {
            throw .invalidScript(
                path: path, location: "rules", reason: "expected an array of {\"pattern\", \"commands\"}")
        }
        var rules: [ScriptedServer.Rule] = []
        for (index, value) in ruleValues.enumerated() {
            let location = "rules[\(index)]"
            guard case .object(let rule) = value, case .string(let pattern) = rule["pattern"] else {
                throw .invalidScript(
                    path: path, location: location, reason: "expected {\"pattern\": \"regex\", \"commands\": [...]}")
            }
            let commands = try Self.commands(rule["commands"] ?? .array([]), at: location + ".commands", path: path)
            do {
                rules.append(try ScriptedServer.Rule(pattern, commands))
            } catch {
                throw .invalidScript(path: path, location: location + ".pattern", reason: error.description)
            }
        }
        self.init(greeting: greeting, rules: rules, data: data, framing: framing)
    }

    private static func framing(_ value: JSONValue?, path: String) throws(MockServerError) -> ScriptedServer.Framing {
        switch value {
        case nil, .string("lines"): return .lines
        case .string("reads"): return .reads
        case .object(let members):
            if case .string(let delimiter) = members["delimiter"], !delimiter.isEmpty { return .delimiter(delimiter) }
        default: break
        }
        throw .invalidScript(
            path: path, location: "framing", reason: "expected \"lines\", \"reads\" or {\"delimiter\": \"…\"}")
    }

    private static func commands(
        _ value: JSONValue, at location: String, path: String
    ) throws(MockServerError) -> [ScriptedServer.Command] {
        guard case .array(let values) = value else {
            throw .invalidScript(path: path, location: location, reason: "expected an array of commands")
        }
        var commands: [ScriptedServer.Command] = []
        for (index, value) in values.enumerated() {
            commands.append(try command(value, at: "\(location)[\(index)]", path: path))
        }
        return commands
    }

    private static func command(
        _ value: JSONValue, at location: String, path: String
    ) throws(MockServerError) -> ScriptedServer.Command {
        switch value {
        case .string(let text):
            return .text(text)
        case .int, .double:
            return try .pause(seconds(value, at: location, path: path))
        case .object(let members) where members.count == 1:
            if let pause = members["pause"] { return try .pause(seconds(pause, at: location + ".pause", path: path)) }
            if case .string(let encoded) = members["base64"] {
                guard let bytes = Data(base64Encoded: encoded) else {
                    throw .invalidScript(path: path, location: location + ".base64", reason: "not valid base64")
                }
                return .bytes(bytes)
            }
            if members["close"] == .bool(true) { return .close }
            if members["sendData"] == .bool(true) { return .sendData }
        default:
            break
        }
        throw .invalidScript(
            path: path, location: location,
            reason:
                "expected a string, a number of seconds, or one of {\"pause\": s}, {\"base64\": \"…\"}, "
                + "{\"close\": true}, {\"sendData\": true}"
        )
    }

    private static func seconds(
        _ value: JSONValue, at location: String, path: String
    ) throws(MockServerError) -> Duration {
        guard let seconds = value.doubleValue, seconds >= 0, seconds < 86_400 else {
            throw .invalidScript(path: path, location: location, reason: "expected a pause in seconds, from 0 to 86400")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private static func bytes(_ value: JSONValue, at location: String, path: String) throws(MockServerError) -> Data {
        switch value {
        case .string(let text):
            return Data(text.utf8)
        case .object(let members):
            if case .string(let encoded) = members["base64"], let bytes = Data(base64Encoded: encoded) { return bytes }
        default:
            break
        }
        throw .invalidScript(path: path, location: location, reason: "expected a string or {\"base64\": \"…\"}")
    }
}
