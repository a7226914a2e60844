import Foundation
import RequestMocker

// Rows measured on their own rather than as a request mode: hashing, and a miss among many filters.

/// SHA-256 of a 10 MB request body, as the mock-data folder at `folder` names a POST, against
/// coreutils' `sha256sum` of the same bytes (five times each; empty without `sha256sum`).
func hashTimings(folder: URL) throws -> (hash: [Duration], sha256sum: [Duration]) {
    let clock = ContinuousClock()
    let tenMegabytes = Data((0..<10_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
    let hashedFolder = try MockDataFolder(folder)
    let request = MockRequest(
        method: .post, url: URL(string: "https://bench.test/upload")!,
        headers: ["Content-Type": "application/octet-stream"], body: tenMegabytes)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-10mb-\(UUID().uuidString)")
    try tenMegabytes.write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    var hash: [Duration] = []
    var sum: [Duration] = []
    for _ in 0..<5 {
        var start = clock.now
        let names = hashedFolder.candidateFileNames(for: request)
        hash.append(clock.now - start)
        precondition(names.count == 2)
        start = clock.now
        if runToEnd("sha256sum", [file.path]).status == 0 { sum.append(clock.now - start) }
    }
    return (hash, sum)
}

/// A miss among 100,000 filters, unmatched report included, through a session (20 times).
func missTimings() async throws -> [Duration] {
    let clock = ContinuousClock()
    let registry = MockRegistry()
    for index in 0..<100_000 {
        registry.register(.get("/bench/item/\(index)"), respond: .data(FloorProtocol.body))
    }
    let session = registry.makeSession()
    defer { session.invalidateAndCancel() }
    var times: [Duration] = []
    for attempt in 0..<20 {
        let start = clock.now
        let miss = try? await session.data(from: URL(string: "https://bench.test/bench/missing/\(attempt)")!)
        times.append(clock.now - start)
        precondition(miss == nil, "the miss was answered")
    }
    return times
}
