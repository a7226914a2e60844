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

    init(script: String = "echo_server") throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rm-echo-\(UUID().uuidString).out")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        let child = try ChildProcess(["python3", try Self.script(script).path], output: output.path)
        // The script prints its port on its first line; a synchronous wait, as an initializer of a
        // suite has no other (a few hundred milliseconds at most).
        var line = ""
        for _ in 0..<1_000 where !line.contains("\n") {
            line = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            if !line.contains("\n") { Thread.sleep(forTimeInterval: 0.01) }
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            child.send(SIGTERM)
            throw ServerDidNotStart(output: line)
        }
        self.child = child
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops the server, without waiting: the script exits on SIGTERM, and also when its parent
    /// goes away.
    func stop() {
        child.send(SIGTERM)
    }

    struct ServerDidNotStart: Error {
        let output: String
    }
}
