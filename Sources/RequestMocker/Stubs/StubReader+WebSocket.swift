import Foundation

// A WebSocket endpoint in a stub: `"webSocket": "echo"`, or a script:
//
//     {"onConnect": [{"text": "welcome"}],
//      "rules": [{"text": "^hello (.+)$", "reply": [{"text": "hi $1"}]},
//                {"json": {"type": "ping"}, "reply": [{"text": "pong"}]},
//                {"binary": null, "reply": [{"echo": true}]},
//                {"any": true, "reply": [{"pause": 0.5}, {"close": {"code": 1000, "reason": "bye"}}]}],
//      "subprotocols": ["chat"], "maximumMessageSize": 65536}
extension StubReader {
    func webSocketScript(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> WebSocketScript {
        if value.stringValue == "echo" { return .echo }
        let members = try object(
            value, at: steps, allowed: ["onConnect", "rules", "subprotocols", "maximumMessageSize"])
        var script = WebSocketScript()
        if let onConnect = members["onConnect"] {
            script.onConnect = try actions(onConnect, at: steps + [.key("onConnect")])
        }
        if let rules = members["rules"] {
            guard case .array(let elements) = rules else {
                throw invalid(steps + [.key("rules")], "expected a list of rules")
            }
            for (index, element) in elements.enumerated() {
                script.rules.append(try rule(element, at: steps + [.key("rules"), .index(index)]))
            }
        }
        if let subprotocols = members["subprotocols"] {
            guard case .array(let names) = subprotocols, let strings = Optional(names.compactMap(\.stringValue)),
                strings.count == names.count, strings.allSatisfy(HTTPHeaders.Name.isValid)
            else {
                throw invalid(steps + [.key("subprotocols")], "expected a list of subprotocol names (tokens)")
            }
            script.subprotocols = strings
        }
        if let size = members["maximumMessageSize"] {
            guard let bytes = size.intValue, (125...(64 * 1024 * 1024)).contains(bytes) else {
                throw invalid(steps + [.key("maximumMessageSize")], "expected a number of bytes from 125 to 67108864")
            }
            script.maximumMessageSize = bytes
        }
        if let problem = script.problem { throw invalid(steps, problem) }
        return script
    }

    private func rule(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> WebSocketScript.Rule {
        let matches = ["text", "binary", "json", "any"]
        let members = try object(value, at: steps, allowed: matches + ["reply"])
        let given = matches.filter { members[$0] != nil }
        guard given.count == 1, let match = given.first, let matchValue = members[match] else {
            throw invalid(steps, "a rule has one of \(Self.list(matches)), and a \"reply\"")
        }
        let reply = try members["reply"].map { value throws(Stub.Invalid) in
            try actions(value, at: steps + [.key("reply")])
        }
        let replies = reply ?? []
        let matchSteps = steps + [.key(match)]
        switch match {
        case "json":
            return .json(matchValue, replies)
        case "any":
            guard matchValue == true else { throw invalid(matchSteps, "expected true") }
            return .any(replies)
        default:
            let pattern = match == "binary" && matchValue == .null ? nil : try string(matchValue, at: matchSteps)
            do {
                return match == "text" ? try .text(pattern ?? "", replies) : try .binary(pattern, replies)
            } catch {
                throw invalid(matchSteps, "\(error)")
            }
        }
    }

    private func actions(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> [WebSocketScript.Action] {
        guard case .array(let elements) = value else { throw invalid(steps, "expected a list of actions") }
        var actions: [WebSocketScript.Action] = []
        for (index, element) in elements.enumerated() {
            let actionSteps = steps + [.index(index)]
            let kinds = ["text", "base64", "echo", "pause", "close"]
            let members = try object(element, at: actionSteps, allowed: kinds)
            guard members.count == 1, let (kind, argument) = members.first else {
                throw invalid(actionSteps, "an action is one of \(Self.list(kinds))")
            }
            let argumentSteps = actionSteps + [.key(kind)]
            switch kind {
            case "text":
                actions.append(.text(try string(argument, at: argumentSteps)))
            case "base64":
                guard let data = Data(base64Encoded: try string(argument, at: argumentSteps)) else {
                    throw invalid(argumentSteps, "not valid base64")
                }
                actions.append(.binary(data))
            case "echo":
                guard argument == true else { throw invalid(argumentSteps, "expected true") }
                actions.append(.echo)
            case "pause":
                actions.append(.pause(try duration(argument, at: argumentSteps)))
            default:
                let close = try object(argument, at: argumentSteps, allowed: ["code", "reason"])
                let code = try close["code"].map { value throws(Stub.Invalid) -> Int in
                    guard let code = value.intValue else {
                        throw invalid(argumentSteps + [.key("code")], "expected a number")
                    }
                    return code
                }
                let reason = try close["reason"].map { value throws(Stub.Invalid) in
                    try string(value, at: argumentSteps + [.key("reason")])
                }
                actions.append(.close(code: code ?? 1000, reason: reason ?? ""))
            }
        }
        return actions
    }
}
