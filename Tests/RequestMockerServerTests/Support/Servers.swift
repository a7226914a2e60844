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
    let outcome: Result<T, any Error>
    do { outcome = .success(try await body(server, base)) } catch { outcome = .failure(error) }
    // `stop()` waits for the connection threads to end: not on a thread of the pool.
    await offThePool { server.stop() }
    return try outcome.get()
}

/// A session that goes to the network (the loopback server), without caches or cookies. The
/// default timeout only bounds a hang: answers that come at once may still take seconds on a
/// busy machine.
func plainSession(timeout: TimeInterval = 60) -> URLSession {
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

/// Runs `work` (a server's `stop()`) on a thread of its own and waits, at most `seconds`, for it
/// to return: a `stop()` that waits out a pause fails the test at the deadline instead of
/// holding it, and the blocking call never holds one of Swift concurrency's threads.
func returns(
    within seconds: Double = 60, _ what: String, _ work: @escaping @Sendable () -> Void
) async throws {
    try await withDeadline(seconds, waitingFor: what) { await offThePool(work) }
}

extension Task where Failure == any Error {
    /// The task's value, cancelling the task when the waiting test is cancelled (an unstructured
    /// task's `value` alone goes on waiting): a client process in it is then killed.
    var valueOrCancel: Success {
        get async throws {
            try await withTaskCancellationHandler {
                try await value
            } onCancel: {
                cancel()
            }
        }
    }
}
