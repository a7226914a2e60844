import Foundation
import RequestMocker

// Resources that remember (issue 37): a create and a read by id in a collection of about 10,000
// items against the same requests answered without state, through the contract source alone
// (the transport costs the same either way, and would hide the store); and `serve --stateful`
// under wrk's mixed reads and creates against `serve --openapi` without state.

/// A pet shop of two paths: `/pets` (list, create) and `/pets/{petId}` (read), ids integers.
private let shopContract =
    #"{"openapi": "3.1.0", "info": {"title": "Shop", "version": "1"}, "paths": {"#
    + #""/pets": {"get": {"operationId": "listPets", "responses": {"200": {"description": "Pets", "content": {"#
    + ##""application/json": {"schema": {"type": "array", "items": {"$ref": "#/components/schemas/Pet"}}}}}}}, "##
    + ##""post": {"operationId": "createPet", "requestBody": {"required": true, "content": {"application/json": {"##
    + ##""schema": {"$ref": "#/components/schemas/Pet"}}}}, "responses": {"201": {"description": "Made", "content": {"##
    + ##""application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}, "##
    + #""/pets/{petId}": {"get": {"operationId": "getPet", "parameters": [{"name": "petId", "in": "path", "#
    + #""required": true, "schema": {"type": "integer"}}], "responses": {"200": {"description": "A pet", "content": {"#
    + ##""application/json": {"schema": {"$ref": "#/components/schemas/Pet"}}}}}}}}, "##
    + #""components": {"schemas": {"Pet": {"type": "object", "required": ["id", "name"], "properties": {"#
    + #""id": {"type": "integer", "readOnly": true}, "name": {"type": "string"}, "tag": {"type": "string"}}}}}}"#

