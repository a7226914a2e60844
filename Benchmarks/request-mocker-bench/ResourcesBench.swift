import Foundation
import RequestMocker
import RequestMockerOpenAPI

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

/// The median time of a create (500 a round, from 9,500 items up) and of a read by id (2,000 a
/// round, spread over the items), over 7 rounds, stateful against stateless: sent with
/// URLSession through `MockURLProtocol`, as a test sends them (the budget, ≤ 1.2×), and beside
/// it the contract source alone, without a transport, where the stateful work is a larger share.
///
/// `--stateful-only`: the stateful requests to the source alone, 50 rounds, for a profiler.
func printResourceRows(profiling: Bool = false) async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
        "rm-bench-resources-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("shop.json")
    try Data(shopContract.utf8).write(to: file)
    let contract = try OpenAPIContract(contentsOf: file)
    /// A source, and a session answered by a registry holding it.
    func setup(remembering: Bool) -> (ContractSource, URLSession, MockRegistry) {
        let source = ContractSource(
            contract: contract, validation: .strict, generation: .static, basePath: nil, remembering: remembering)
        let registry = MockRegistry()
        registry.journalCapacity = 100
        registry.register(source)
        return (source, registry.makeSession(), registry)
    }
    let (stateless, statelessSession, statelessRegistry) = setup(remembering: false)
    let (stateful, statefulSession, statefulRegistry) = setup(remembering: true)
    let start = 9_500
    let pets: [JSONValue] = (1...start).map { ["id": .int($0), "name": .string("pet \($0)"), "tag": "bench"] }
    let seed = try DocumentNode.parseJSON([UInt8](try JSONValue.object(["/pets": .array(pets)]).serialized()))
    let contents = try stateful.resourceContents(of: seed, from: .value("the benchmark's seed"))
    func request(_ method: String, _ path: String, _ body: String? = nil) -> URLRequest {
        guard let url = URL(string: "https://shop.example" + path) else { preconditionFailure("a benchmark URL") }
        var request = URLRequest(url: url)
        request.httpMethod = method
        if let body {
            request.httpBody = Data(body.utf8)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }
    let creates = (0..<500).map { request("POST", "/pets", #"{"name": "new \#($0)", "tag": "bench"}"#) }
    let reads = (0..<2_000).map { request("GET", "/pets/\($0 * 7919 % start + 1)") }
    let clock = ContinuousClock()
    /// Each request's time, answered by the source alone.
    func alone(_ source: ContractSource, _ requests: ArraySlice<URLRequest>, expecting status: Int) -> [Duration] {
        requests.map { request in
            let began = clock.now
            let reply = source.reply(to: MockRequest(request))
            let time = clock.now - began
            precondition(reply?.status == status, "a benchmark request was not answered \(status)")
            return time
        }
    }
    /// Each request's time, sent through the session.
    func sent(
        _ session: URLSession, _ requests: ArraySlice<URLRequest>, expecting status: Int
    ) async throws -> [Duration] {
        var times: [Duration] = []
        for request in requests {
            let began = clock.now
            let (_, response) = try await session.data(for: request)
            times.append(clock.now - began)
            precondition(
                (response as? HTTPURLResponse)?.statusCode == status, "a benchmark request was not answered \(status)")
        }
        return times
    }
    // Stateless and stateful, creates and reads, alone and through URLSession, in blocks of 50
    // taken in turn, so a slower moment of the machine falls on both sides alike.
    var times: [[Duration]] = Array(repeating: [], count: 8)
    for _ in 0..<(profiling ? 50 : 7) {
        try stateful.store.load(contents)
        for block in stride(from: 0, to: creates.count, by: 50) {
            let part = creates[block..<block + 50]
            if !profiling { times[0] += alone(stateless, part, expecting: 201) }
            times[1] += alone(stateful, part, expecting: 201)
        }
        for block in stride(from: 0, to: reads.count, by: 50) {
            let part = reads[block..<block + 50]
            if !profiling { times[2] += alone(stateless, part, expecting: 200) }
            times[3] += alone(stateful, part, expecting: 200)
        }
        guard !profiling else { continue }
        try stateful.store.load(contents)
        for block in stride(from: 0, to: creates.count, by: 50) {
            let part = creates[block..<block + 50]
            times[4] += try await sent(statelessSession, part, expecting: 201)
            times[5] += try await sent(statefulSession, part, expecting: 201)
        }
        for block in stride(from: 0, to: reads.count, by: 50) {
            let part = reads[block..<block + 50]
            times[6] += try await sent(statelessSession, part, expecting: 200)
            times[7] += try await sent(statefulSession, part, expecting: 200)
        }
        statelessRegistry.clearJournal()
        statefulRegistry.clearJournal()
    }
    statelessSession.invalidateAndCancel()
    statefulSession.invalidateAndCancel()
    guard !profiling else { return }
    func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
    for (name, offset) in [("a create", 0), ("a read by id", 2)] {
        let (without, with) = (median(times[4 + offset]), median(times[5 + offset]))
        let (withoutAlone, withAlone) = (median(times[offset]), median(times[offset + 1]))
        let ratio = seconds(with) / seconds(without)
        print(
            String(
                format: "%@ among 10,000 items, stateful vs stateless, with URLSession: %.2f× (%.1f µs vs %.1f µs) "
                    + "%@; the contract source alone: %.2f× (%.1f µs vs %.1f µs)", name, ratio, seconds(with) * 1e6,
                seconds(without) * 1e6, ratio <= 1.2 ? "ok (budget ≤ 1.2)" : "OVER BUDGET (≤ 1.2)",
                seconds(withAlone) / seconds(withoutAlone), seconds(withAlone) * 1e6, seconds(withoutAlone) * 1e6))
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "rm-bench-state-\(UUID().uuidString)")
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
        defer { stopCommands([stateless?.pid, stateful?.pid]) }
        guard let stateless, let stateful else {
            print("  serve --stateful: skipped (the command did not start)")
            return
        }
        /// Requests a second, and the answers that weren't 2xx (a create past the bounds).
        func mixed(_ base: String, seconds: Int) -> (rate: Double, failed: Int)? {
            let result = runToEnd("wrk", ["-t2", "-c16", "-d\(seconds)s", "-s", script.path, base])
            return wrkFigures(result.output).map { ($0.rate, $0.failed) }
        }
        // A call that changes something is JSON, as the admin API requires.
        func reset() {
            _ = runToEnd(
                "curl", ["-s", "-X", "POST", "-H", "Content-Type: application/json", stateful.base + "/__admin/reset"])
        }
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
