import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport

/// Starts a server on a free loopback port for one test, and stops it afterwards.
func withServer<T>(
    _ registry: MockRegistry,
    configuration: MockServer.Configuration = MockServer.Configuration(),
    _ body: (MockServer, URL) async throws -> T
) async throws -> T {
    let server = MockServer(registry: registry, configuration: configuration)
    let base = try server.start()
    defer { server.stop() }
    return try await body(server, base)
}

/// A session that goes to the network (the loopback server), without caches or cookies.
func plainSession(timeout: TimeInterval = 20) -> URLSession {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.urlCache = nil
    return URLSession(configuration: configuration)
}

extension MockServerError: Equatable {
    public static func == (lhs: MockServerError, rhs: MockServerError) -> Bool {
        lhs.description == rhs.description
    }
}
