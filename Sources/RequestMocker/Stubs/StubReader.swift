import Foundation

/// Reads a stub's JSON into a ``RequestFilter``, strictly: unknown keys, wrong types and
/// impossible values are ``Stub/Invalid`` errors naming the JSON path.
struct StubReader {
    /// Where `bodyFile` paths start, or `nil` when they are refused.
    let folder: URL?
    /// The contract `openapi` responses answer from, or `nil` when there is none.
    let contract: (any StubContract)?
    /// The schema a GraphQL stub's `json` answer is checked against and shaped by, or `nil`.
    let graphQL: (any StubGraphQLSchema)?
    /// The path variables of the stub being read, for checking its templates.
    private var variables: Set<String> = []
    /// Whether the stub being read names a GraphQL operation (`"graphql"` in its request).
    private var answersGraphQL = false

    init(folder: URL?, contract: (any StubContract)? = nil, graphQL: (any StubGraphQLSchema)? = nil) {
        self.folder = folder
        self.contract = contract
        self.graphQL = graphQL
    }

    typealias Step = JSONLocation.Step

    func invalid(_ steps: [Step], _ reason: String) -> Stub.Invalid {
        Stub.Invalid(reason: reason, steps: steps)
    }

    /// The members of an object that may hold only `allowed` keys.
    func object(
        _ value: JSONValue, at steps: [Step], allowed: [String]
    ) throws(Stub.Invalid)
        -> [String: JSONValue]
    {
        guard case .object(let members) = value else {
            throw invalid(steps, "expected an object with \(Self.list(allowed))")
        }
        if let unknown = members.keys.sorted().first(where: { !allowed.contains($0) }) {
            throw invalid(
                steps + [.key(unknown)], "unknown key \"\(unknown)\"; the keys here are \(Self.list(allowed))")
        }
        return members
    }

