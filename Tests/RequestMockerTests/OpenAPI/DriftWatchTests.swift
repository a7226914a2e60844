import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// How `serve --upstream-first` keeps its drift report: in order, bounded, without a secret's
/// value, starting over for an edited contract.
@Suite(.timeLimit(.minutes(1)), .hangGuard) struct DriftWatchTests {
    static let contract = """
        openapi: 3.1.0
        info: {title: Shop, version: "1"}
        paths:
          /pets/{petId}:
            get:
              operationId: getPet
              parameters: [{name: api_key, in: query, schema: {type: integer}}]
              responses:
                "200":
                  description: a pet
                  content:
                    application/json:
                      schema:
                        type: object
                        properties:
                          id: {type: integer}
                          owner: {type: object, properties: {password: {type: integer}}}
                          profile: {type: string}
        """

    static func source(_ text: String = contract) throws -> (ContractSource, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let url = try folder.write("openapi.yaml", text)
        let source = ContractSource(
            contract: try OpenAPIContract(contentsOf: url), validation: .strict, generation: .static, basePath: nil)
        return (source, folder)
    }

    static func check(_ watch: DriftWatch, _ target: String, _ body: String) -> [DriftWatch.Checked] {
        let exchange = DraftCorpus.exchange(target, response: body)
        guard let response = exchange.response else { return [] }
        return watch.check(exchange.request, answeredWith: response).1
    }

    @Test func aValueNamedAsASecretIsLeftOutOfItsFindingAndOthersAreQuoted() throws {
        let (source, _) = try Self.source()
        let watch = DriftWatch(source)
        let found = Self.check(
            watch, "/pets/1?api_key=sk-9",
            #"{"id": "x", "owner": {"password": "hunter2"}, "profile": {"name": "Ada", "session_id": "s-77"}}"#)
        #expect(
            found.map(\.finding.message) == [
                "GET /pets/1 request: query api_key: the value breaks its schema (not shown: a name marks it as a "
                    + "secret)",
                #"GET /pets/{petId} 200: /id: expected integer, got "x""#,
                "GET /pets/{petId} 200: /owner/password: the value breaks its schema (not shown: a name marks it "
                    + "as a secret)",
                "GET /pets/{petId} 200: /profile: the value breaks its schema (not shown: a name marks it as a "
                    + "secret)",
            ])
        #expect(found.map(\.isNew) == [true, true, true, true])
        #expect(found.allSatisfy { $0.finding.entry == 0 })
    }

    @Test func findingsGroupAcrossExchangesAndAnEditedContractStartsTheReportOver() throws {
        let (source, folder) = try Self.source()
        let watch = DriftWatch(source)
        #expect(Self.check(watch, "/pets/1", #"{"id": "a"}"#).map(\.isNew) == [true])
        #expect(Self.check(watch, "/pets/2", #"{"id": "b"}"#).map(\.isNew) == [false])
        #expect(watch.report.groups.map(\.count) == [2])
        #expect(watch.report.groups.first?.examples.compactMap(\.entry) == [0, 1])
        let edited = try folder.write(
            "edited.yaml", Self.contract.replacingOccurrences(of: "id: {type: integer}", with: "id: {type: string}"))
        source.reload(try OpenAPIContract(contentsOf: edited))
        #expect(Self.check(watch, "/pets/3", #"{"id": "c"}"#).isEmpty)
        #expect(watch.report.groups.isEmpty)
        #expect(Self.check(watch, "/pets/4", #"{"id": 4}"#).map(\.finding.entry) == [1])
    }

    @Test func checksSubmittedRunInOrderAndSettleBeforeTheReportIsRead() throws {
        let (source, _) = try Self.source()
        let watch = DriftWatch(source)
        let seen = LockedState<[Int]>([])
        // More than wait at once: past 1,000, a submitter waits for its turn, and the order holds.
        let count = DriftWatch.maximumWaiting.count + 200
        for index in 0..<count {
            let exchange = DraftCorpus.exchange("/pets/\(index)", response: #"{"id": "\#(index)"}"#)
            let response = try #require(exchange.response)
            watch.submit(exchange.request, answeredWith: response) { number, _ in
                seen.withLock { $0.append(number) }
            }
        }
        #expect(watch.report.groups.map(\.count) == [count])
        #expect(seen.withLock { $0 } == Array(0..<count))
    }

    @Test func pastTheMostKindsAReportCountsFindingsWithoutListingThem() throws {
        var report = DriftReport(maximumGroups: 10_000)
        for index in 0...10_001 {
            var finding = ContractCheck.Finding(
                place: "GET /\(index)", isError: index == 10_001, message: "GET /\(index)")
            finding.rule = .undocumentedOperation
            finding.operation = "GET /\(index)"
            report.add(finding)
        }
        #expect(report.groups.count == 10_000)
        #expect(report.unlisted == (errors: 1, warnings: 1))
        #expect((report.errors, report.warnings) == (1, 10_001))
        #expect(report.json["unlisted"] == ["errors": 1, "warnings": 1])
        #expect(report.lines.last == "1 errors and 1 warnings of more kinds are not listed")
    }
}
