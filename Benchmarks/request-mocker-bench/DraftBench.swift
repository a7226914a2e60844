import Foundation
import RequestMocker
import RequestMockerOpenAPI

// `--draft-only` (also in the full table): `request-mocker draft`'s work, drafting a contract
// from 10,000 and from 100,000 recorded exchanges, each count in a process of its own so its
// peak resident memory is its own. Budgets (issue 38): the larger ≤ 11× the time of the smaller,
// and ≤ 2× its peak memory.

/// Prints the draft row: two child processes (`--draft-exchanges N`), then the ratios.
func printDraftRow() {
    let executable = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL.path
    var results: [(seconds: Double, peak: Double)] = []
    for count in [10_000, 100_000] {
        let run = runToEnd(executable, ["--draft-exchanges", String(count)])
        let fields = run.output.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        guard run.status == 0, fields.count == 2 else {
            print("  draft: skipped (the measuring process for \(count) exchanges failed: \(run.output))")
            return
        }
        results.append((fields[0], fields[1]))
    }
    let time = results[1].seconds / results[0].seconds
    let memory = results[1].peak / results[0].peak
    print(
        String(
            format: "  draft 10,000 exchanges: %.2f s, peak %.0f MiB; 100,000: %.2f s, peak %.0f MiB",
            results[0].seconds, results[0].peak, results[1].seconds, results[1].peak))
    print(
        String(
            format: "  draft, 100,000 vs 10,000 exchanges: time %.1f× %@, peak memory %.2f× %@", time,
            time <= 11 ? "ok (budget ≤ 11×)" : "OVER BUDGET (≤ 11×)", memory,
            memory <= 2 ? "ok (budget ≤ 2×)" : "OVER BUDGET (≤ 2×)"))
}

/// `--draft-exchanges N`: drafts a contract from `count` generated exchanges (made one at a
/// time, as a cassette's are read, and dropped after they are added) and prints the seconds the
/// draft took and this process's peak resident memory in MiB.
func draftGeneratedExchanges(_ count: Int) -> Never {
    let clock = ContinuousClock()
    let draft = ContractDraft()
    var elapsed = Duration.zero
    var traffic = GeneratedTraffic()
    for index in 0..<count {
        let exchange = traffic.exchange(index)
        let start = clock.now
        draft.add(exchange)
        elapsed += clock.now - start
    }
    let start = clock.now
    let yaml = draft.yaml()
    elapsed += clock.now - start
    guard !yaml.isEmpty else { exit(1) }
    print(String(format: "%.4f %.1f", seconds(elapsed), peakResidentMiB(of: getpid())))
    exit(0)
}

/// Recorded traffic of an app with a dozen operations: ids of every shape, queries, JSON bodies
/// of nested objects, tagged events, the same every run.
struct GeneratedTraffic {
    private var state: UInt64 = 0x9E37_79B9_7F4A_7C15

    private mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    private mutating func user(_ id: Int) -> String {
        let manager = next(3) == 0 ? "null" : #"{"id": \#(next(1000)), "name": "Boss \#(next(50))"}"#
        let tags = (0..<next(4)).map { _ in #""tag\#(next(20))""# }.joined(separator: ", ")
        return #"""
            {"id": \#(id), "name": "User \#(id)", "email": "user\#(id)@example.com", "created": \#
            "2026-11-\#(10 + next(18))T10:\#(10 + next(49)):00Z", \#
            "role": "\#(["admin", "member", "guest"][next(3)])", \#
            "tags": [\#(tags)], "address": {"street": "\#(next(999)) Main St", "city": "City \#(next(40))"}, \#
            "manager": \#(manager), "score": \#(Double(next(10_000)) / 100)}
            """#
    }

    private mutating func uuid() -> String {
        let hex = (0..<32).map { _ in String(next(16), radix: 16) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }

    mutating func exchange(_ index: Int) -> Interaction {
        let json: HTTPHeaders = ["Content-Type": "application/json"]
        var method = "GET"
        var target: String
        var requestBody: String?
        var status = 200
        var body: String
        switch index % 12 {
        case 0:
            let id = next(100_000)
            (target, body) = ("/users/\(id)", user(id))
        case 1:
            target = "/users?page=\(next(50))&per_page=20"
            body = "[" + (0..<5).map { _ in user(next(100_000)) }.joined(separator: ", ") + "]"
        case 2:
            let id = next(100_000)
            (method, target, status) = ("POST", "/users", 201)
            requestBody = #"{"name": "User \#(id)", "email": "user\#(id)@example.com"}"#
            body = user(id)
        case 3:
            let items = (0..<1 + next(5)).map { _ in
                #"{"sku": "SKU-\#(next(500))", "quantity": \#(1 + next(9)), "price": \#(Double(next(9999)) / 100)}"#
            }
            target = "/orders/\(uuid())"
            let status = ["open", "paid", "shipped"][next(3)]
            body = #"{"id": "\#(uuid())", "status": "\#(status)", "items": [\#(items.joined(separator: ", "))]}"#
        case 4:
            target = "/orders/\(uuid())/items/\(next(20))"
            body = #"{"sku": "SKU-\#(next(500))", "quantity": \#(1 + next(9))}"#
        case 5:
            (method, target, status, body) = ("DELETE", "/users/\(next(100_000))", 204, "")
        case 6:
            target = "/search?q=word\(next(1000))"
            body = #"{"hits": [\#(user(next(1000)))], "total": \#(next(500))}"#
        case 7:
            target = "/files/file\(next(1000)).txt/checkpoints"
            body = #"[{"id": "c\#(next(9))", "last_modified": "2026-11-28T10:00:00Z"}]"#
        case 8:
            target = "/events"
            body =
                next(2) == 0
                ? #"[{"type": "click", "x": \#(next(800)), "y": \#(next(600))}]"#
                : #"[{"type": "key", "code": "Key\#(next(26))"}]"#
        case 9:
            (method, target) = ("PATCH", "/users/\(next(100_000))")
            requestBody = #"{"name": "Renamed \#(next(100))"}"#
            body = user(next(100_000))
        case 10:
            (target, body) = ("/v1/status", #"{"ok": true, "version": "1.\#(next(9))"}"#)
        default:
            let team = (0..<16).map { _ in String(next(16), radix: 16) }.joined()
            target = "/teams/\(team)/members"
            body = "[" + (0..<3).map { _ in user(next(1000)) }.joined(separator: ", ") + "]"
        }
        var headers: HTTPHeaders = ["Authorization": "Bearer token\(next(1000))", "Accept": "application/json"]
        if requestBody != nil { headers.add(.contentType, "application/json") }
        return Interaction(
            request: MockRequest(
                method: HTTPMethod(rawValue: method), url: URL(string: "https://api.example.com" + target)!,
                headers: headers, body: requestBody.map { Data($0.utf8) }),
            result: .success(
                RecordedResponse(
                    status: HTTPStatus(status), headers: status == 204 ? [:] : json, body: Data(body.utf8))),
            startedAt: Date(timeIntervalSince1970: 0), duration: .milliseconds(1))
    }
}
