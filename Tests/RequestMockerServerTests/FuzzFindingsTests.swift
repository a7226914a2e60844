import Foundation
import RequestMockerFuzzing
import RequestMockerTestSupport
import Testing

/// Every input the fuzzer, or the adversarial run before it, found crashing or hanging a parser
/// is kept under Fixtures/Fuzz/TARGET/ and must now run to the end, on the library's smallest
/// thread stack.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct FuzzFindingsTests {
    static let fixtures = Bundle.module.url(forResource: "Fuzz", withExtension: nil, subdirectory: "Fixtures")

    static var findings: [String] {
        guard let fixtures else { return [] }
        return FuzzTarget.all.flatMap { target in
            let folder = fixtures.appendingPathComponent(target.name)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            return names.sorted().map { "\(target.name)/\($0)" }
        }
    }

    @Test func everyTargetHasFindingsToReplay() {
        let targets = Set(Self.findings.map { String($0.split(separator: "/")[0]) })
        #expect(targets == Set(FuzzTarget.all.map(\.name)))
    }

    @Test(arguments: findings)
    func aFindingRunsToTheEnd(_ finding: String) async throws {
        let fixtures = try #require(Self.fixtures)
        let target = try #require(FuzzTarget.named(String(finding.split(separator: "/")[0])))
        let input = try Data(contentsOf: fixtures.appendingPathComponent(finding))
        // A hang fails by the deadline (and leaves its thread behind); a crash ends the test run.
        let ranToTheEnd = try await onThread(within: 60) { () -> Bool in
            target.run(input)
            return true
        }
        #expect(ranToTheEnd)
    }
}
