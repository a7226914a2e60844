import Foundation
import RequestMocker

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

    /// Starts the process and waits until its output matches `ready` (a regular expression):
    /// at most `seconds`, and no longer than the process lives.
    package init(
        _ executable: URL, _ arguments: [String], in directory: URL? = nil, ready: String, seconds: Double = 60
    ) async throws {
        output = FileManager.default.temporaryDirectory.appendingPathComponent("rm-background-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let child = try await ChildProcess(
            [executable.path] + arguments, output: output.path, errors: output.path, directory: directory?.path)
        self.child = child
        let output = output
        let found = LockedState<String?>(nil)
        do {
            try await waitUntil(seconds, waitingFor: "\(executable.lastPathComponent) to print \(ready)") {
                let text = Self.text(of: output)
                if let range = text.range(of: ready, options: .regularExpression) {
                    found.withLock { $0 = String(text[range]) }
                    return true
                }
                return child.hasEnded
            }
        } catch {
            await child.stop()
            let printed = Self.text(of: output)
            try? FileManager.default.removeItem(at: output)
            throw ProcessDidNotStart(description: "\(error); it printed: \(printed)")
        }
        guard let announced = found.withLock({ $0 }) else {
            let printed = Self.text(of: output)
            try? FileManager.default.removeItem(at: output)
            throw ProcessDidNotStart(
                description: "\(executable.lastPathComponent) ended (\(await child.exitStatus)) before it printed "
                    + "\(ready): \(printed)")
        }
        self.announced = announced
    }

    /// Starts a Python script with `python3` (the test is skipped when it is missing, see
    /// ``Tool``) and waits until its output matches `ready`.
    package static func python(_ arguments: [String], ready: String) async throws -> BackgroundProcess {
        try await Tool.python3.require()
        return try await BackgroundProcess(URL(fileURLWithPath: "/usr/bin/env"), ["python3"] + arguments, ready: ready)
    }

    /// Everything printed so far.
    package var log: String { Self.text(of: output) }

    /// What the file at `url` holds so far, as text.
    private static func text(of url: URL) -> String {
        String(decoding: (try? Data(contentsOf: url)) ?? Data(), as: UTF8.self)
    }

    /// Sends Ctrl-C and waits for the exit status.
    package func interrupt() async -> Int32 {
        child.send(SIGINT)
        return await child.exitStatus
    }

    /// Kills the process with SIGKILL, which it can't catch (as a crash or `kill -9` would end
    /// it), and waits for its end.
    package func kill() async -> Int32 {
        child.send(SIGKILL)
        return await child.exitStatus
    }

    /// Sends SIGTERM and waits until the process has ended (killing it if it hasn't after 5 s).
    package func stop() async {
        await child.stop()
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
