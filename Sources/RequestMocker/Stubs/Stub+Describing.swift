import Foundation

extension Stub {
    /// The stub that describes `filter`, to send to a server's admin API (what
    /// `MockServerClient.register(_:)` does).
    ///
    /// ```swift
    /// let stub = try Stub(describing: .get("/users/<id>").header("Accept", "application/json"))
    /// print(stub.json)   // {"request":{"headers":{"Accept":"application/json"},...},"response":{}}
    /// ```
    ///
    /// - Throws: ``Invalid`` for what JSON can't carry: a block, a predicate (`when`), an exact
    ///   query, a scheme, an error response, a forward, an HTTP version, a throttled or truncated
    ///   body, a body file that can't be read, a status or headers on a pass-through, or a
    ///   sequence of more than 1,000 responses.
    public init(describing filter: RequestFilter) throws(Invalid) {
        var request: [String: JSONValue] = [:]
        func refuse(_ step: String, _ reason: String) -> Invalid {
            Invalid(reason: reason, steps: [.key("request"), .key(step)])
        }
        if let method = filter.method { request["method"] = .string(method.rawValue) }
        if filter.scheme != nil {
            throw refuse("scheme", "a scheme can't be sent: the server is reached over http; leave it out")
        }
        if let host = filter.host { request["host"] = .string(host) }
        if let path = filter.path { request["path"] = .string(path.rawValue) }
        var query: [String: JSONValue] = [:]
        var headers: [String: JSONValue] = [:]
        for condition in filter.conditions {
            switch condition {
            case .query(let items, exact: false):
                for item in items {
                    guard query[item.name] == nil else {
                        throw refuse("query", "the query item \(item.name) is asked for twice, which a stub can't hold")
                    }
                    query[item.name] = item.value.map(JSONValue.string) ?? .null
                }
            case .query(_, exact: true):
                throw refuse("query", "an exact query can't be sent; use query(_:), which allows other items")
            case .header(let name, let value):
                guard !headers.keys.contains(where: { HTTPHeaders.Name($0) == name }) else {
                    throw refuse("headers", "the header \(name) is asked for twice, which a stub can't hold")
                }
                headers[name.rawValue] = value.map(JSONValue.string) ?? .null
            case .jsonBody(let value):
                request["jsonBody"] = value
            case .formBody(let fields):
                guard request["formBody"] == nil else {
                    throw refuse("formBody", "form fields are asked for twice, which a stub can't hold")
                }
                var members: [String: JSONValue] = [:]
                for field in fields {
                    guard members[field.name] == nil else {
                        throw refuse(
                            "formBody", "the form field \(field.name) is asked for twice, which a stub can't hold")
                    }
                    members[field.name] = field.value.map(JSONValue.string) ?? .null
                }
                request["formBody"] = .object(members)
            case .pathExtension(let name):
                guard request["pathExtension"] == nil else {
                    throw refuse("pathExtension", "two path extensions are asked for, which a stub can't hold")
                }
                // Read back, a stub's extension loses a leading dot: one that has dots or slashes
                // (which no last segment's extension can hold) would match something else.
                guard !name.isEmpty, !name.unicodeScalars.contains(where: { $0 == "/" || $0 == "." }) else {
                    throw refuse(
                        "pathExtension", "the path extension \(name.debugDescription) matches no path, so it isn't sent"
                    )
                }
                request["pathExtension"] = .string(name)
            case .predicate(let description, _):
                throw refuse("when", "the predicate \"\(description)\" is Swift code, which can't be sent")
            case .graphQL(let operationName, let variables):
                guard request["graphql"] == nil else {
                    throw refuse("graphql", "two GraphQL conditions are asked for, which a stub can't hold")
                }
                var members: [String: JSONValue] = [:]
                if let operationName { members["operationName"] = .string(operationName) }
                if !variables.isEmpty { members["variables"] = .object(variables) }
                request["graphql"] = .object(members)
            }
        }
        if !query.isEmpty { request["query"] = .object(query) }
        if !headers.isEmpty { request["headers"] = .object(headers) }
        let response: JSONValue
        do {
            response = try Self.describe(filter.response, inSequence: false)
        } catch {
            throw Invalid(reason: error.reason, steps: [.key("response")] + error.steps)
        }
        var json: JSONValue = ["request": .object(request), "response": response]
        if let scenario = filter.scenario, case .object(var members) = json {
            var described: [String: JSONValue] = ["name": .string(scenario.name)]
            described["requiredState"] = scenario.requiredState.map { .string($0.name) }
            described["newState"] = scenario.newState.map { .string($0.name) }
            members["scenario"] = .object(described)
            json = .object(members)
        }
        do {
            try self.init(json: json, location: filter.location)
        } catch {
            throw Invalid(reason: "it doesn't describe as a valid stub: \(error)", steps: error.steps)
        }
    }

    /// A WebSocket script as a stub's `webSocket` takes it.
    private static func describe(_ script: WebSocketScript) -> JSONValue {
        func actions(_ list: [WebSocketScript.Action]) -> JSONValue {
            .array(
                list.map { action -> JSONValue in
                    switch action {
                    case .text(let text): ["text": .string(text)]
                    case .binary(let data): ["base64": .string(data.base64EncodedString())]
                    case .echo: ["echo": true]
                    case .pause(let pause): ["pause": .double(pause.seconds)]
                    case .close(let code, let reason): ["close": ["code": .int(code), "reason": .string(reason)]]
                    }
                })
        }
        let rules = script.rules.map { rule -> JSONValue in
            var members: [String: JSONValue] = ["reply": actions(rule.actions)]
            switch rule.match {
            case .text(let pattern): members["text"] = .string(pattern)
            case .binary(let pattern): members["binary"] = pattern.map(JSONValue.string) ?? .null
            case .json(let value): members["json"] = value
            case .any: members["any"] = true
            }
            return .object(members)
        }
        return [
            "onConnect": actions(script.onConnect), "rules": .array(rules),
            "subprotocols": .array(script.subprotocols.map(JSONValue.string)),
            "maximumMessageSize": .int(script.maximumMessageSize),
        ]
    }

