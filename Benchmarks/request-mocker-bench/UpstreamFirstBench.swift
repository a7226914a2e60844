import Foundation
import RequestMocker
import RequestMockerOpenAPI

// The row of `serve --upstream-first`: every request forwarded to nginx and its exchange, request
// and response, checked against a contract, against `serve --upstream`, which only forwards.

/// A pet of 20 members (about 600 bytes of JSON), and the contract that describes it.
private let pet: JSONValue = .object(
    [
        "id": 7, "name": "Rex", "species": "dog", "born": "2019-04-01", "updated": "2026-11-01T12:00:00Z",
        "owner": "ada@example.com", "site": "https://pets.example.com/7", "weight": 12.5, "vaccinated": true,
        "tags": ["good", "loud", "fluffy"], "address": ["street": "1 Main St", "city": "Springfield", "zip": "12345"],
        "chip": "0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d", "color": "brown", "legs": 4, "notes": .null,
        "visits": [["date": "2026-01-02", "reason": "checkup"], ["date": "2026-06-07", "reason": "vaccine"]],
        "status": "available", "rank": 3, "score": 0.75, "nickname": "Rexy",
    ])

private let contract = """
    openapi: 3.1.0
    info: {title: Pets, version: "1"}
    paths:
      /pets/{petId}:
        get:
          operationId: getPet
          parameters: [{name: petId, in: path, required: true, schema: {type: integer, minimum: 1}}]
          responses:
            "200":
              description: a pet
              content:
                application/json:
                  schema:
                    type: object
                    required: [id, name, species, born, owner, tags, address, status]
                    properties:
                      id: {type: integer, minimum: 1}
                      name: {type: string, minLength: 1}
                      species: {type: string, enum: [dog, cat, bird]}
                      born: {type: string, format: date}
                      updated: {type: string, format: date-time}
                      owner: {type: string, format: email}
                      site: {type: string, format: uri}
                      weight: {type: number, minimum: 0}
                      vaccinated: {type: boolean}
                      tags: {type: array, items: {type: string}, maxItems: 10}
                      address:
                        type: object
                        required: [street, city]
                        properties:
                          street: {type: string}
                          city: {type: string}
                          zip: {type: string, pattern: "^[0-9]{5}$"}
                      chip: {type: string, format: uuid}
                      color: {type: string}
                      legs: {type: integer}
                      notes: {type: [string, "null"]}
                      visits:
                        type: array
                        items:
                          type: object
                          required: [date]
                          properties: {date: {type: string, format: date}, reason: {type: string}}
                      status: {type: string, enum: [available, pending, sold]}
                      rank: {type: integer}
                      score: {type: number, maximum: 1}
                      nickname: {type: string}
            "404": {description: no such pet}
    """

/// Prints `serve --upstream-first`'s median latency against `serve --upstream`'s, both in front
/// of nginx serving the pet (budget ≤ 1.3×).
func printUpstreamFirstRow(rounds: Int) throws {
    print("")
    print("serve --upstream-first (nginx serves a 20-member pet; \(rounds) interleaved rounds of 5 s, median):")
    guard installed("wrk"), installed("nginx") else {
        print("  skipped: needs wrk and nginx (apt-get install wrk nginx)")
        return
    }
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-first-\(UUID().uuidString)")
    try FileManager.default.createDirectory(
        at: folder.appendingPathComponent("www/pets"), withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try pet.serialized().write(to: folder.appendingPathComponent("www/pets/7"))
    let contractFile = folder.appendingPathComponent("pets.yaml")
    try Data(contract.utf8).write(to: contractFile)
    guard let nginx = try Nginx(folder: folder) else {
        print("  skipped: nginx did not start")
        return
    }
    defer { nginx.stop() }
    let upstream = "http://127.0.0.1:\(nginx.port)"
    let forwarding = startCommand(["--upstream", upstream], log: folder.appendingPathComponent("logs/upstream.log"))
    let checking = startCommand(
        ["--openapi", contractFile.path, "--upstream", upstream, "--upstream-first"],
        log: folder.appendingPathComponent("logs/first.log"))
    defer { stopCommands([forwarding?.pid, checking?.pid]) }
    guard let forwarding, let checking else {
        print("  skipped: the command did not start")
        return
    }
    let urls = [forwarding.base + "/pets/7", checking.base + "/pets/7"]
    // Each exchange must pass the contract: a finding would make this a measure of reporting.
    let probe = runToEnd("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", urls[1]])
    let log = String(
        decoding: (try? Data(contentsOf: folder.appendingPathComponent("logs/first.log"))) ?? Data(),
        as: UTF8.self)
    guard probe.output == "200", log.contains("GET /pets/7 -> 200 from upstream"), !log.contains("drift:") else {
        print("  skipped: the pet did not pass the contract through --upstream-first:\n\(log)")
        return
    }
    for url in urls { _ = wrk(url, seconds: 1) }
    var latencies: [[Double]] = [[], []]
    for _ in 0..<rounds {
        for (index, url) in urls.enumerated() {
            if let value = wrkMedianLatency(url, seconds: 5) { latencies[index].append(value) }
        }
    }
    guard let forwarded = median(latencies[0]), let checked = median(latencies[1]) else {
        print("  skipped: wrk gave no latency")
        return
    }
    let ratio = checked / forwarded
    let verdict = ratio <= 1.3 ? "ok (budget ≤ 1.3×)" : "OVER BUDGET (≤ 1.3×)"
    print(
        String(
            format: "  serve --upstream-first, one connection: %.0f µs a request against %.0f µs with --upstream: "
                + "%.2f×  ", checked, forwarded, ratio) + verdict
    )
    // The checks run after the answers, one at a time: how many a second one core keeps up with.
    if let perCheck = try checkingTime(contractFile) {
        print(
            String(
                format: "  (checking one exchange, request and response, takes %.0f µs: %.0f exchanges a second "
                    + "before checks wait; past 1,000 waiting, a client waits for its own)", perCheck,
                1_000_000 / perCheck))
    }
}

/// The median time, in µs, of checking the pet's exchange against the contract, over 5 runs of
/// 2,000; `nil` when the exchange doesn't pass.
private func checkingTime(_ contractFile: URL) throws -> Double? {
    let check = ContractCheck(try OpenAPIContract(contentsOf: contractFile))
    guard let url = URL(string: "http://127.0.0.1/pets/7") else { return nil }
    let request = MockRequest(method: .get, url: url)
    let response = RecordedResponse(
        status: .ok, headers: ["Content-Type": "application/json"], body: try pet.serialized())
    guard check.check(request, answeredWith: response, at: "bench", checkingRequest: true).isEmpty else { return nil }
    var runs: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<5 {
        let start = clock.now
        for _ in 0..<2_000 { _ = check.check(request, answeredWith: response, at: "bench", checkingRequest: true) }
        let (seconds, attoseconds) = start.duration(to: clock.now).components
        runs.append((Double(seconds) * 1e6 + Double(attoseconds) / 1e12) / 2_000)
    }
    return runs.sorted()[runs.count / 2]
}
