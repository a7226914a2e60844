import Foundation
import RequestMocker

/// A GraphQL request as the GraphQL-over-HTTP draft carries it: `POST` with a JSON body, or
/// `GET` with the same members in the query string (`variables` and `extensions` as JSON text).
struct GraphQLHTTPRequest {
    var query: String?
    var operationName: String?
    var variables: GraphQLJSON?
    var extensions: GraphQLJSON?
    var method: HTTPMethod

    /// Why an HTTP request isn't a GraphQL request at all: its status, a message for the error,
    /// and the methods to send instead for a `405`.
    struct Refusal: Error {
        var status: Int
        var message: String
        var allow: String?
    }

    /// The GraphQL request `request` carries.
    init(_ request: MockRequest) throws(Refusal) {
        method = request.method
        switch request.method {
        case .get:
            // Form-encoded, as the draft says: `+` is a space (curl's --data-urlencode writes it).
            let text = request.url.query(percentEncoded: true) ?? ""
            guard text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding != nil else {
                throw Refusal(status: 400, message: "The query string isn't percent-encoded UTF-8.")
            }
            var members: [String: String] = [:]
            for field in FormFields.pairs(text) where members[field.name] == nil {
                members[field.name] = field.value ?? ""
            }
            query = members["query"]
            operationName = members["operationName"].flatMap { $0.isEmpty ? nil : $0 }
            variables = try Self.json(members["variables"], "variables")
            extensions = try Self.json(members["extensions"], "extensions")
        case .post:
            let contentType = request.header(.contentType).map(MediaType.init)
            guard let contentType, contentType.essence == "application/json" else {
                throw Refusal(
                    status: 415,
                    message: "A GraphQL POST has a JSON body; send it with `Content-Type: application/json`"
                        + (contentType.map { " (not \($0.essence))" } ?? "") + ".")
            }
            let body = GraphQLJSON.parse(request.body ?? Data())
            guard let body, case .object = body else {
                throw Refusal(
                    status: 400,
                    message: "The body isn't a JSON object (nested at most \(GraphQLJSON.maximumRequestDepth) deep); "
                        + "send {\"query\": \"…\", \"variables\": {…}}.")
            }
            switch body["query"] {
            case .string(let text)?: query = text
            case nil, .null?: query = nil
            default: throw Refusal(status: 400, message: "`query` is a string: the operation's GraphQL text.")
            }
            switch body["operationName"] {
            case .string(let name)?: operationName = name
            case nil, .null?: operationName = nil
            default: throw Refusal(status: 400, message: "`operationName` is a string, or null.")
            }
            variables = try Self.object(body["variables"], "variables")
            extensions = try Self.object(body["extensions"], "extensions")
        default:
            throw Refusal(
                status: 405,
                message: "GraphQL is asked with GET or POST, not \(request.method.rawValue).", allow: "GET, POST")
        }
    }

    private static func json(_ text: String?, _ name: String) throws(Refusal) -> GraphQLJSON? {
        guard let text, !text.isEmpty else { return nil }
        guard let value = GraphQLJSON.parse(Data(text.utf8)) else {
            throw Refusal(
                status: 400,
                message: "`\(name)` isn't JSON (nested at most \(GraphQLJSON.maximumRequestDepth) deep); send it as "
                    + "a JSON object, URL-encoded.")
        }
        return try object(value, name)
    }

    private static func object(_ value: GraphQLJSON?, _ name: String) throws(Refusal) -> GraphQLJSON? {
        switch value {
        case nil, .null?: return nil
        case .object?: return value
        default: throw Refusal(status: 400, message: "`\(name)` is a JSON object, or null.")
        }
    }

    /// The media type to answer in: `application/graphql-response+json` when the request
    /// accepts it before `application/json`, else `application/json` (as without `Accept`,
    /// for `*/*`, and for `multipart/mixed;deferSpec=20220824`, which is answered as one result).
    static func mediaType(accept: String?) -> String {
        let offered = ["application/graphql-response+json", "application/json"]
        guard let accept, accept != "*/*",
            let chosen = MediaNegotiation.choose(accept: accept, offered: offered)
        else { return offered[1] }
        return offered[chosen]
    }
}

extension GraphQLJSON {
    /// How deep a request's JSON (its body, variables, extensions, a WebSocket message) may
    /// nest: GraphQL's inputs need a few levels, and what reads them recurses.
    static let maximumRequestDepth = 64

    /// The JSON value `data` holds, or `nil` when it isn't JSON or nests deeper than
    /// `maximumRequestDepth`.
    static func parse(_ data: Data) -> GraphQLJSON? {
        guard let node = try? DocumentNode.parseJSON([UInt8](data)), depth(of: node) <= maximumRequestDepth else {
            return nil
        }
        return GraphQLJSON(node)
    }

    /// How deep `node` nests (a scalar is 1), measured with a stack of its own, not recursion.
    static func depth(of node: DocumentNode) -> Int {
        var deepest = 0
        var pending: [(node: DocumentNode, depth: Int)] = [(node, 1)]
        while let (current, depth) = pending.popLast() {
            deepest = max(deepest, depth)
            switch current.value {
            case .array(let elements): pending += elements.map { ($0, depth + 1) }
            case .object(let object): pending += object.members.map { ($0.value, depth + 1) }
            default: break
            }
        }
        return deepest
    }
}
