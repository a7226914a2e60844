// Prints RequestMocker's performance table. Every figure that has a budget is a ratio between
// modes measured in the same run, interleaved round by round, so a busy machine moves both
// sides of a ratio alike.
//
//     swift run -c release request-mocker-bench [--rounds N] [--per-round N] [--server-rounds N] [--server-only]
//     swift run -c release request-mocker-bench --streaming-only
//     swift run -c release request-mocker-bench --openapi-only
//     swift run -c release request-mocker-bench --dev-server-only [--server-rounds N]
//     swift run -c release request-mocker-bench --resources-only [--stateful-only]
//     swift run -c release request-mocker-bench --stateful-serve-only [--server-rounds N]
//     swift run -c release request-mocker-bench --yaml-only
//     swift run -c release request-mocker-bench --graphql-only
//     perf record -g .build/release/request-mocker-bench
//         --profile floor|least|filter|pair|validation|generation|graphql
//         [--requests N]
//
// The loopback server's rows need `wrk`, `nginx` and `curl` (apt-get install wrk nginx curl);
// without them those rows say so and the rest of the table is printed.
import Foundation
import RequestMocker

/// The floor: the least a URLProtocol can do to answer one request.
final class FloorProtocol: URLProtocol {
    static let body = Data("ok".utf8)

    override class func canInit(with request: URLRequest) -> Bool { true }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Length": "2"])
        else { return }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Self.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

struct Mode {
    let name: String
    let session: URLSession
    let request: URLRequest
    var latencies: [Duration] = []
    var elapsed: Duration = .zero
    var count = 0

    init(_ name: String, _ session: URLSession, _ path: String) {
        self.name = name
        self.session = session
        request = URLRequest(url: URL(string: path.hasPrefix("https:") ? path : "https://bench.test" + path)!)
    }

    var median: Duration {
        let sorted = latencies.sorted()
        return sorted.isEmpty ? .zero : sorted[sorted.count / 2]
    }

    var perSecond: Double { Double(count) / seconds(elapsed) }
}

try await runAPartOnly()

// `--profile floor|least|filter|pair --requests N`: only N sequential requests of one mode, for a
// profiler (run with two values of N and take the difference); `pair` prints the 1-filter
// budget's ratio without the rest of the table.
if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count,
    CommandLine.arguments[index + 1] == "validation"
{
    // Validating the 1 MiB body, --requests times, for a profiler.
    try printValidationRow(rounds: option("--requests", default: 50))
    exit(0)
}
try profileGraphQLIfAsked()
if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count,
    CommandLine.arguments[index + 1] == "generation"
{
    // The generation rows, --requests times, for a profiler.
    for _ in 0..<option("--requests", default: 10) { try printGenerationRows() }
    exit(0)
}
if let index = CommandLine.arguments.firstIndex(of: "--profile"), index + 1 < CommandLine.arguments.count {
    try await profile(CommandLine.arguments[index + 1], requests: option("--requests", default: 1_000))
    exit(0)
}

let rounds = option("--rounds", default: 20)
let perRound = option("--per-round", default: 500)
let clock = ContinuousClock()

// Registration: 10,000 filters, best of five.
var registrationTimes: [Duration] = []
for _ in 0..<5 {
    let registry = MockRegistry()
    let start = clock.now
    for index in 0..<10_000 {
        registry.register(.get("/bench/item/\(index)"), respond: .data(FloorProtocol.body))
    }
    registrationTimes.append(clock.now - start)
}

// The modes.
let floorConfiguration = URLSessionConfiguration.ephemeral
floorConfiguration.protocolClasses = [FloorProtocol.self] + (floorConfiguration.protocolClasses ?? [])
let leastConfiguration = URLSessionConfiguration.ephemeral
leastConfiguration.protocolClasses = [LeastMockProtocol.self] + (leastConfiguration.protocolClasses ?? [])
let uncachedLeast = URLSessionConfiguration.ephemeral
uncachedLeast.urlCache = nil
uncachedLeast.protocolClasses =
    [LeastMockProtocol.self] + (uncachedLeast.protocolClasses ?? [])

let one = MockRegistry()
one.register(.get("/bench/item"), respond: .data(FloorProtocol.body))
// The same filter, answering with its journal full (the default capacity), so every request
// drops the oldest entry.
// 10,000 filters for one path, each on its own host; the last one's host is asked.
let manyHosts = MockRegistry()
for index in 0..<10_000 {
    manyHosts.register(.get("https://host\(index).bench.test/bench/item"), respond: .data(FloorProtocol.body))
}
let fullJournal = MockRegistry()
fullJournal.register(.get("/bench/item"), respond: .data(FloorProtocol.body))

let manyLiteral = MockRegistry()
for index in 0..<10_000 {
    manyLiteral.register(.get("/bench/item/\(index)"), respond: .data(FloorProtocol.body))
}

let manyPatterned = MockRegistry()
for index in 0..<10_000 {
    manyPatterned.register(.get("/bench/<id>/v\(index)"), respond: .data(FloorProtocol.body))
}

// Mock-data folders of 10 and 10,000 files; the request's file is among them.
func mockDataFolder(files: Int) throws -> (MockRegistry, URL) {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "request-mocker-bench-\(files)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for index in 0..<files {
        try Data("ok".utf8).write(to: folder.appendingPathComponent("GET|-bench-file-\(index).http"))
    }
    try Data("HTTP/1.1 200 OK\n\nok".utf8).write(to: folder.appendingPathComponent("GET|-bench-file.http"))
    let registry = MockRegistry()
    registry.register(try MockDataFolder(folder))
    return (registry, folder)
}
let (smallFolder, smallPath) = try mockDataFolder(files: 10)
let (largeFolder, largePath) = try mockDataFolder(files: 10_000)

