import Foundation
import RequestMocker
import RequestMockerServer

// The streaming rows: server-sent events through `MockServer`, read by curl.

/// Events a second through `MockServer`: 10,000 events at no interval, read whole by `curl -N`,
/// best of five; `nil` without curl, or when curl didn't get them all (which it prints).
func eventThroughput() throws -> Double? {
    guard installed("curl") else { return nil }
    let count = 10_000
    let registry = MockRegistry()
    let events = (0..<count).map { ServerSentEvent(event: "token", data: "event \($0)", id: String($0)) }
    registry.register(.get("/events"), respond: .events(events))
    let server = MockServer(registry: registry)
    let base = try server.start()
    defer { server.stop() }
    let expected = events.reduce(0) { total, event in total + event.wireLength }
    var best: Double?
    for _ in 0..<5 {
        let started = ContinuousClock.now
        let download = runToEnd(
            "curl",
            [
                "-s", "-N", "-o", "/dev/null", "-w", "%{size_download}",
                base.appendingPathComponent("events").absoluteString,
            ])
        let elapsed = seconds(started.duration(to: .now))
        guard download.output == String(expected) else {
            print("  server-sent events: curl read \(download.output) bytes of \(expected) (status \(download.status))")
            return nil
        }
        best = min(best ?? elapsed, elapsed)
    }
    return best.map { Double(count) / $0 }
}

extension ServerSentEvent {
    /// The bytes this event takes on the wire (as the format writes `event`, `id` and `data`).
    fileprivate var wireLength: Int {
        "event: \(event ?? "")\nid: \(id ?? "")\ndata: \(data ?? "")\n\n".utf8.count
    }
}

/// Prints the streaming rows of the table.
func printStreamingRows() throws {
    print("")
    print("streaming:")
    if let rate = try eventThroughput() {
        print(
            String(format: "  10,000 server-sent events at no interval through MockServer: %.0f events/s  ", rate)
                + (rate >= 50_000 ? "ok (budget ≥ 50,000)" : "UNDER BUDGET (≥ 50,000)"))
    } else if !installed("curl") {
        print("  server-sent events: skipped (needs curl)")
    }
}
