import Foundation
import RequestMocker

// The development-server rows: `request-mocker serve --upstream` against going to nginx
// directly (and, for scale, against nginx's own reverse proxy and against socat, which relays
// bytes without reading HTTP), and `serve --stubs` with 1,000 stubs against nginx.

/// `wrk`'s median latency, in microseconds, for one connection sending requests back to back.
func wrkMedianLatency(_ url: String, seconds: Int) -> Double? {
    let result = runToEnd("wrk", ["-t1", "-c1", "-d\(seconds)s", "--latency", url])
    guard
        let line = result.output.split(separator: "\n").first(where: {
            $0.trimmingCharacters(in: .whitespaces).hasPrefix("50%")
        })
    else { return nil }
    let value = line.split(separator: " ", omittingEmptySubsequences: true).last.map(String.init) ?? ""
    for (unit, scale) in [("us", 1.0), ("ms", 1_000.0), ("s", 1_000_000.0)] where value.hasSuffix(unit) {
        return Double(value.dropLast(unit.count)).map { $0 * scale }
    }
    return nil
}

/// The middle of `values` once sorted, or `nil` when there are none.
func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }

struct DevServerResult {
    /// Median latencies in µs: straight to nginx, through nginx's proxy, through `serve --upstream`,
    /// and through socat (when it is installed).
    let direct: Double
    let nginxProxy: Double
    let forwarded: Double?
    let byteRelay: Double?
    /// Requests a second: nginx, `serve --stubs` with 1,000 stubs, and `serve --openapi`
    /// answering a static example with validation on.
    let nginx: Double
    let stubs: Double?
    let openapi: Double?
}