// Cassettes of 10 and 10,000 entries shaped like real recordings; the request's entry is the
// last. Each recording answers once, so the last one keeps answering (repeatsLastResponse).
func harEntry(path: String, body: String) -> String {
    """
    {"startedDateTime": "2026-11-22T10:00:00.123Z", "time": 12.5, "cache": {},
     "request": {"method": "GET", "url": "https://bench.test\(path)", "httpVersion": "HTTP/1.1", "cookies": [],
      "headers": [{"name": "Accept", "value": "application/json"}, {"name": "User-Agent", "value": "bench/1.0"}],
      "queryString": [], "headersSize": -1, "bodySize": 0},
     "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1", "cookies": [],
      "headers": [{"name": "Content-Length", "value": "\(body.utf8.count)"}],
      "content": {"size": \(body.utf8.count), "mimeType": "application/json", "text": "\(body)"},
      "redirectURL": "", "headersSize": -1, "bodySize": \(body.utf8.count)},
     "timings": {"send": 0, "wait": 12.5, "receive": 0}}
    """
}
func cassetteFile(entries: Int) throws -> URL {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
        "request-mocker-bench-\(entries)-\(UUID().uuidString).har")
    var parts = (0..<entries - 1).map {
        harEntry(path: "/bench/har/\($0)?page=\($0 % 7)", body: #"{\"id\":\#($0),\"name\":\"item \#($0)\"}"#)
    }
    parts.append(harEntry(path: "/bench/har/last", body: "ok"))
    let text =
        #"{"log": {"version": "1.2", "creator": {"name": "bench", "version": "1"}, "entries": ["#
        + parts.joined(separator: ",\n") + "]}}"
    try Data(text.utf8).write(to: file)
    return file
}
let smallCassetteFile = try cassetteFile(entries: 10)
let largeCassetteFile = try cassetteFile(entries: 10_000)
func cassetteRegistry(_ file: URL) throws -> MockRegistry {
    let registry = MockRegistry()
    registry.register(try Cassette(contentsOf: file, record: .none, repeatsLastResponse: true))
    return registry
}
let smallCassette = try cassetteRegistry(smallCassetteFile)
let largeCassette = try cassetteRegistry(largeCassetteFile)

// Loading the 10,000-entry cassette against parsing the same file with JSONSerialization,
// interleaved, best of five each.
var loadTimes: [Duration] = []
var parseTimes: [Duration] = []
for _ in 0..<5 {
    var start = clock.now
    _ = try JSONSerialization.jsonObject(with: Data(contentsOf: largeCassetteFile))
    parseTimes.append(clock.now - start)
    start = clock.now
    _ = try Cassette(contentsOf: largeCassetteFile, record: .none)
    loadTimes.append(clock.now - start)
}

let (hashTimes, sha256sumTimes) = try hashTimings(folder: smallPath)
let missTimes = try await missTimings()

var modes = [
    Mode("floor: hand-written URLProtocol", URLSession(configuration: floorConfiguration), "/bench/item"),
    Mode("MockURLProtocol, 1 filter", one.makeSession(), "/bench/item"),
    Mode("10,000 literal filters, last matches", manyLiteral.makeSession(), "/bench/item/9999"),
    Mode("10,000 <var> filters, last matches", manyPatterned.makeSession(), "/bench/7/v9999"),
    Mode("mock-data folder of 10 files", smallFolder.makeSession(), "/bench/file"),
    Mode("mock-data folder of 10,000 files", largeFolder.makeSession(), "/bench/file"),
    Mode("cassette of 10 entries", smallCassette.makeSession(), "/bench/har/last"),
    Mode("cassette of 10,000 entries", largeCassette.makeSession(), "/bench/har/last"),
    Mode("1 filter, full 10,000-entry journal", fullJournal.makeSession(), "/bench/item"),
    Mode("10,000 hosts, last matches", manyHosts.makeSession(), "https://host9999.bench.test/bench/item"),
    // Last, so the indices above stay as the budgets below use them.
    Mode("reference: the least mock (no library)", URLSession(configuration: leastConfiguration), "/bench/item"),
    // The same without URL loading's cache, which a mocking session (makeSession) has none of.
    Mode("reference: the least mock, no URL cache", URLSession(configuration: uncachedLeast), "/bench/item"),
]
let journaled = [one, manyLiteral, manyPatterned, smallFolder, largeFolder, smallCassette, largeCassette, manyHosts]

