import Foundation
import RequestMocker

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Static answers' latency in four sessions, alone and beside a fifth session that asks in a loop
/// for a synchronous block answer computing for 40 ms: the budget is that the median beside it
/// stays within 2× the median alone (issue 44). Rounds interleave the two, so the machine's
/// changing speed falls on both. `--slow-answer-only` prints this row alone.
func printSlowAnswerRow(rounds: Int = 3) async throws {
    let sessions = (0..<4).map { _ in
        let registry = MockRegistry()
        registry.register(.get("/bench/item"), respond: .data(FloorProtocol.body))
        return registry.makeSession()
    }
    let heavyRegistry = MockRegistry()
    heavyRegistry.register(.get("/bench/heavy")) { _, _ in
        // Computes (rather than sleeps) for 40 ms, as an expensive block would.
        let end = ContinuousClock.now + .milliseconds(40)
        var spins = 0
        while ContinuousClock.now < end { spins &+= 1 }
        return .string("heavy \(spins % 2)")
    }
    let heavySession = heavyRegistry.makeSession()
    let item = try require(URL(string: "https://bench.test/bench/item"))
    let heavyURL = try require(URL(string: "https://bench.test/bench/heavy"))

    /// Each session's 100 sequential requests, the four sessions at once: every latency.
    func staticLatencies() async throws -> [Duration] {
        try await withThrowingTaskGroup(of: [Duration].self) { group in
            for session in sessions {
                group.addTask {
                    var latencies: [Duration] = []
                    for _ in 0..<100 {
                        let start = ContinuousClock.now
                        let (data, _) = try await session.data(from: item)
                        latencies.append(ContinuousClock.now - start)
                        precondition(data == FloorProtocol.body, "the static answer was \(data.count) bytes")
                    }
                    return latencies
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
    }

    for session in sessions { _ = try await session.data(from: item) }
    var alone: [Duration] = []
    var beside: [Duration] = []
    var heavyAnswers = 0
    for _ in 0..<rounds {
        alone += try await staticLatencies()
        let stop = LockedState(false)
        let heavy = Task {
            var answered = 0
            while !stop.withLock({ $0 }) {
                _ = try await heavySession.data(from: heavyURL)
                answered += 1
            }
            return answered
        }
        // The heavy session is busy before the static requests start: its first answer is on its way.
        while heavyRegistry.journal.isEmpty { await Task.yield() }
        beside += try await staticLatencies()
        stop.withLock { $0 = true }
        heavyAnswers += try await heavy.value
        heavyRegistry.clearJournal()
    }
    func percentile(_ values: [Duration], _ fraction: Double) -> Duration {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * fraction))]
    }
    let ratio = seconds(percentile(beside, 0.5)) / seconds(percentile(alone, 0.5))
    print(
        "static answers in 4 sessions, alone vs beside a 40 ms synchronous block in a 5th "
            + "(\(rounds) rounds × 4 × 100 requests, \(heavyAnswers) block answers):")
    print(
        "  alone: median \(microseconds(percentile(alone, 0.5))) µs, "
            + "p99 \(microseconds(percentile(alone, 0.99))) µs; "
            + "beside: median \(microseconds(percentile(beside, 0.5))) µs, "
            + "p99 \(microseconds(percentile(beside, 0.99))) µs")
    print(
        "  beside a slow answer vs alone, median:     " + String(format: "%.2f  ", ratio)
            + (ratio <= 2 ? "ok (budget ≤ 2.0)" : "OVER BUDGET (≤ 2.0)"))
}

/// The value, or an error that says what could not be made.
private func require<Value>(_ value: Value?, _ what: String = "a URL") throws -> Value {
    guard let value else { throw BenchFailure(description: "\(what) could not be made") }
    return value
}

private struct BenchFailure: Error, CustomStringConvertible {
    let description: String
}
