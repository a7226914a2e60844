// `--profile floor|least|filter|pair`: one mode alone, for a profiler, or the 1-filter ratio alone.
import Foundation
import RequestMocker

/// A session answered by the floor (`floor`), the least mock (`least`; `least-uncached` with no
/// URL cache, as a mocking session has none), or a registry with one filter, in the session
/// `makeSession()` makes.
func profileSession(_ mode: String) -> (URLSession, MockRegistry) {
    let configuration = URLSessionConfiguration.ephemeral
    let registry = MockRegistry()
    registry.register(.get("/bench/item"), respond: .data(FloorProtocol.body))
    let answering: AnyClass
    switch mode {
    case "floor": answering = FloorProtocol.self
    case "least", "least-uncached": answering = LeastMockProtocol.self
    default: return (registry.makeSession(), registry)
    }
    if mode == "least-uncached" { configuration.urlCache = nil }
    configuration.protocolClasses = [answering] + (configuration.protocolClasses ?? [])
    return (URLSession(configuration: configuration), registry)
}

/// Sends `requests` sequential requests through one mode; `pair` sends them through the floor,
/// the least mock and one filter, interleaved in rounds of 500, and prints the budget's ratio
/// with the least mock's beside it.
func profile(_ mode: String, requests: Int) async throws {
    let request = URLRequest(url: URL(string: "https://bench.test/bench/item")!)
    let sessions = (mode == "pair" ? ["floor", "least", "filter", "least-uncached"] : [mode]).map(profileSession)
    var latencies = sessions.map { _ in [Duration]() }
    let clock = ContinuousClock()
    var sent = 0
    // The journal is cleared every 500 requests, as between the table's rounds, so dropping
    // the oldest entries isn't counted (the full-journal row measures that).
    while sent < requests {
        let round = min(500, requests - sent)
        for (index, (session, registry)) in sessions.enumerated() {
            for _ in 0..<round {
                let start = clock.now
                let (data, _) = try await session.data(for: request)
                latencies[index].append(clock.now - start)
                precondition(data == FloorProtocol.body)
            }
            registry.clearJournal()
        }
        sent += round
    }
    guard mode == "pair", latencies.allSatisfy({ !$0.isEmpty }) else { return }
    let medians = latencies.map { $0.sorted()[$0.count / 2] }
    print(
        "floor \(microseconds(medians[0])) µs, least mock \(microseconds(medians[1])) µs "
            + String(format: "(%.3f× floor)", ratio(medians[1], medians[0]))
            + ", 1 filter \(microseconds(medians[2])) µs: "
            + String(
                format: "%.3f× floor, %.3f× the least mock", ratio(medians[2], medians[0]),
                ratio(medians[2], medians[1]))
            + "; the least mock without a URL cache \(microseconds(medians[3])) µs: "
            + String(format: "1 filter %.3f× it", ratio(medians[2], medians[3])))
}
