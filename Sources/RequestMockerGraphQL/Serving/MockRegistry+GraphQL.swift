import Foundation
import RequestMocker

extension MockRegistry {
    /// Serves `schema` at `endpoint` (`https://api.example.com/graphql` for one host, `/graphql`
    /// for any): every operation sent there is validated and answered from the schema, the
    /// `mocks` first where they have values.
    ///
    /// ```swift
    /// let schema = try GraphQLSchema(sdl: "type Query { hello: String }")
    /// try registry.register(schema, at: "https://api.example.com/graphql")
    /// ```
    ///
    /// Each answer says what made it: `RequestMocker-GraphQL: HeroName generated` (or `mocks`).
    /// Subscriptions are served by the loopback server, over WebSocket at the same path.
    ///
    /// - Parameters:
    ///   - schema: the schema.
    ///   - endpoint: where it answers: a URL with a host, or a path for any host.
    ///   - mocks: values the answers take where the mocks have them.
    ///   - limits: how much one request may ask for.
    ///   - placement: ``Placement/last`` (the default) or ``Placement/first``.
    /// - Returns: a handle that removes the schema again.
    /// - Throws: ``GraphQLEndpointError`` when `endpoint` is neither a URL with a host nor a path.
    @discardableResult
    public func register(
        _ schema: GraphQLSchema, at endpoint: String, mocks: GraphQLMocks = GraphQLMocks(),
        limits: GraphQLLimits = GraphQLLimits(), at placement: Placement = .last
    ) throws(GraphQLEndpointError) -> FilterHandle {
        let (host, path) = try GraphQLEndpointError.parts(of: endpoint)
        let file = URL(fileURLWithPath: schema.source.name ?? "schema.graphql")
        return insert(
            GraphQLEndpoint(schema: schema, mocks: mocks, file: file, host: host, path: path, limits: limits),
            at: placement.position)
    }

    /// Adds an endpoint made beforehand, which `serve` keeps to reload edited files into.
    @discardableResult
    package func register(_ endpoint: GraphQLEndpoint, at placement: Placement = .last) -> FilterHandle {
        insert(endpoint, at: placement.position)
    }
}

/// An endpoint a schema can't be served at.
public struct GraphQLEndpointError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The endpoint as given.
    public var endpoint: String

    /// What is wrong, and what to give instead.
    public var description: String {
        "\"\(endpoint)\" isn't a GraphQL endpoint; give a URL with a host (https://api.example.com/graphql) or a "
            + "path (/graphql)."
    }

    /// The host (if any) and path `endpoint` names.
    static func parts(of endpoint: String) throws(GraphQLEndpointError) -> (host: String?, path: String) {
        if endpoint.hasPrefix("/") { return (nil, endpoint) }
        guard endpoint.contains("://"), let components = URLComponents(string: endpoint),
            let host = components.host, !host.isEmpty
        else { throw GraphQLEndpointError(endpoint: endpoint) }
        return (host, components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath)
    }
}
