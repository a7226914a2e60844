import Foundation
import RequestMocker

/// What a finished process left behind.
package struct ProcessResult: Sendable {
    package let status: Int32
    package let output: String
    package let error: String
}

/// Runs clients no one here wrote (`curl`, `python3`) and collects what they print.
///
/// Output goes to files, not pipes, so a chatty process never blocks on a full pipe; the process
/// is a ``ChildProcess``, whose end is awaited on a thread of its own. A process still running
/// after `timeout` is stopped and the call throws ``TimedOut`` with what it had printed; a
/// cancelled test kills it.
package enum ExternalProcess {
    /// Called once the process of a ``run(_:_:input:in:timeout:)`` has been spawned (set by
    /// ``BackgroundClient``, so that its waits count from the client's start).
    @TaskLocal package static var onStart: (@Sendable () -> Void)?

    package static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, in directory: URL? = nil,
        timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        if let tool = [Tool.python3, .curl].first(where: { $0.name == executable }) { try await tool.require() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        var inputPath: String?
        if let input {
            let inURL = folder.appendingPathComponent("in")
            try input.write(to: inURL)
            inputPath = inURL.path
        }
        let child = try await ChildProcess(
            [executable] + arguments, input: inputPath, output: outURL.path, errors: errURL.path,
            directory: directory?.path)
        Self.onStart?()
        let timedOut = LockedState(false)
        let timer = Task {
            guard (try? await Task.sleep(for: timeout)) != nil else { return }
            timedOut.withLock { $0 = true }
            await child.stop()
        }
        let status = await child.exitStatus
        timer.cancel()
        let output = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let error = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        if timedOut.withLock({ $0 }) {
            throw TimedOut(
                seconds: Double(timeout.components.seconds),
                waitingFor: "\(executable) \(arguments.joined(separator: " ")) to end (it printed: \(output)\(error))")
        }
        return ProcessResult(status: status, output: output, error: error)
    }

    /// Runs a Python script given as text.
    package static func python(
        _ script: String, _ arguments: [String] = [], timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        try await run("python3", ["-c", script] + arguments, timeout: timeout)
    }

    /// Runs a Python script file: one of a test target's fixtures.
    package static func python(
        file: URL, _ arguments: [String] = [], timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        try await run("python3", [file.path] + arguments, timeout: timeout)
    }

    /// Runs curl, which gives up after `timeout` (`--max-time`); the process itself is stopped
    /// 10 s later if it hasn't ended.
    package static func curl(
        _ arguments: [String], input: Data? = nil, timeout: Duration = .seconds(60)
    ) async throws -> ProcessResult {
        let seconds = String(timeout.components.seconds)
        return try await run(
            "curl", ["--silent", "--show-error", "--max-time", seconds] + arguments, input: input,
            timeout: timeout + .seconds(10))
    }
}
