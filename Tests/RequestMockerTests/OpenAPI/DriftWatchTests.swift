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
        return watch.check(exchange.request, answeredWith: response)
    }

    @Test func aValueNamedAsASecretIsLeftOutOfItsFindingAndOthersAreQuoted() throws {
        let (source, _) = try Self.source()
        let watch = DriftWatch(source)
        let found = Self.check(watch, "/pets/1?api_key=sk-9", #"{"id": "x", "owner": {"password": "hunter2"}}"#)
        #expect(
            found.map(\.finding.message) == [
                "GET /pets/1 request: query api_key: the value breaks its schema (not shown: its name marks a secret)",
                #"GET /pets/{petId} 200: /id: expected integer, got "x""#,
                "GET /pets/{petId} 200: /owner/password: the value breaks its schema (not shown: its name marks a "
                    + "secret)",
            ])
        #expect(found.map(\.isNew) == [true, true, true])
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
        for index in 0..<50 {
            let exchange = DraftCorpus.exchange("/pets/\(index)", response: #"{"id": "\#(index)"}"#)
            let response = try #require(exchange.response)
            watch.submit(exchange.request, answeredWith: response) { checked in
                seen.withLock { $0 += checked.compactMap(\.finding.entry) }
            }
        }
        #expect(watch.report.groups.map(\.count) == [50])
        #expect(seen.withLock { $0 } == Array(0..<50))
    }

    @Test func pastTheMostKindsAReportCountsFindingsWithoutListingThem() throws {
        let (source, _) = try Self.source()
        let check = ContractCheck(source.contract)
        var report = DriftReport(findings: [], check: check)
        for index in 0...DriftReport.maximumGroups {
            var finding = ContractCheck.Finding(place: "GET /\(index)", isError: false, message: "GET /\(index)")
            finding.rule = .undocumentedOperation
            finding.operation = "GET /\(index)"
            report.add(finding)
        }
        #expect(report.groups.count == DriftReport.maximumGroups)
        #expect(report.unlisted == 1)
        #expect(report.json["unlisted"] == 1)
        #expect(report.lines.last == "1 more findings of kinds past the first 10000 are not listed")
    }
}
