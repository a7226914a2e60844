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

    /// A stubs file's GraphQL stubs (a `"graphql"` request with a `json` answer), each answer
    /// checked against the schema as a mocks file's operation is: a stub names its operation,
    /// not its text, so its values are checked by their fields' types, not by a selection.
    package func check(stubsFile file: URL) throws(RequestMockerError) -> (findings: [CheckFinding], checked: Int) {
        let stubs = try Stub.stubs(contentsOf: file)
        let positions = DocumentPositions((try? Data(contentsOf: file)) ?? Data(), file: file)
        var findings: [CheckFinding] = []
        var checked = 0
        for (index, stub) in stubs.enumerated() {
            guard case .object(let request)? = stub.json["request"], case .object(let graphQL)? = request["graphql"],
                case .object(let response)? = stub.json["response"], let answer = response["json"]
            else { continue }
            let line = positions.position(of: [.key("stubs"), .index(index)])?.line ?? 1
            let label = graphQL["operationName"]?.stringValue ?? "any operation"
            checked += 1
            do {
                _ = try GraphQLMocks.checkedAnswer(answer, against: schema)
            } catch {
                for problem in error.problems {
                    let message = problem.message
                    var finding = CheckFinding(
                        place: "\(file.relativePath):\(line)", isError: true,
                        message: "\(label): response.json.\(message)")
                    finding.operation = label
                    finding.location = "response"
                    // `data.hero.friends[0].name: …` as a JSON pointer: `/data/hero/friends/0/name`.
                    if let path = message.components(separatedBy: ": ").first, !path.contains(" ") {
                        finding.pointer =
                            "/"
                            + path.replacingOccurrences(of: "[", with: ".").replacingOccurrences(of: "]", with: "")
                            .split(separator: ".").map { GraphQLAnswerCheck.escaped(String($0)) }.joined(separator: "/")
                    }
                    findings.append(finding)
                }
            }
        }
        return (findings, checked)
    }
}
