/// An error as a GraphQL response carries it: what is wrong, and where in the request's
/// document (`{"message": …, "locations": [{"line": …, "column": …}]}`).
package struct GraphQLError: Error, Sendable, Equatable, CustomStringConvertible {
    package var message: String
    package var locations: [GraphQLLocation]

    package init(_ message: String, at locations: [GraphQLLocation] = []) {
        self.message = message
        self.locations = locations
    }

    package var description: String {
        (locations.first.map { "\($0): " } ?? "") + message
    }
}
