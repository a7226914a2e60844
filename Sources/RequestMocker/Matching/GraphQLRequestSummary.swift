import Foundation

/// What a GraphQL request names, read without its schema: the operation's name (the
/// `operationName` member, else the name of the query's first operation) and its variables.
/// A `POST` carries them in its JSON body, a `GET` in its query string.
struct GraphQLRequestSummary {
    var operationName: String?
    var variables: [String: JSONValue]

    /// The summary of `request`, or `nil` when it isn't a GraphQL request.
    init?(_ request: MockRequest) {
        var query: String?
        var name: String?
        var given: JSONValue?
        if request.method == .get {
            var members: [String: String] = [:]
            for field in FormFields.pairs(request.url.query(percentEncoded: true) ?? "")
            where members[field.name] == nil {
                members[field.name] = field.value ?? ""
            }
            query = members["query"]
            name = members["operationName"]
            given = members["variables"].flatMap { try? JSONValue(parsing: Data($0.utf8)) }
        } else {
            guard let body = request.body, let json = try? JSONValue(parsing: body), case .object = json else {
                return nil
            }
            query = json["query"]?.stringValue
            name = json["operationName"]?.stringValue
            given = json["variables"]
        }
        guard query != nil || name != nil else { return nil }
        operationName = name.flatMap { $0.isEmpty ? nil : $0 } ?? query.flatMap(Self.firstOperationName)
        if case .object(let members)? = given { variables = members } else { variables = [:] }
    }

    /// The name of the first operation `query` defines (`query HeroName …`), skipping comments
    /// and strings; `nil` for an anonymous one.
    static func firstOperationName(_ query: String) -> String? {
        var words: [Substring] = []
        var rest = Substring(query)
        while let first = rest.first, words.count < 2 {
            if first == "#" {
                rest = rest.drop { $0 != "\n" }
            } else if first == "\"" {
                return nil
            } else if first == "_" || first.isLetter {
                let word = rest.prefix { $0 == "_" || $0.isLetter || $0.isNumber }
                words.append(word)
                rest = rest.dropFirst(word.count)
                continue
            } else if first == "{" {
                return nil
            } else if !first.isWhitespace && first != "," {
                break
            }
            rest = rest.dropFirst()
        }
        guard words.count == 2, ["query", "mutation", "subscription"].contains(words[0]) else { return nil }
        return String(words[1])
    }
}
