import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// The `request-mocker` executable, built beside this test bundle.
enum Command {
    static var executable: URL {
        Bundle.module.bundleURL.deletingLastPathComponent().appendingPathComponent("request-mocker")
    }

    /// The package root (where `Examples/MockData` is).
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // RequestMockerCommandTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static func run(_ arguments: [String], in directory: URL? = nil) async throws -> ProcessResult {
        try await ExternalProcess.run(executable.path, arguments, in: directory)
    }
}

/// `request-mocker serve … --port 0`, run from the package root.
func serving(_ arguments: [String]) async throws -> (BackgroundProcess, URL) {
    let process = try await BackgroundProcess(
        Command.executable, ["serve"] + arguments + ["--port", "0"], in: Command.packageRoot,
        // The address served at (an upstream's may come first on the line).
        ready: #" at http://127\.0\.0\.1:\d+(?=[ ,])"#
    )
    return (process, try #require(URL(string: String(process.announced.dropFirst(" at ".count)))))
}
