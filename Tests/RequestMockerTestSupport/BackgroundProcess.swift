import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A process left running while a test talks to it: `request-mocker serve`, or a Python server.
package final class BackgroundProcess: Sendable {
    private let child: ChildProcess
    private let output: URL
    /// The first match of the ready pattern in what the process printed.
    package let announced: String

    /// Starts the process and waits until its output matches `ready` (a regular expression).
    package init(_ executable: URL, _ arguments: [String], in directory: URL? = nil, ready: String) async throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("rm-background-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let child = try ChildProcess(
            [executable.path] + arguments, output: output.path, errors: output.path, directory: directory?.path)
        self.child = child
        var found: String?
        for _ in 0..<500 where found == nil {
            let text = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            if let range = text.range(of: ready, options: .regularExpression) {
                found = String(text[range])
            } else {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        guard let found else {
            child.send(SIGTERM)
            let printed = String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
            throw ProcessDidNotStart(description: "\(executable.lastPathComponent) never printed \(ready): \(printed)")
        }
        announced = found
    }

    /// Everything printed so far.
    package var log: String {
        String(decoding: (try? Data(contentsOf: output)) ?? Data(), as: UTF8.self)
    }

    /// Sends Ctrl-C and waits for the exit status.
    package func interrupt() async -> Int32 {
        child.send(SIGINT)
        return await child.exitStatus
    }

    /// Sends SIGTERM and waits until the process has ended.
    package func stop() async {
        child.send(SIGTERM)
        _ = await child.exitStatus
    }

    deinit {
        child.send(SIGTERM)
        try? FileManager.default.removeItem(at: output)
    }
}

/// A background process that ended or timed out before it printed what it was waited for.
package struct ProcessDidNotStart: Error, CustomStringConvertible {
    package let description: String
}