/// The median, over 7 interleaved rounds, of a create (500 a round, from 9,500 items up) and of a
/// read by id (2,000 a round, spread over the items), stateful against stateless. Budget ≤ 1.2×.
func printResourceRows() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-resources-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("shop.json")
    try Data(shopContract.utf8).write(to: file)
    let contract = try OpenAPIContract(contentsOf: file)
    let stateless = ContractSource(contract: contract, validation: .strict, generation: .static, basePath: nil)
    let stateful = ContractSource(
        contract: contract, validation: .strict, generation: .static, basePath: nil, remembering: true)
    let start = 9_500
    let pets: [JSONValue] = (1...start).map { ["id": .int($0), "name": .string("pet \($0)"), "tag": "bench"] }
    let seed = try DocumentNode.parseJSON([UInt8](try JSONValue.object(["/pets": .array(pets)]).serialized()))
    let contents = try stateful.resourceContents(of: seed, from: .value("the benchmark's seed"))
    func request(_ method: String, _ path: String, _ body: String? = nil) -> MockRequest {
        guard let url = URL(string: "https://shop.example" + path) else { preconditionFailure("a benchmark URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return MockRequest(request)
    }
    let creates = (0..<500).map { request("POST", "/pets", #"{"name": "new \#($0)", "tag": "bench"}"#) }
    let reads = (0..<2_000).map { request("GET", "/pets/\($0 * 7919 % start + 1)") }
    let clock = ContinuousClock()
    func timed(_ source: ContractSource, _ requests: [MockRequest], expecting status: Int) -> Duration {
        let began = clock.now
        for request in requests {
            precondition(source.reply(to: request)?.status == status, "a benchmark request was not answered \(status)")
        }
        return (clock.now - began) / requests.count
    }
    var times: [[Duration]] = [[], [], [], []]
    for _ in 0..<7 {
        try stateful.store.load(contents)
        times[0].append(timed(stateless, creates, expecting: 201))
        times[1].append(timed(stateful, creates, expecting: 201))
        times[2].append(timed(stateless, reads, expecting: 200))
        times[3].append(timed(stateful, reads, expecting: 200))
    }
    func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
    for (name, without, with) in [
        ("a create", median(times[0]), median(times[1])), ("a read by id", median(times[2]), median(times[3])),
    ] {
        let ratio = seconds(with) / seconds(without)
        print(
            String(
                format: "%@ among 10,000 items, stateful vs stateless (the contract source alone): %.2f× "
                    + "(%.1f µs vs %.1f µs) %@", name, ratio, seconds(with) * 1e6, seconds(without) * 1e6,
                ratio <= 1.2 ? "ok (budget ≤ 1.2)" : "OVER BUDGET (≤ 1.2)"))
    }
}

#if canImport(Glibc)
    import Glibc

    /// `serve --openapi --stateful` against `serve --openapi` under `wrk -t2 -c16`: reads by id of
    /// 50 pets, with one create in 20 requests; the stateful server starts each round from the
    /// same 50 (`--data`, put back by the admin reset). Budget ≥ 0.5 of the stateless server.
    func printStatefulServeRow(rounds: Int, seconds: Int = 5) throws {
        guard installed("wrk") else {
            print("  serve --stateful: skipped (needs wrk)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-state-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("logs"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let contract = folder.appendingPathComponent("shop.json")
        try Data(shopContract.utf8).write(to: contract)
        let data = folder.appendingPathComponent("pets.json")
        let pets: [JSONValue] = (1...50).map { ["id": .int($0), "name": .string("pet \($0)")] }
        try JSONValue.object(["/pets": .array(pets)]).serialized().write(to: data)
        let script = folder.appendingPathComponent("mixed.lua")
        try Data(
            """
            local n = 0
            request = function()
              n = n + 1
              if n % 20 == 0 then
                return wrk.format("POST", "/pets", {["Content-Type"] = "application/json"}, '{"name": "Rex"}')
              end
              return wrk.format("GET", "/pets/" .. (n % 50 + 1))
            end
            """.utf8
        ).write(to: script)
        let stateless = startCommand(
            ["--openapi", contract.path], log: folder.appendingPathComponent("logs/stateless.log"))
        let stateful = startCommand(
            ["--openapi", contract.path, "--stateful", "--data", data.path, "--admin"],
            log: folder.appendingPathComponent("logs/stateful.log"))
        defer {
            for pid in [stateless?.pid, stateful?.pid].compactMap(\.self) {
                kill(pid, SIGTERM)
                _ = reap(pid)
            }
        }
        guard let stateless, let stateful else {
            print("  serve --stateful: skipped (the command did not start)")
            return
        }
        /// Requests a second, and the answers that weren't 2xx (a create past the bounds).
        func mixed(_ base: String, seconds: Int) -> (rate: Double, failed: Int)? {
            let result = runToEnd("wrk", ["-t2", "-c16", "-d\(seconds)s", "-s", script.path, base])
            let lines = result.output.split(separator: "\n")
            guard let line = lines.first(where: { $0.hasPrefix("Requests/sec:") }),
                let rate = Double(line.dropFirst("Requests/sec:".count).trimmingCharacters(in: .whitespaces))
            else { return nil }
            let failed = lines.first { $0.contains("Non-2xx or 3xx responses:") }.flatMap {
                Int($0.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "")
            }
            return (rate, failed ?? 0)
        }
        func reset() { _ = runToEnd("curl", ["-s", "-X", "POST", stateful.base + "/__admin/reset"]) }
        for base in [stateless.base, stateful.base] { _ = mixed(base, seconds: 1) }
        var rates: [[Double]] = [[], []]
        var failed = 0
        for _ in 0..<rounds {
            if let result = mixed(stateless.base, seconds: seconds) { rates[0].append(result.rate) }
            reset()
            if let result = mixed(stateful.base, seconds: seconds) {
                rates[1].append(result.rate)
                failed += result.failed
            }
        }
        func median(_ values: [Double]) -> Double? { values.isEmpty ? nil : values.sorted()[values.count / 2] }
        guard let without = median(rates[0]), let with = median(rates[1]) else {
            print("  serve --stateful: skipped (wrk printed no rate)")
            return
        }
        let share = with / without
        print(
            String(
                format: "  serve --openapi --stateful, reads by id and 1 create in 20 (wrk -t2 -c16): %.0f req/s "
                    + "against %.0f without state: %.2f  ", with, without, share)
                + (share >= 0.5 ? "ok (budget ≥ 0.5)" : "UNDER BUDGET (≥ 0.5)")
                + (failed == 0 ? "" : " (\(failed) answers not 2xx)"))
    }
#else
    func printStatefulServeRow(rounds: Int, seconds: Int = 5) throws {
        print("  serve --stateful: skipped (measured on Linux only)")
    }
#endif
