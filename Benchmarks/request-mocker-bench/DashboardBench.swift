import Foundation

// The row of the dashboard: `serve --admin` answering a stub as wrk asks, with a page following
// its events against none, and against `serve` without `--admin`.

/// Prints the requests a second `serve --admin` answers with a page following
/// `GET /__admin/events` against without one (budget ≥ 0.9×), and `--admin` without a page
/// against no `--admin`; and what the page got. The page is curl, reading the events as fast as
/// they come: a browser's tab does the same work (and, slower, would only drop more).
func printDashboardRow(rounds: Int) throws {
    print("")
    print("serve --admin with the dashboard's event stream followed (\(rounds) interleaved rounds of 5 s, median):")
    guard installed("wrk"), installed("curl") else {
        print("  skipped: needs wrk and curl (apt-get install wrk curl)")
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-dash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let stubs = folder.appendingPathComponent("stubs.json")
    try Data(
        #"{"stubs": [{"request": {"method": "GET", "path": "/hello"}, "response": {"body": "Hello, world!"}}]}"#.utf8
    ).write(to: stubs)
    let plain = startCommand(["--stubs", stubs.path], log: folder.appendingPathComponent("logs/plain.log"))
    let admin = startCommand(["--stubs", stubs.path, "--admin"], log: folder.appendingPathComponent("logs/admin.log"))
    defer { stopCommands([plain?.pid, admin?.pid]) }
    guard let plain, let admin else {
        print("  skipped: the command did not start")
        return
    }
    let url = admin.base + "/hello"
    for target in [plain.base + "/hello", url] { _ = wrk(target, seconds: 1) }
    var (without, with, noAdmin): ([Double], [Double], [Double]) = ([], [], [])
    var (events, dropped, served) = (0, 0, 0)
    for round in 0..<rounds {
        if let value = wrk(plain.base + "/hello", seconds: 5) { noAdmin.append(value) }
        if let value = wrk(url, seconds: 5) { without.append(value) }
        // A page opens (it gets the last 1,000 at once), then the requests come.
        let pageOutput = folder.appendingPathComponent("logs/page-\(round).txt")
        guard let page = spawn(["curl", "-s", "-N", admin.base + "/__admin/events"], output: pageOutput.path) else {
            print("  skipped: curl did not start")
            return
        }
        Thread.sleep(forTimeInterval: 0.5)
        let run = runToEnd("wrk", ["-t2", "-c16", "-d5s", url])
        Thread.sleep(forTimeInterval: 0.5)
        kill(page, SIGTERM)
        _ = reap(page)
        if let figures = wrkFigures(run.output) {
            with.append(figures.rate)
            served += figures.requests
        }
        let text = String(decoding: (try? Data(contentsOf: pageOutput)) ?? Data(), as: UTF8.self)
        events += text.components(separatedBy: "event: exchange\n").count - 1
        for part in text.components(separatedBy: "{\"dropped\":").dropFirst() {
            dropped += Int(part.prefix { $0.isNumber }) ?? 0
        }
    }
    guard let withPage = median(with), let withoutPage = median(without), let plainRate = median(noAdmin) else {
        print("  skipped: wrk gave no figure")
        return
    }
    let ratio = withPage / withoutPage
    let verdict = ratio >= 0.9 ? "ok (budget ≥ 0.9×)" : "UNDER BUDGET (≥ 0.9×)"
    print(
        String(
            format: "  with a page following the events: %.0f requests/s against %.0f without: %.2f×  ", withPage,
            withoutPage, ratio) + verdict)
    print(
        String(
            format: "  --admin without a page against no --admin: %.0f against %.0f: %.2f×", withoutPage,
            plainRate, withoutPage / plainRate))
    // Each page first gets the 1,000 exchanges kept from before it opened.
    let live = events - 1_000 * rounds
    print(
        "  the page got \(live) of the \(served) exchanges served while it followed (and the 1,000 kept from "
            + "before it opened, each time), and was told \(dropped) were dropped")
}
