import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// A real HTTP server no one here wrote: Python's `http.server`, with a handler that echoes
/// what it received as JSON. Started per test on a free loopback port.
final class PythonEchoServer: Sendable {
    let process: Process
    let port: Int

    /// The server's script, `Fixtures/echo_server.py`.
    static var script: URL {
        get throws {
            guard let url = Bundle.module.url(forResource: "echo_server", withExtension: "py", subdirectory: "Fixtures")
            else {
                throw ServerDidNotStart(output: "Fixtures/echo_server.py is missing from the test bundle")
            }
            return url
        }
    }

    init() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", try Self.script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try ProcessLaunch.run(process)
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw ServerDidNotStart(output: String(decoding: line, as: UTF8.self))
        }
        self.process = process
        self.port = port
    }

    var baseURL: String { "http://127.0.0.1:\(port)" }

    /// Stops the server. Does not wait: `waitUntilExit()` spins forever when called from a
    /// Swift concurrency thread on Linux (starving the pool), and `isRunning` is not updated
    /// there either. The script exits on SIGTERM, and also when its parent goes away.
    func stop() {
        process.terminate()
    }

    struct ServerDidNotStart: Error {
        let output: String
    }
}
