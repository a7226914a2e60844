import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// A real HTTP server no one here wrote: Python's `http.server`, with a handler that echoes
/// what it received as JSON. Started per test on a free loopback port.
final class PythonEchoServer: Sendable {
    let child: ChildProcess
    let port: Int

    /// A server script in `Fixtures`: `echo_server.py` unless another is named.
    static func script(_ name: String) throws -> URL {
        guard let url = Bundle.module.url(forResource: name, withExtension: "py", subdirectory: "Fixtures") else {
            throw ServerDidNotStart(output: "Fixtures/\(name).py is missing from the test bundle")
        }
        return url
    }

    /// Starts `script` and waits for the port it prints on its first line (a few hundred
    /// milliseconds on an idle machine; at most a minute, and no longer than the script lives).
    /// The wait sleeps the task, not the thread: suites are made on Swift concurrency's pool,
    /// which has two threads on a two-core machine, and a blocked one held up every other test in
    /// the run's first seconds.
    init(script: String = "echo_server") async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rm-echo-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        try await Tool.python3.require()
        let child = try await ChildProcess(["python3", try Self.script(script).path], output: output.path)
        let firstLine: @Sendable () -> String = {
            String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
        }
        do {
            try await waitUntil(waitingFor: "\(script).py to print its port") {
                firstLine().contains("\n") || child.hasEnded
            }
        } catch {
            await child.stop()
            throw error
        }
        guard let port = Int(firstLine().trimmingCharacters(in: .whitespacesAndNewlines)) else {
            await child.stop()
            throw ServerDidNotStart(output: firstLine())
        }
        self.child = child
        self.port = port
    }

    private static let sharedServers = LockedState<[String: Task<PythonEchoServer, any Error>]>([:])

    /// One server of `script` for the whole run, for suites whose every case compares against
    /// it (each case gets a suite instance of its own): they share it rather than each starting
    /// Python while the run's first seconds are busiest. The script exits with this process.
    /// A start that failed is forgotten, so the next suite tries again rather than inherit the
    /// failure for the rest of the run.
    static func shared(script: String) async throws -> PythonEchoServer {
        let starting = sharedServers.withLock { servers in
            if let server = servers[script] { return server }
            let server = Task { try await PythonEchoServer(script: script) }
            servers[script] = server
            return server
        }
        do {
            return try await starting.value
        } catch {
            sharedServers.withLock { servers in
                if servers[script] == starting { servers[script] = nil }
            }
            throw error
        }
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// A GET of `path` on this server.
    func get(_ path: String) -> URLRequest {
        URLRequest(url: url(baseURL + path))
    }

    /// Stops the server, without waiting: the script exits on SIGTERM, and also when its parent
    /// goes away. Dropping the last reference to the server stops it too, so a test that throws
    /// before its `stop()` leaves nothing running.
    func stop() {
        child.send(SIGTERM)
    }

    deinit {
        child.send(SIGTERM)
    }

    struct ServerDidNotStart: Error {
        let output: String
    }
}

/// A request value for tests that match without loading: `method` on `string` (a path alone
/// gets the test host, see `url(_:)`), with optional header fields and a UTF-8 body.
func mockRequest(
    _ method: HTTPMethod, _ string: String, headers: HTTPHeaders = [:], body: String? = nil
) -> MockRequest {
    MockRequest(method: method, url: url(string), headers: headers, body: body.map { Data($0.utf8) })
}

/// Makes a completion-handler task with `make` (which passes what its handler got to the
/// function it is given), resumes it, and waits for the handler: at most `seconds`. Past that,
/// or when the test is cancelled, the task is cancelled and the wait throws, so a handler that
/// is never called can't hang the test.
func completion<Value: Sendable>(
    within seconds: Double = 120, waitingFor: String,
    of make: @escaping @Sendable (_ handler: @escaping @Sendable (Value) -> Void) -> URLSessionTask
) async throws -> Value {
    let started = LockedState<URLSessionTask?>(nil)
    do {
        return try await withDeadline(seconds, waitingFor: waitingFor) {
            await withCheckedContinuation { continuation in
                let task = make { continuation.resume(returning: $0) }
                started.withLock { $0 = task }
                task.resume()
            }
        }
    } catch {
        started.withLock { $0 }?.cancel()
        throw error
    }
}