// Warm up, then interleave rounds of sequential requests.
for index in modes.indices {
    for _ in 0..<200 { _ = try await modes[index].session.data(for: modes[index].request) }
}
for registry in journaled { registry.clearJournal() }
for _ in 0..<(fullJournal.journalCapacity ?? 0) { _ = try await modes[8].session.data(for: modes[8].request) }
for _ in 0..<rounds {
    for index in modes.indices {
        let roundStart = clock.now
        for _ in 0..<perRound {
            let start = clock.now
            let (data, _) = try await modes[index].session.data(for: modes[index].request)
            modes[index].latencies.append(clock.now - start)
            precondition(data == FloorProtocol.body, "\(modes[index].name) answered \(data.count) bytes")
        }
        modes[index].elapsed += clock.now - roundStart
        modes[index].count += perRound
    }
    for registry in journaled { registry.clearJournal() }
}

// Concurrent throughput: 2,000 requests in flight at once.
func concurrent(_ mode: Mode) async throws -> Double {
    let start = clock.now
    try await withThrowingTaskGroup(of: Void.self) { group in
        for _ in 0..<2_000 {
            group.addTask { _ = try await mode.session.data(for: mode.request) }
        }
        try await group.waitForAll()
    }
    return 2_000 / seconds(clock.now - start)
}
var floorConcurrent: [Double] = []
var mockConcurrent: [Double] = []
for _ in 0..<5 {
    floorConcurrent.append(try await concurrent(modes[0]))
    mockConcurrent.append(try await concurrent(modes[1]))
    one.clearJournal()
}

// The table.
let floor = modes[0]
let single = modes[1]
func ratio(_ a: Duration, _ b: Duration) -> Double { seconds(a) / seconds(b) }
func verdict(_ value: Double, _ budget: Double) -> String {
    value <= budget ? "ok (budget ≤ \(budget))" : "OVER BUDGET (≤ \(budget))"
}

print("RequestMocker benchmark: \(rounds) rounds × \(perRound) sequential requests per mode, interleaved")
print("")
print("mode".padding(toLength: 40, withPad: " ", startingAt: 0) + "   req/s   median µs   ratio")
for mode in modes {
    let comparedTo =
        switch mode.name {
        case floor.name: ""
        case single.name, modes[10].name, modes[11].name:
            String(format: "%.2f× floor", ratio(mode.median, floor.median))
        case modes[5].name: String(format: "%.2f× 10 files", ratio(mode.median, modes[4].median))
        case modes[4].name, modes[6].name: ""
        case modes[7].name: String(format: "%.2f× 10 entries", ratio(mode.median, modes[6].median))
        default: String(format: "%.2f× 1 filter", ratio(mode.median, single.median))
        }
    print(
        mode.name.padding(toLength: 40, withPad: " ", startingAt: 0)
            + String(format: "%8.0f", mode.perSecond)
            + microseconds(mode.median).leftPadded(12) + "   " + comparedTo)
}
let floorThroughput = floorConcurrent.sorted()[2]
let mockThroughput = mockConcurrent.sorted()[2]
print("")
print(
    "2,000 concurrent requests, median of 5: floor \(Int(floorThroughput)) req/s, "
        + "1 filter \(Int(mockThroughput)) req/s "
        + String(format: "(%.2f of floor)", mockThroughput / floorThroughput))
let bestRegistration = registrationTimes.min() ?? .zero
print("register 10,000 filters: \(String(format: "%.1f", seconds(bestRegistration) * 1000)) ms (best of 5)")
print("")
print("budgets:")
print(
    "  1 filter vs floor, median latency:        " + String(format: "%.2f  ", ratio(single.median, floor.median))
        + verdict(ratio(single.median, floor.median), 1.05)
        + String(format: " (the least mock: %.2f)", ratio(modes[10].median, floor.median)))
print(
    "  1 filter vs the least mock, median latency: " + String(format: "%.2f  ", ratio(single.median, modes[10].median))
        + verdict(ratio(single.median, modes[10].median), 1.05)
        + String(format: " (both without a URL cache: %.2f)", ratio(single.median, modes[11].median)))
