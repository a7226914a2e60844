import Foundation
import RequestMocker
import RequestMockerOpenAPI

// `--openapi-only` (also run, in a process of its own, at the end of the full table): reading
// OpenAI's contract (3.4 MB of JSON, 288 operations: parsed, every operation's schemas compiled,
// its examples checked), whose peak resident memory is then this process's; a request's way
// through contracts of 10 and 10,000 operations; validating a 1 MiB body; generating bodies.

/// The contracts folder beside the checkout (the project's test data), if it is there.
let sharedContracts = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("shared/openapi")

/// Prints the best of five reads of OpenAI's `openapi.json`, this process's peak resident memory
/// after them, and JSONSerialization's parse of the same bytes for scale.
func printOpenAPIRows() throws {
    let file = sharedContracts.appendingPathComponent("openai/openapi.json")
    guard FileManager.default.fileExists(atPath: file.path) else {
        print("openapi: skipped (\(file.path) is not there)")
        return
    }
    let clock = ContinuousClock()
    var reads: [Duration] = []
    var operations = 0
    for _ in 0..<5 {
        let start = clock.now
        operations = try OpenAPIContract(contentsOf: file).operations.count
        reads.append(clock.now - start)
    }
    // Before JSONSerialization's parses, so the peak is the reader's.
    let peak = peakResidentMiB(of: getpid())
    var parses: [Duration] = []
    for _ in 0..<5 {
        let start = clock.now
        _ = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
        parses.append(clock.now - start)
    }
    let read = seconds(reads.min() ?? .zero)
    let parse = seconds(parses.min() ?? .zero)
    print(
        String(
            format: "read OpenAI's openapi.json (%d operations): %.0f ms, %.2f× JSONSerialization's %.0f ms; "
                + "peak resident %.0f MiB (best of 5)", operations, read * 1000, read / parse, parse * 1000,
            peak))
}

/// A request's latency through a contract of 10,000 operations against one of 10, sent with
/// URLSession through `MockURLProtocol` (routed, its path parameter checked, the example
/// chosen): the median over 7 interleaved rounds of 2,000 requests spread over the operations.
/// Budget (issue 31): ≤ 1.2×. Beside it, the contract source alone (no transport), where the
/// larger contract's cache misses are a larger share.
func printRoutingRow() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rm-bench-openapi-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    struct Setup {
        let source: ContractSource
        let session: URLSession
        let requests: [URLRequest]
        let registry: MockRegistry
    }
    func setup(operations: Int) throws -> Setup {
        let paths = (0..<operations).map { index in
            #""/service\#(index)/items/{id}": {"get": {"operationId": "get\#(index)", "parameters": [{"name": "id", "#
                + #""in": "path", "required": true, "schema": {"type": "integer", "minimum": 0}}], "responses": {"#
                + #""200": {"description": "An item", "content": {"application/json": {"example": {"id": 7}}}}}}}"#
        }
        let file = folder.appendingPathComponent("\(operations).json")
        try Data(#"{"openapi": "3.1.0", "paths": {\#(paths.joined(separator: ", "))}}"#.utf8).write(to: file)
        let contract = try OpenAPIContract(contentsOf: file)
        let registry = MockRegistry()
        registry.journalCapacity = 100
        registry.register(contract)
        let requests = (0..<2_000).compactMap { index in
            URL(string: "https://bench.test/service\(index * 7919 % operations)/items/\(index)").map {
                URLRequest(url: $0)
            }
        }
        let source = ContractSource(contract: contract, validation: .strict, generation: .static, basePath: nil)
        return Setup(source: source, session: registry.makeSession(), requests: requests, registry: registry)
    }
    let setups = [try setup(operations: 10), try setup(operations: 10_000)]
    let clock = ContinuousClock()
    var latencies: [[Duration]] = [[], []]
    var alone: [[Duration]] = [[], []]
    for _ in 0..<7 {
        for (index, setup) in setups.enumerated() {
            for request in setup.requests {
                let start = clock.now
                let (_, response) = try await setup.session.data(for: request)
                latencies[index].append(clock.now - start)
                precondition(
                    (response as? HTTPURLResponse)?.statusCode == 200, "a benchmark request was not answered 200")
            }
            let start = clock.now
            for request in setup.requests {
                precondition(setup.source.reply(to: MockRequest(request))?.status == 200)
            }
            alone[index].append((clock.now - start) / setup.requests.count)
        }
    }
    for setup in setups { setup.session.invalidateAndCancel() }
    func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
    let (small, large) = (median(latencies[0]), median(latencies[1]))
    let ratio = seconds(large) / seconds(small)
    let (smallAlone, largeAlone) = (median(alone[0]), median(alone[1]))
    print(
        String(
            format: "a request through a contract of 10,000 operations vs 10, with URLSession: %.2f× "
                + "(%.1f µs vs %.1f µs) %@; the contract source alone: %.2f× (%.1f µs vs %.1f µs)",
            ratio, seconds(large) * 1e6, seconds(small) * 1e6,
            ratio <= 1.2 ? "ok (budget ≤ 1.2)" : "OVER BUDGET (≤ 1.2)",
            seconds(largeAlone) / seconds(smallAlone), seconds(largeAlone) * 1e6, seconds(smallAlone) * 1e6))
}