    /// A chunk as a stub's `chunks` take it: text when it is UTF-8, else base64, and its pause.
    private static func describe(_ chunk: StreamChunk) -> JSONValue {
        var members: [String: JSONValue] = [:]
        if let text = String(data: chunk.data, encoding: .utf8) {
            members["text"] = .string(text)
        } else {
            members["base64"] = .string(chunk.data.base64EncodedString())
        }
        if chunk.pause > .zero { members["pause"] = .double(chunk.pause.seconds) }
        return .object(members)
    }

    private static func describe(_ response: MockResponse, inSequence: Bool) throws(Invalid) -> JSONValue {
        func refuse(_ reason: String) -> Invalid { Invalid(reason: reason, steps: []) }
        guard response.versionOverride == nil else {
            throw refuse("an HTTP version can't be sent; leave withHTTPVersion(_:) out")
        }
        guard response.transfer.bytesPerSecond == nil, response.transfer.truncatedAfter == nil else {
            throw refuse("a throttled or truncated body can't be sent")
        }
        var members: [String: JSONValue] = [:]
        var headers = response.headerOverlay
        func addBody(_ data: Data, contentType: String?) {
            if let contentType, !headers.contains(.contentType) { headers.add(.contentType, contentType) }
            if contentType != nil, let text = String(data: data, encoding: .utf8) {
                members["body"] = .string(text)
            } else {
                members["base64Body"] = .string(data.base64EncodedString())
            }
        }
        switch response.content {
        case .sequence, .fault, .passThrough:
            guard response.statusOverride == nil, headers.isEmpty else {
                throw refuse(
                    "a status or headers on a sequence, fault or pass-through can't be sent; set them on each response")
            }
        default:
            break
        }
        switch response.content {
        case .body(let data, let contentType):
            if !data.isEmpty || contentType != nil { addBody(data, contentType: contentType) }
        case .file(let url, let contentType):
            let data: Data
            do {
                data = try Data(contentsOf: url)
            } catch {
                throw refuse("the body file \(url.path) can't be read: \((error as NSError).localizedDescription)")
            }
            addBody(data, contentType: contentType ?? MockResponse.contentType(forExtension: url.pathExtension))
        case .slice(let slice, let contentType):
            do {
                addBody(try ResponseBody.file(slice).data(), contentType: contentType)
            } catch {
                throw refuse("the body file can't be read: \(error)")
            }
        case .fault(let fault):
            let names: [ConnectionFault.Kind: String] = [
                .reset: "reset", .closeBeforeResponding: "closeBeforeResponding",
                .malformedStatusLine: "malformedStatusLine", .stall: "stall",
            ]
            members["fault"] = .string(names[fault.kind] ?? "reset")
        case .sequence(let sequence):
            guard !inSequence else { throw refuse("a sequence inside a sequence can't be sent") }
            let total = sequence.steps.reduce(0) { $0 + min($1.count, 1_001) }
            guard total <= 1_000 else { throw refuse("a sequence of more than 1,000 responses can't be sent") }
            var elements: [JSONValue] = []
            for step in sequence.steps {
                let element: JSONValue
                do {
                    element = try describe(step.response, inSequence: true)
                } catch {
                    throw Invalid(
                        reason: error.reason, steps: [.key("sequence"), .index(elements.count)] + error.steps)
                }
                elements += Array(repeating: element, count: step.count)
            }
            members["sequence"] = .array(elements)
            if sequence.afterLast.stops { members["afterLast"] = "stopMatching" }
        case .handler:
            throw refuse("a block is Swift code, which can't be sent; describe the response itself")
        case .failure:
            throw refuse("an error can't be sent; use .fault(_:) for a broken connection")
        case .forward:
            throw refuse("forward(to:) can't be sent")
        case .passThrough:
            members["passThrough"] = true
        case .unbuildable(let reason):
            throw refuse("the response can't be built (\(reason)), so it can't be sent either")
        case .webSocket(let script):
            if response.statusOverride != nil { throw refuse("a WebSocket endpoint answers 101; leave the status out") }
            members["webSocket"] = describe(script)
        case .stream(.computed, _):
            throw refuse("a computed stream is Swift code, which can't be sent; list its chunks instead")
        case .stream(.chunks(let chunks), let contentType):
            if let contentType, !headers.contains(.contentType) { headers.add(.contentType, contentType) }
            members["chunks"] = .array(chunks.map(Self.describe))
        }
        if let status = response.statusOverride { members["status"] = .int(status.code) }
        if !headers.isEmpty {
            var fields: [String: JSONValue] = [:]
            for field in headers {
                guard fields[field.name.rawValue] == nil else {
                    throw refuse("the header \(field.name) appears twice, which a stub can't hold")
                }
                fields[field.name.rawValue] = .string(field.value)
            }
            members["headers"] = .object(fields)
        }
        if response.extraDelay > .zero { members["delay"] = .double(response.extraDelay.seconds) }
        return .object(members)
    }
}

extension Duration {
    /// The duration in seconds, as a stub writes it.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
