import RequestMocker

/// Apollo's automatic persisted queries (`extensions.persistedQuery {version: 1, sha256Hash}`):
/// a hash the store doesn't know is answered `PersistedQueryNotFound`; sent again with its
/// query, the query is kept under its hash, and from then on the hash alone stands for it.
struct GraphQLPersistedQueries: Sendable {
    /// The most queries kept; past it the oldest is forgotten (its client sends it again).
    static let capacity = 4096
    private var queries: [String: String] = [:]
    private var order: [String] = []

    enum Resolution {
        case query(String)
        /// A request error, with the status it is answered with whatever the media type: 200
        /// for an unknown hash sent alone (Apollo's clients send the query after it only then),
        /// 400 for a request without a query.
        case refused(GraphQLError, status: Int?)
    }

    /// The query a request stands for: its own text, or the text its persisted hash stands for.
    mutating func resolve(_ query: String?, extensions: GraphQLJSON?) -> Resolution {
        guard let persisted = extensions?["persistedQuery"], persisted != .null else {
            guard let query, !query.isEmpty else {
                return .refused(
                    GraphQLError("The request has no query; send its GraphQL text in `query`."), status: 400)
            }
            return .query(query)
        }
        guard persisted["version"] == .int(1) else {
            return .refused(
                GraphQLError(
                    "Unsupported persisted query version; send `\"version\": 1`.", code: "PERSISTED_QUERY_NOT_SUPPORTED"
                ),
                status: nil)
        }
        guard case .string(let given)? = persisted["sha256Hash"], !given.isEmpty else {
            return .refused(
                GraphQLError("A persisted query needs its `sha256Hash`, the hex SHA-256 of its text."), status: nil)
        }
        let hash = given.lowercased()
        guard let query else {
            guard let known = queries[hash] else {
                return .refused(GraphQLError("PersistedQueryNotFound", code: "PERSISTED_QUERY_NOT_FOUND"), status: 200)
            }
            return .query(known)
        }
        guard SHA256.hex(query.utf8) == hash else {
            return .refused(
                GraphQLError(
                    "The persisted query's sha256Hash isn't the SHA-256 of its query; send the hash of the text sent.",
                    code: "INVALID_PERSISTED_QUERY_HASH"),
                status: nil)
        }
        if queries.updateValue(query, forKey: hash) == nil {
            order.append(hash)
            if order.count > Self.capacity { queries[order.removeFirst()] = nil }
        }
        return .query(query)
    }
}

extension GraphQLError {
    /// An error with `extensions.code`, as Apollo's clients read it.
    init(_ message: String, code: String) {
        self.init(message)
        extensions = .object([("code", .string(code))])
    }
}
