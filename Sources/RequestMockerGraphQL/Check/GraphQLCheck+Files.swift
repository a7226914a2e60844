import Foundation
import RequestMocker

extension GraphQLCheck {
    /// What a mock-data folder's files answer, each GraphQL exchange checked; and why the files
    /// that aren't exchanges weren't.
    package mutating func check(folder: URL) throws -> (findings: [CheckFinding], checked: Int, skipped: [String]) {
        let base = URL(fileURLWithPath: "/").deletingLastPathComponent()
        let (entries, skipped) = try TrafficConversion.entries(ofMockDataFolder: folder, base: base)
        var findings: [CheckFinding] = []
        var checked = 0
        for (file, interaction) in entries {
            guard let response = interaction.response else { continue }
            let place = folder.appendingPathComponent(file).relativePath + ":1"
            guard let found = check(interaction.request, answeredWith: response, at: place) else { continue }
            findings += found
            checked += 1
        }
        return (findings, checked, skipped.map { folder.relativePath + "/" + $0 })
    }

    /// What a cassette's recordings answer, each GraphQL exchange checked, in the order they
    /// were recorded (a persisted query's hash stands for the text an earlier entry sent).
    package mutating func check(cassette file: URL) throws -> (findings: [CheckFinding], checked: Int) {
        let cassette = try Cassette(
            contentsOf: file, record: .none, playback: .momentary, matchers: CassetteMatcher.default,
            redaction: .default, hosts: .all, repeatsLastResponse: false, environment: [:])
        let positions = DocumentPositions((try? Data(contentsOf: file)) ?? Data(), file: file)
        var findings: [CheckFinding] = []
        var checked = 0
        for (index, interaction) in cassette.interactions.enumerated() {
            guard let response = interaction.response else { continue }
            let line = positions.position(of: [.key("log"), .key("entries"), .index(index)])?.line ?? 1
            guard let found = check(interaction.request, answeredWith: response, at: "\(file.relativePath):\(line)")
            else { continue }
            checked += 1
            findings += found.map { finding in
                var finding = finding
                finding.entry = index
                return finding
            }
        }
        return (findings, checked)
    }

    /// A stubs file's GraphQL stubs, each answer `serve --graphql` would shape (a `json` answer
    /// without a status, headers or template of its own, a sequence's too) checked against the
    /// schema as a mocks file's operation is: a stub names its operation, not its text, so its
    /// values are checked by their fields' types, not by a selection.
    package func check(stubsFile file: URL) throws(RequestMockerError) -> (findings: [CheckFinding], checked: Int) {
        // Read as `serve` reads it; an `"openapi"` stub is another contract's to check, so any
        // declared response stands in for it here.
        let stubs = try Stub.stubs(contentsOf: file, contract: UncheckedStubContract())
        let positions = DocumentPositions((try? Data(contentsOf: file)) ?? Data(), file: file)
        var findings: [CheckFinding] = []
        var checked = 0
        for (index, stub) in stubs.enumerated() {
            guard case .object(let request)? = stub.json["request"], case .object(let graphQL)? = request["graphql"],
                case .object(let response)? = stub.json["response"]
            else { continue }
            let line = positions.position(of: [.key("stubs"), .index(index)])?.line ?? 1
            let label = graphQL["operationName"]?.stringValue ?? "any operation"
            var answers: [(answer: JSONValue, path: String)] = []
            if case .array(let sequence)? = response["sequence"] {
                for (step, element) in sequence.enumerated() {
                    if case .object(let members) = element, let answer = Self.shapedAnswer(members) {
                        answers.append((answer, "response.sequence[\(step)].json"))
                    }
                }
            } else if let answer = Self.shapedAnswer(response) {
                answers.append((answer, "response.json"))
            }
            checked += answers.isEmpty ? 0 : 1
            for (answer, path) in answers {
                findings += problems(of: answer, at: "\(file.relativePath):\(line)", path: path, label: label)
            }
        }
        return (findings, checked)
    }

    /// The answer a response's members give that the schema shapes: a `json` answer without a
    /// status, headers or template (one with them is sent as written).
    private static func shapedAnswer(_ response: [String: JSONValue]) -> JSONValue? {
        guard let answer = response["json"], response["status"] == nil, response["headers"] == nil,
            response["template"] == nil || response["template"] == .bool(false)
        else { return nil }
        return answer
    }

    /// What of a stub's `answer` doesn't fit the schema, as findings.
    private func problems(of answer: JSONValue, at place: String, path: String, label: String) -> [CheckFinding] {
        do {
            _ = try GraphQLMocks.checkedAnswer(answer, against: schema)
            return []
        } catch {
            return error.problems.map { problem in
                // `data.hero.name: …` under the answer's path, or `answer: …` about the whole of it.
                let message = problem.message
                let whole = message.hasPrefix("answer:")
                let text = whole ? path + message.dropFirst("answer".count) : "\(path).\(message)"
                var finding = CheckFinding(place: place, isError: true, message: "\(label): \(text)")
                finding.operation = label
                finding.location = "response"
                // `data.hero.friends[0].name: …` as a JSON pointer: `/data/hero/friends/0/name`.
                if !whole, let steps = message.components(separatedBy: ": ").first, !steps.contains(" ") {
                    finding.pointer =
                        "/"
                        + steps.replacingOccurrences(of: "[", with: ".").replacingOccurrences(of: "]", with: "")
                        .split(separator: ".").map { GraphQLAnswerCheck.escaped(String($0)) }.joined(separator: "/")
                }
                return finding
            }
        }
    }
}