func devServerMeasurements(rounds: Int, seconds: Int) throws -> DevServerResult? {
    guard installed("wrk"), installed("nginx") else { return nil }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-dev-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder.appendingPathComponent("www"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let body = "Hello, world!"
    try Data(body.utf8).write(to: folder.appendingPathComponent("www/hello"))
    guard let nginx = try Nginx(folder: folder) else { return nil }
    defer { nginx.stop() }

    // 1,000 stubs, each for its own path; the requests go to the last.
    let stubs: [JSONValue] = (0..<1_000).map { index in
        ["request": ["method": "GET", "path": .string("/items/\(index)/detail")], "response": ["body": .string(body)]]
    }
    let stubsFile = folder.appendingPathComponent("stubs.json")
    try JSONValue.object(["stubs": .array(stubs)]).serialized().write(to: stubsFile)
    // A contract whose operation checks its path parameter and answers the same bytes as nginx.
    let contractFile = folder.appendingPathComponent("hello.json")
    try Data(
        (#"{"openapi": "3.1.0", "info": {"title": "Hello", "version": "1"}, "paths": {"/hello/{n}": {"get": {"#
            + #""operationId": "hello", "parameters": [{"name": "n", "in": "path", "required": true, "#
            + #""schema": {"type": "integer", "minimum": 1}}], "responses": {"200": {"description": "Hi", "#
            + #""content": {"text/plain": {"example": "\#(body)"}}}}}}}}"#).utf8
    ).write(to: contractFile)
    var commands: [pid_t] = []
    defer { stopCommands(commands) }
    let forwarding = startCommand(
        ["--upstream", "http://127.0.0.1:\(nginx.port)"], log: folder.appendingPathComponent("logs/upstream.log"))
    let stubbed = startCommand(["--stubs", stubsFile.path], log: folder.appendingPathComponent("logs/stubs.log"))
    let contracted = startCommand(
        ["--openapi", contractFile.path], log: folder.appendingPathComponent("logs/openapi.log"))
    // A relay that copies bytes each way, as close to the least a second hop costs as a
    // program gets: one kept connection to nginx for each of wrk's.
    let relayPort = try freePort()
    let relay =
        installed("socat")
        ? spawn(["socat", "TCP-LISTEN:\(relayPort),fork,reuseaddr,nodelay", "TCP:127.0.0.1:\(nginx.port),nodelay"])
        : nil
    commands = [forwarding?.pid, stubbed?.pid, contracted?.pid, relay].compactMap(\.self)
    Thread.sleep(forTimeInterval: 0.2)

    let latencyURLs = [
        "http://127.0.0.1:\(nginx.port)/hello", "http://127.0.0.1:\(nginx.proxyPort)/hello",
        forwarding.map { $0.base + "/hello" }, relay.map { _ in "http://127.0.0.1:\(relayPort)/hello" },
    ]
    let throughputURLs = [
        "http://127.0.0.1:\(nginx.port)/hello", stubbed.map { $0.base + "/items/999/detail" },
        contracted.map { $0.base + "/hello/7" },
    ]
    for url in (latencyURLs + throughputURLs).compactMap(\.self) { _ = wrk(url, seconds: 1) }
    var latencies: [[Double]] = [[], [], [], []]
    var throughputs: [[Double]] = [[], [], []]
    for _ in 0..<rounds {
        for (index, url) in latencyURLs.enumerated() {
            if let url, let value = wrkMedianLatency(url, seconds: seconds) { latencies[index].append(value) }
        }
        for (index, url) in throughputURLs.enumerated() {
            if let url, let value = wrk(url, seconds: seconds) { throughputs[index].append(value) }
        }
    }
    guard let direct = median(latencies[0]), let proxy = median(latencies[1]), let nginxRate = median(throughputs[0])
    else { return nil }
    return DevServerResult(
        direct: direct, nginxProxy: proxy, forwarded: median(latencies[2]), byteRelay: median(latencies[3]),
        nginx: nginxRate, stubs: median(throughputs[1]), openapi: median(throughputs[2]))
}

/// Prints the development server's rows of the table.
func printDevServerRows(rounds: Int) throws {
    print("")
    print("development server (nginx serves 13 bytes; \(rounds) interleaved rounds of 5 s, median):")
    guard let result = try devServerMeasurements(rounds: rounds, seconds: 5) else {
        print("  skipped: needs wrk and nginx (apt-get install wrk nginx)")
        return
    }
    if let forwarded = result.forwarded {
        let ratio = forwarded / result.direct
        print(
            String(
                format:
                    "  serve --upstream nginx, one connection: %.0f µs a request against %.0f µs straight to nginx: "
                    + "%.2f×  ", forwarded, result.direct, ratio)
                + (ratio <= 1.5 ? "ok (budget ≤ 1.5×)" : "OVER BUDGET (≤ 1.5×)"))
    } else {
        print("  serve --upstream: skipped (the command did not start)")
    }
    print(
        String(
            format: "  (nginx's own proxy_pass to it, for scale: %.0f µs, %.2f×)", result.nginxProxy,
            result.nginxProxy / result.direct))
    if let byteRelay = result.byteRelay {
        print(
            String(
                format:
                    "  (socat relaying the bytes, reading no HTTP, for the least a second hop costs: %.0f µs, %.2f×)",
                byteRelay, byteRelay / result.direct))
    }
    printShareRow(
        "serve --stubs with 1,000 stubs, log on", result.stubs, of: result.nginx, budget: 0.5, skipped: "serve --stubs")
    // Issue 43: back to what it was before the contract fixes, and then some.
    printShareRow(
        "serve --openapi, a static example, validation on, log on", result.openapi, of: result.nginx, budget: 0.75,
        skipped: "serve --openapi")
}

/// A command's requests a second under `wrk -t2 -c16` as a share of nginx's, against its budget,
/// or that it was skipped.
private func printShareRow(_ name: String, _ rate: Double?, of nginx: Double, budget: Double, skipped: String) {
    guard let rate else {
        print("  \(skipped): skipped (the command did not start)")
        return
    }
    let share = rate / nginx
    print(
        String(
            format: "  %@ (wrk -t2 -c16): %.0f req/s against nginx %.0f: %.2f of nginx  ", name, rate, nginx, share)
            + String(format: share >= budget ? "ok (budget ≥ %.2f)" : "UNDER BUDGET (≥ %.2f)", budget))
}