print(
    "  full 10,000-entry journal vs 1 filter:     " + String(format: "%.2f  ", ratio(modes[8].median, single.median))
        + verdict(ratio(modes[8].median, single.median), 1.1))
print(
    "  10,000 filters vs 1 filter, median latency: " + String(format: "%.2f  ", ratio(modes[2].median, single.median))
        + verdict(ratio(modes[2].median, single.median), 1.5))
print(
    "  10,000 hosts vs 1 filter:                   " + String(format: "%.2f  ", ratio(modes[9].median, single.median))
        + verdict(ratio(modes[9].median, single.median), 1.5))
print(
    "  10,000 <var> filters vs 1 filter:           " + String(format: "%.2f  ", ratio(modes[3].median, single.median))
        + verdict(ratio(modes[3].median, single.median), 1.5))
print(
    "  folder of 10,000 files vs 10 files:        " + String(format: "%.2f  ", ratio(modes[5].median, modes[4].median))
        + verdict(ratio(modes[5].median, modes[4].median), 1.5))
print(
    "  cassette of 10,000 entries vs 10:          " + String(format: "%.2f  ", ratio(modes[7].median, modes[6].median))
        + verdict(ratio(modes[7].median, modes[6].median), 1.5))
let bestLoad = loadTimes.min() ?? .zero
let bestParse = parseTimes.min() ?? .zero
print(
    "  load 10,000-entry cassette vs JSONSerialization: " + String(format: "%.2f  ", ratio(bestLoad, bestParse))
        + verdict(ratio(bestLoad, bestParse), 2)
        + String(format: "  (%.0f ms vs %.0f ms, best of 5)", seconds(bestLoad) * 1000, seconds(bestParse) * 1000))
if let bestHash = hashTimes.min() {
    let megabytesPerSecond = 10 / seconds(bestHash)
    if let bestSum = sha256sumTimes.min() {
        print(
            "  SHA-256 of 10 MB vs sha256sum:              " + String(format: "%.2f  ", ratio(bestHash, bestSum))
                + verdict(ratio(bestHash, bestSum), 2)
                + String(format: "  (%.0f ms, %.0f MB/s, best of 5)", seconds(bestHash) * 1000, megabytesPerSecond))
    } else {
        print(
            String(
                format: "  SHA-256 of 10 MB: %.0f ms, %.0f MB/s (sha256sum missing)", seconds(bestHash) * 1000,
                megabytesPerSecond))
    }
}
let bestMiss = missTimes.min() ?? .zero
print(
    "  a miss among 100,000 filters:              " + String(format: "%.1f ms  ", seconds(bestMiss) * 1000)
        + (seconds(bestMiss) <= 0.010 ? "ok (budget ≤ 10 ms)" : "OVER BUDGET (≤ 10 ms)"))
print(
    "  register 10,000 filters:                    "
        + (seconds(bestRegistration) < 1 ? "ok (well under 1 s)" : "OVER BUDGET"))

// The loopback server, measured in a fresh process of this program: after the rows above, the
// same process served a quarter fewer requests a second (0.60–0.64 of nginx instead of
// 0.83–0.86; not pinned down: its heap is 380 MB and it ran thousands of URLSession tasks), which
// measures the benchmark, not the server.
for mode in modes { mode.session.invalidateAndCancel() }
let serverRows = runToEnd(
    URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path,
    ["--server-only", "--server-rounds", String(option("--server-rounds", default: 3))]
)
print(
    serverRows.status == 0 ? serverRows.output : "\nloopback server: skipped (the measuring process could not run)",
    terminator: "")

// The contract rows, in a process of their own so the reader's peak resident memory is its own.
let openAPIRows = runToEnd(URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, ["--openapi-only"])
print("\nOpenAPI contracts:")
print(openAPIRows.status == 0 ? openAPIRows.output : "  skipped (the measuring process could not run)", terminator: "")
let graphQLRows = runToEnd(URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, ["--graphql-only"])
print("\nGraphQL schemas:")
print(graphQLRows.status == 0 ? graphQLRows.output : "  skipped (the measuring process could not run)", terminator: "")
let yamlRows = runToEnd(URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, ["--yaml-only"])
print("\nYAML:")
print(yamlRows.status == 0 ? yamlRows.output : "  skipped (the measuring process could not run)", terminator: "")
print("\nDrafting a contract from recordings:")
printDraftRow()
// In a process of its own: the sessions above are gone, and their tasks with them.
let slowAnswerRow = runToEnd(
    URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path, ["--slow-answer-only"])
print("\nSlow answers and other sessions:")
print(
    slowAnswerRow.status == 0 ? slowAnswerRow.output : "  skipped (the measuring process could not run)", terminator: ""
)

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

for folder in [smallPath, largePath, smallCassetteFile, largeCassetteFile] {
    try? FileManager.default.removeItem(at: folder)
}