    func string(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> String {
        guard case .string(let text) = value else { throw invalid(steps, "expected a string") }
        return text
    }

    /// An object of strings, whose `null` values stand for "present" when `allowsNull`.
    private func fields(
        _ value: JSONValue, at steps: [Step], allowsNull: Bool
    ) throws(Stub.Invalid)
        -> [(name: String, value: String?)]
    {
        guard case .object(let members) = value else {
            throw invalid(steps, "expected an object of names and \(allowsNull ? "strings (or null)" : "strings")")
        }
        var result: [(name: String, value: String?)] = []
        for name in members.keys.sorted() {
            switch members[name] {
            case .string(let text)?: result.append((name, text))
            case .null? where allowsNull: result.append((name, nil))
            default: throw invalid(steps + [.key(name)], allowsNull ? "expected a string or null" : "expected a string")
            }
        }
        return result
    }

    static func list(_ keys: [String]) -> String {
        keys.map { "\"\($0)\"" }.joined(separator: ", ")
    }

    // MARK: Stub and request

    mutating func filter(_ json: JSONValue, location: String) throws(Stub.Invalid) -> RequestFilter {
        let members = try object(json, at: [], allowed: ["id", "request", "response", "scenario"])
        if let id = members["id"] { _ = try string(id, at: [.key("id")]) }
        guard let requestJSON = members["request"], let responseJSON = members["response"] else {
            throw invalid([], "a stub has a \"request\" and a \"response\" (\"request\": {} matches every request)")
        }
        var filter = try request(requestJSON, at: [.key("request")], location: location)
        filter.response = try response(responseJSON, at: [.key("response")], inSequence: false)
        if let value = members["scenario"] { filter.scenario = try scenario(value, at: [.key("scenario")]) }
        return filter
    }

    private mutating func request(
        _ json: JSONValue, at steps: [Step], location: String
    ) throws(Stub.Invalid)
        -> RequestFilter
    {
        let members = try object(
            json, at: steps,
            allowed: [
                "method", "host", "path", "query", "headers", "jsonBody", "formBody", "pathExtension", "graphql",
            ])
        var method: HTTPMethod?
        if let value = members["method"] {
            let name = try string(value, at: steps + [.key("method")])
            guard HTTPHeaders.Name.isValid(name) else {
                throw invalid(steps + [.key("method")], "\"\(name)\" is not a method, such as GET or POST")
            }
            method = HTTPMethod(rawValue: name.uppercased())
        }
        var host: String?
        if let value = members["host"] {
            let text = try string(value, at: steps + [.key("host")])
            guard !text.isEmpty, !text.contains("/") else {
                throw invalid(steps + [.key("host")], "expected a host such as api.test, *.api.test or localhost:3000")
            }
            host = text
        }
        var path: PathPattern?
        if let value = members["path"] {
            let text = try string(value, at: steps + [.key("path")])
            do {
                path = try PathPattern(validating: text)
            } catch {
                throw invalid(steps + [.key("path")], "\(error)")
            }
            variables = Set(path?.variableNames ?? [])
        }
        var filter = RequestFilter(host: host, path: path, method: method, location: location)
        if let value = members["query"] {
            let items = try fields(value, at: steps + [.key("query")], allowsNull: true)
            let requirements = items.map { Condition.QueryRequirement(name: $0.name, value: $0.value) }
            filter = filter.adding(.query(requirements, exact: false))
        }
        if let value = members["headers"] {
            for field in try fields(value, at: steps + [.key("headers")], allowsNull: true) {
                guard HTTPHeaders.Name.isValid(field.name) else {
                    throw invalid(
                        steps + [.key("headers"), .key(field.name)], "\"\(field.name)\" is not a header name")
                }
                filter = filter.header(HTTPHeaders.Name(field.name), field.value)
            }
        }
        if let value = members["jsonBody"] { filter = filter.jsonBody(value) }
        if let value = members["formBody"] {
            let fields = try fields(value, at: steps + [.key("formBody")], allowsNull: true)
            filter = filter.adding(.formBody(fields.map { Condition.QueryRequirement(name: $0.name, value: $0.value) }))
        }
        if let value = members["pathExtension"] {
            let text = try string(value, at: steps + [.key("pathExtension")])
            // By code point, as the schema's pattern reads it (a `Character` may hide a "/").
            let scalars = text.unicodeScalars
            let name = scalars.first == "." ? scalars.dropFirst() : scalars[...]
            guard !name.isEmpty, !name.contains(where: { $0 == "/" || $0 == "." }) else {
                throw invalid(steps + [.key("pathExtension")], "expected an extension such as json or png")
            }
            filter = filter.pathExtension(text)
        }
        if let value = members["graphql"] {
            answersGraphQL = true
            let place = steps + [.key("graphql")]
            let graphQL = try object(value, at: place, allowed: ["operationName", "variables"])
            let name = try graphQL["operationName"].map { (value) throws(Stub.Invalid) in
                try string(value, at: place + [.key("operationName")])
            }
            var variables: [String: JSONValue] = [:]
            if let given = graphQL["variables"] {
                guard case .object(let members) = given else {
                    throw invalid(place + [.key("variables")], "expected an object of variables by name")
                }
                variables = members
            }
            filter = filter.graphQL(operationName: name, variables: variables)
        }
        return filter
    }

    // MARK: Response

    private static let bodyKeys = [
        "json", "body", "base64Body", "bodyFile", "fault", "sequence", "chunks", "events", "webSocket", "passThrough",
        "openapi",
    ]

    private mutating func response(
        _ json: JSONValue, at steps: [Step], inSequence: Bool
    ) throws(Stub.Invalid)
        -> MockResponse
    {
        let members = try object(
            json, at: steps,
            allowed: ["status", "headers", "delay", "template", "afterLast", "interval"] + Self.bodyKeys)
        let bodies = Self.bodyKeys.filter { members[$0] != nil }
        guard bodies.count <= 1 else {
            throw invalid(steps + [.key(bodies[1])], "a response has at most one of \(Self.list(Self.bodyKeys))")
        }
        var templated = false
        if let value = members["template"] {
            guard case .bool(let flag) = value else {
                throw invalid(steps + [.key("template")], "expected true or false")
            }
            templated = flag
        }
        var response: MockResponse
        switch bodies.first {
        case "fault":
            if let extra = ["status", "headers", "template"].first(where: { members[$0] != nil }) {
                throw invalid(steps + [.key(extra)], "a fault sends no response, so it has no \"\(extra)\"")
            }
            response = .fault(try fault(members["fault"] ?? .null, at: steps + [.key("fault")]))
        case "passThrough":
            if let extra = ["status", "headers", "template"].first(where: { members[$0] != nil }) {
                throw invalid(
                    steps + [.key(extra)], "a pass-through sends the real server's answer, so it has no \"\(extra)\"")
            }
            guard members["passThrough"] == .bool(true) else {
                throw invalid(steps + [.key("passThrough")], "expected true (leave it out for a mocked response)")
            }
            response = .passThrough
        case "openapi":
            if let extra = ["status", "headers", "template"].first(where: { members[$0] != nil }) {
                throw invalid(
                    steps + [.key(extra)], "the contract declares the response, so it has no \"\(extra)\" here")
            }
            response = try openAPI(members["openapi"] ?? .null, at: steps + [.key("openapi")])
        case "sequence":
            guard !inSequence else {
                throw invalid(steps + [.key("sequence")], "a sequence's responses can't be sequences")
            }
            if let extra = ["status", "headers", "template"].first(where: { members[$0] != nil }) {
                throw invalid(steps + [.key(extra)], "\"\(extra)\" goes on each response of the sequence")
            }
            response = try sequence(members, at: steps)
        case "json"
        where answersGraphQL && graphQL != nil && !templated && members["status"] == nil
            && members["headers"] == nil:
            response = try graphQLAnswer(members["json"] ?? .null, at: steps + [.key("json")])
        default:
            response = try plain(members, body: bodies.first, templated: templated, at: steps)
        }
        if members["afterLast"] != nil, bodies.first != "sequence" {
            throw invalid(steps + [.key("afterLast")], "\"afterLast\" belongs to a \"sequence\"")
        }
        if members["status"] != nil, bodies.first == "webSocket" {
            throw invalid(steps + [.key("status")], "a WebSocket endpoint answers 101 Switching Protocols")
        }
        if members["interval"] != nil, bodies.first != "events" {
            throw invalid(steps + [.key("interval")], "\"interval\" belongs to \"events\"")
        }
        if let value = members["delay"] {
            response = response.delayed(by: try duration(value, at: steps + [.key("delay")]))
        }
        return response
    }

    /// `{"operation": "getPet", "status": 404, "example": "notFound"}`: what the contract
    /// declares for the operation, checked against it now.
    private func openAPI(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> MockResponse {
        let members = try object(value, at: steps, allowed: ["operation", "status", "example"])
        guard let operation = members["operation"] else {
            throw invalid(steps, "name the operation: {\"operation\": \"getPet\"} (its operationId, or GET /path)")
        }
        let name = try string(operation, at: steps + [.key("operation")])
        var status: Int?
        if let value = members["status"] {
            guard let code = value.intValue, (100...599).contains(code) else {
                throw invalid(steps + [.key("status")], "expected a status code from 100 to 599")
            }
            status = code
        }
        let example = try members["example"].map { value throws(Stub.Invalid) in
            try string(value, at: steps + [.key("example")])
        }
        guard let contract else {
            throw invalid(steps, "an \"openapi\" response needs a contract: serve one with --openapi FILE")
        }
        let response = contract.declaredResponse(operation: name, status: status, example: example)
        if case .unbuildable(let reason) = response.content { throw invalid(steps, reason) }
        return response
    }

    /// A number of seconds from 0 to an hour (a delay, a pause, an interval).
    func duration(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> Duration {
        guard let seconds = value.doubleValue, seconds >= 0, seconds <= 3600 else {
            throw invalid(steps, "expected a number of seconds from 0 to 3600")
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private func fault(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> ConnectionFault {
        let faults: [String: ConnectionFault] = [
            "reset": .reset, "closeBeforeResponding": .closeBeforeResponding,
            "malformedStatusLine": .malformedStatusLine, "stall": .stall,
        ]
        guard let name = value.stringValue, let fault = faults[name] else {
            throw invalid(steps, "expected one of \(Self.list(faults.keys.sorted()))")
        }
        return fault
    }

    private mutating func sequence(
        _ members: [String: JSONValue], at steps: [Step]
    ) throws(Stub.Invalid)
        -> MockResponse
    {
        guard case .array(let elements)? = members["sequence"], !elements.isEmpty else {
            throw invalid(steps + [.key("sequence")], "expected a list of one or more responses")
        }
        var responses: [MockResponse] = []
        for (index, element) in elements.enumerated() {
            responses.append(try response(element, at: steps + [.key("sequence"), .index(index)], inSequence: true))
        }
        var end = MockResponse.SequenceEnd.repeatLast
        if let value = members["afterLast"] {
            switch value.stringValue {
            case "repeatLast": end = .repeatLast
            case "stopMatching": end = .stopMatching
            default: throw invalid(steps + [.key("afterLast")], "expected \"repeatLast\" or \"stopMatching\"")
            }
        }
        return .sequence(responses, afterLast: end)
    }

    /// A response with a status, headers and at most one body.
    private func plain(
        _ members: [String: JSONValue], body: String?, templated: Bool, at steps: [Step]
    )
        throws(Stub.Invalid) -> MockResponse
    {
        var status = HTTPStatus.ok
        if let value = members["status"] {
            // Not 1xx: an interim response followed by a body would garble the connection.
            guard let code = value.intValue, (200...999).contains(code) else {
                throw invalid(steps + [.key("status")], "expected a status code from 200 to 999")
            }
            status = HTTPStatus(code)
        }
        var headers: [(name: String, value: String)] = []
        if let value = members["headers"] {
            for field in try fields(value, at: steps + [.key("headers")], allowsNull: false) {
                let fieldSteps = steps + [.key("headers"), .key(field.name)]
                guard HTTPHeaders.Name.isValid(field.name) else {
                    throw invalid(fieldSteps, "\"\(field.name)\" is not a header name")
                }
                guard let text = field.value, HTTPHeaders.isValidValue(text) else {
                    throw invalid(fieldSteps, "a header value can't hold a line break or NUL")
                }
                headers.append((field.name, text))
            }
        }
        let bodyValue = body.flatMap { members[$0] } ?? .null
        let bodySteps = steps + (body.map { [.key($0)] } ?? [])
        if templated {
            guard body == nil || body == "json" || body == "body" else {
                throw invalid(steps + [.key("template")], "templates fill \"json\" and \"body\" text and header values")
            }
            let template = try StubTemplate(
                status: status, headers: headers, body: body, bodyValue: bodyValue, variables: variables,
                invalid: { invalid(bodySteps + $0, $1) })
            return .inline { request, captures in template.render(request, captures) }
        }
        var fixed = HTTPHeaders()
        for field in headers { fixed.add(HTTPHeaders.Name(field.name), field.value) }
        switch body {
        case "json":
            return .json(bodyValue, status: status, headers: fixed)
        case "body":
            return .string(try string(bodyValue, at: bodySteps), status: status, headers: fixed)
        case "base64Body":
            guard let data = Data(base64Encoded: try string(bodyValue, at: bodySteps)) else {
                throw invalid(bodySteps, "not valid base64")
            }
            return .data(data, status: status, headers: fixed)
        case "bodyFile":
            let path = try string(bodyValue, at: bodySteps)
            guard let folder else {
                throw invalid(bodySteps, "\"bodyFile\" is for stubs files; send the body as \"body\" or \"base64Body\"")
            }
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            guard FileManager.default.isReadableFile(atPath: url.path) else {
                throw invalid(bodySteps, "no readable file at \(url.path)")
            }
            return .file(url, status: status, headers: fixed)
        case "chunks":
            return .stream(
                try chunks(bodyValue, at: bodySteps), contentType: "application/octet-stream", status: status,
                headers: fixed)
        case "webSocket":
            return .webSocket(try webSocketScript(bodyValue, at: bodySteps), headers: fixed)
        case "events":
            let interval = try members["interval"].map { value throws(Stub.Invalid) in
                try duration(value, at: steps + [.key("interval")])
            }
            return .events(
                try events(bodyValue, at: bodySteps), interval: interval ?? .zero, status: status, headers: fixed)
        default:
            return .status(status, headers: fixed)
        }
    }
}
