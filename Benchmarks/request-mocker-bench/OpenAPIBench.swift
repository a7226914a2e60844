import Foundation
import RequestMocker

// `--openapi-only`: reading OpenAI's contract (3.4 MB of JSON, 288 operations), in a process of
// its own so its peak resident memory is the reader's. Its budget (issue 31) is 0.3 s and 150 MB
// for the whole contract source; so far the reader parses the files, follows the `$ref`s to
// every operation's statuses and media types, and lists the operations.

/// The contracts folder beside the checkout (the project's test data), if it is there.
let sharedContracts = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/openapi")

/// Prints the best of five reads of OpenAI's `openapi.json`, this process's peak resident memory
/// after them, and JSONSerialization's parse of the same bytes for scale.
func printOpenAPIRows() throws {
    let file = sharedContracts.appendingPathComponent("openai/openapi.json")
    guard FileManager.default.fileExists(atPath: file.path) else {
        print("openapi: skipped (\(file.path) is not there)")
        return
    }
    let clock = ContinuousClock()
    var reads: [Duration] = []
    var operations = 0
    for _ in 0..<5 {
        let start = clock.now
        operations = try OpenAPIContract(contentsOf: file).operations.count
        reads.append(clock.now - start)
    }
    // Before JSONSerialization's parses, so the peak is the reader's.
    let peak = peakResidentMiB(of: getpid())
    var parses: [Duration] = []
    for _ in 0..<5 {
        let start = clock.now
        _ = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
        parses.append(clock.now - start)
    }
    let read = seconds(reads.min() ?? .zero)
    let parse = seconds(parses.min() ?? .zero)
    print(
        String(
            format: "read OpenAI's openapi.json (%d operations): %.0f ms, %.2f× JSONSerialization's %.0f ms; "
                + "peak resident %.0f MiB (best of 5)", operations, read * 1000, read / parse, parse * 1000,
            peak))
}
