/// An error as a GraphQL response carries it: what is wrong, where in the request's document,
/// and, for an error met while answering, the path of the field it nulled
/// (`{"message": …, "locations": [{"line": …, "column": …}], "path": ["hero", "friends", 0]}`).
package struct GraphQLError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var locations: [GraphQLLocation]
    /// The response keys and list positions leading to the field, for a field's error.
    package var path: [GraphQLPathComponent]?
    /// What more a server says of the error (`{"code": …}`), an object.
    package var extensions: GraphQLJSON?

    package init(_ message: String, at locations: [GraphQLLocation] = [], path: [GraphQLPathComponent]? = nil) {
        self.message = message
        self.locations = locations
        self.path = path
    }

    package var description: String {
        (locations.first.map { "\($0): " } ?? "") + message
    }

    /// The error as a response's `errors` lists it.
    package var json: GraphQLJSON {
        var members: [(key: String, value: GraphQLJSON)] = [("message", .string(message))]
        if !locations.isEmpty {
            members.append(
                ("locations", .list(locations.map { .object([("line", .int($0.line)), ("column", .int($0.column))]) })))
        }
        if let path {
            members.append(("path", .list(path.map(\.json))))
        }
        if let extensions {
            members.append(("extensions", extensions))
        }
        return .object(members)
    }
}

/// One step of a response path: an object's key or a list's position.
package enum GraphQLPathComponent: Sendable, Hashable, CustomStringConvertible {
    case key(String)
    case index(Int)

    package var json: GraphQLJSON {
        switch self {
        case .key(let key): .string(key)
        case .index(let index): .int(index)
        }
    }

    package var description: String {
        switch self {
        case .key(let key): key
        case .index(let index): String(index)
        }
    }
}
