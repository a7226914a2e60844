import Foundation
import RequestMocker

// `--yaml-only` (also run, in a process of its own, at the end of the full table): reading
// OpenAI's `openapi.yaml` (2.97 MB), whose peak resident memory is then this process's, and a
// 30 MB file of repeated paths against a 3 MB one.

/// Prints the best of five reads of OpenAI's `openapi.yaml` with the peak resident memory after
/// them (budgets, issue 32: 0.5 s, and 20× the file), then the time of a 30 MB file against a
/// 3 MB one of the same paths (budget ≤ 12×).
func printYAMLRows() throws {
    let file = sharedContracts.appendingPathComponent("openai/openapi.yaml")
    guard FileManager.default.fileExists(atPath: file.path) else {
        print("yaml: skipped (\(file.path) is not there)")
        return
    }
    let bytes = [UInt8](try Data(contentsOf: file))
    let clock = ContinuousClock()
    var reads: [Duration] = []
    for _ in 0..<5 {
        let start = clock.now
        _ = try YAMLReader.parse(bytes)
        reads.append(clock.now - start)
    }
    let peak = peakResidentMiB(of: getpid())
    let read = seconds(reads.min() ?? .zero)
    let share = peak / (Double(bytes.count) / 1_048_576)
    print(
        String(
            format: "read OpenAI's openapi.yaml (%.2f MB): %.0f ms %@; peak resident %.0f MiB, %.0f× the file %@",
            Double(bytes.count) / 1e6, read * 1000, read <= 0.5 ? "ok (budget ≤ 0.5 s)" : "OVER BUDGET (≤ 0.5 s)",
            peak, share, share <= 20 ? "ok (budget ≤ 20×)" : "OVER BUDGET (≤ 20×)"))
    // Repeated paths, as a large contract has them: 3 MB, then ten times as many.
    func paths(_ count: Int) -> [UInt8] {
        var text = "openapi: 3.1.0\ninfo: {title: Big, version: '1'}\npaths:\n"
        for index in 0..<count {
            text += """
                  /service\(index)/items/{id}:
                    get:
                      operationId: get\(index)
                      parameters:
                        - {name: id, in: path, required: true, schema: {type: integer, minimum: 0}}
                      responses:
                        '200':
                          description: "An item, with a \\"quoted\\" word"
                          content:
                            application/json:
                              example: {id: 7, tags: [a, b], note: |
                                  a literal block
                                }

                """
        }
        return Array(text.utf8)
    }
    let small = paths(7_500)
    let large = paths(75_000)
    var times: ([Duration], [Duration]) = ([], [])
    for _ in 0..<3 {
        var start = clock.now
        _ = try YAMLReader.parse(small)
        times.0.append(clock.now - start)
        start = clock.now
        _ = try YAMLReader.parse(large)
        times.1.append(clock.now - start)
    }
    let (smallTime, largeTime) = (seconds(times.0.min() ?? .zero), seconds(times.1.min() ?? .zero))
    let ratio = largeTime / smallTime
    print(
        String(
            format: "read %.0f MB of YAML vs %.0f MB: %.1f× (%.0f ms vs %.0f ms) %@", Double(large.count) / 1e6,
            Double(small.count) / 1e6, ratio, largeTime * 1000, smallTime * 1000,
            ratio <= 12 ? "ok (budget ≤ 12×)" : "OVER BUDGET (≤ 12×)"))
}
