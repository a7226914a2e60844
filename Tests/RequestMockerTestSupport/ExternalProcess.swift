import Foundation

/// What a finished process left behind.
package struct ProcessResult: Sendable {
    package let status: Int32
    package let output: String
    package let error: String
}

/// Runs clients no one here wrote (`curl`, `python3`) and collects what they print.
///
/// Output goes to files, not pipes, so a chatty process never blocks on a full pipe; the end is
/// awaited through `terminationHandler`, because `waitUntilExit()` spins on Swift concurrency's
/// threads on Linux.
package enum ExternalProcess {
    package static func run(
        _ executable: String, _ arguments: [String], input: Data? = nil, timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-process-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outURL = folder.appendingPathComponent("out")
        let errURL = folder.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [executable] + arguments
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        if let input {
            let inURL = folder.appendingPathComponent("in")
            try input.write(to: inURL)
            process.standardInput = try FileHandle(forReadingFrom: inURL)
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            let resumed = ResumeOnce(continuation)
            process.terminationHandler = { resumed.resume(returning: $0.terminationStatus) }
            ProcessLaunch.start(process) { resumed.resume(throwing: $0) }
            Task {
                try? await Task.sleep(for: timeout)
                if process.isRunning { process.terminate() }
            }
        }
        let output = String(decoding: (try? Data(contentsOf: outURL)) ?? Data(), as: UTF8.self)
        let error = String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self)
        return ProcessResult(status: status, output: output, error: error)
    }

    /// Runs a Python script given as text.
    package static func python(
        _ script: String, _ arguments: [String] = [], timeout: Duration = .seconds(30)
    ) async throws -> ProcessResult {
        try await run("python3", ["-c", script] + arguments, timeout: timeout)
    }

    package static func curl(_ arguments: [String], input: Data? = nil) async throws -> ProcessResult {
        try await run("curl", ["--silent", "--show-error", "--max-time", "20"] + arguments, input: input)
    }
}

/// Resumes a continuation once, whichever of the process's end or its failure to start comes first.
private final class ResumeOnce: @unchecked Sendable {
    // @unchecked Sendable: `continuation` is only touched under `lock`.
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Int32, any Error>?

    init(_ continuation: CheckedContinuation<Int32, any Error>) {
        self.continuation = continuation
    }

    func resume(returning value: Int32) {
        lock.withLock { () -> CheckedContinuation<Int32, any Error>? in
            defer { continuation = nil }
            return continuation
        }?.resume(returning: value)
    }

    func resume(throwing error: any Error) {
        lock.withLock { () -> CheckedContinuation<Int32, any Error>? in
            defer { continuation = nil }
            return continuation
        }?.resume(throwing: error)
    }
}