/// Generating bodies: a dynamic body of about 200 values (budget ≤ 1 ms), and the worst body,
/// one that runs into the 2,500-value bound (budget ≤ 50 ms); the median of 101 of each.
func printGenerationRows() throws {
    let properties = (0..<40).map {
        #""p\#($0)": {"type": "object", "properties": {"a": {"type": "string", "#
            + #""format": "date-time"}, "b": {"type": "integer", "minimum": 1}, "c": {"enum": ["x", "y"]}, "#
            + #""d": {"type": "string", "pattern": "^[A-Z]{3}[0-9]{4}$"}}}"#
    }
    let schema = try SchemaCompiler.compile(
        json: Array(#"{"type": "object", "properties": {\#(properties.joined(separator: ", "))}}"#.utf8),
        as: URL(fileURLWithPath: "/bench/generated.json"))
    let huge = try SchemaCompiler.compile(
        json: Array(
            (#"{"type": "array", "minItems": 100, "items": {"type": "array", "minItems": 30, "#
                + #""items": {"type": "integer"}}}"#).utf8),
        as: URL(fileURLWithPath: "/bench/huge.json"))
    let clock = ContinuousClock()
    var nodes = 0
    var dynamic: [Duration] = []
    var worst: [Duration] = []
    for seed in 0..<101 {
        var start = clock.now
        let value = try SchemaGenerator.value(for: schema, direction: .response, seed: UInt64(seed))
        dynamic.append(clock.now - start)
        if case .object(let members) = value.jsonValue {
            nodes = 1 + members.count * 5
        }
        start = clock.now
        precondition((try? SchemaGenerator.value(for: huge, direction: .response)) == nil)
        worst.append(clock.now - start)
    }
    let (body, bound) = (seconds(dynamic.sorted()[50]) * 1000, seconds(worst.sorted()[50]) * 1000)
    print(
        String(
            format: "generate a dynamic body of %d values: %.3f ms %@; the worst body (past 2,500 values): %.1f ms %@",
            nodes, body, body <= 1 ? "ok (budget ≤ 1 ms)" : "OVER BUDGET (≤ 1 ms)", bound,
            bound <= 50 ? "ok (budget ≤ 50 ms)" : "OVER BUDGET (≤ 50 ms)"))
}

/// Validating a 1 MiB JSON body (an array of objects with strings, numbers, a pattern, a format
/// and an enum) against its schema, next to parsing the same bytes: best of 5 each. Budget
/// (issue 31): the validation at most 2× the parse.
func printValidationRow(rounds: Int = 5) throws {
    let item =
        #"{"id": 12345, "name": "Ada Lovelace", "sid": "CA0123456789abcdef0123456789abcdef", "#
        + #""created": "2026-11-27T09:30:00Z", "status": "active", "score": 0.5, "tags": ["a", "b", "c"]}"#
    let count = 1_048_576 / (item.utf8.count + 2)
    let body = Data(("[" + Array(repeating: item, count: count).joined(separator: ", ") + "]").utf8)
    let schemaText: String =
        #"{"type": "array", "items": {"type": "object", "required": ["id", "name"], "#
        + #""additionalProperties": false, "properties": {"id": {"type": "integer", "minimum": 1}, "#
        + #""name": {"type": "string", "maxLength": 100}, "#
        + #""sid": {"type": "string", "pattern": "^CA[0-9a-fA-F]{32}$"}, "#
        + #""created": {"type": "string", "format": "date-time"}, "status": {"enum": ["active", "closed"]}, "#
        + #""score": {"type": "number", "multipleOf": 0.25}, "tags": {"type": "array", "items": {"type": "string"}}}}}"#
    let schema = try SchemaCompiler.compile(
        json: Array(schemaText.utf8), as: URL(fileURLWithPath: "/bench/schema.json"))
    let clock = ContinuousClock()
    var parses: [Duration] = []
    var checks: [Duration] = []
    for _ in 0..<rounds {
        var start = clock.now
        let value = try JSONValue(parsing: body)
        parses.append(clock.now - start)
        start = clock.now
        let violations = SchemaValidator.violations(of: value, against: schema, direction: .request)
        checks.append(clock.now - start)
        precondition(violations.isEmpty, "the benchmark body is invalid: \(violations.prefix(3))")
    }
    let (parse, check) = (seconds(parses.min() ?? .zero), seconds(checks.min() ?? .zero))
    print(
        String(
            format: "validate a 1 MiB body (%d objects) vs parsing it: %.2f× (%.0f ms vs %.0f ms) %@", count,
            check / parse,
            check * 1000, parse * 1000, check / parse <= 2 ? "ok (budget ≤ 2)" : "OVER BUDGET (≤ 2)"))
}
