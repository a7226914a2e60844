import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@testable import RequestMockerOpenAPI

/// How `serve --upstream-first` keeps its drift report: in order, bounded, without a secret's
/// value, starting over for an edited contract.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct DriftWatchTests {
    static let contract = """
        openapi: 3.1.0
        info: {title: Shop, version: "1"}
        paths:
          /pets/{petId}:
            get:
              operationId: getPet
              parameters:
                - {name: api_key, in: query, schema: {type: integer}}
                - name: filter
                  in: query
                  content: {application/json: {schema: {type: object, properties: {access_token: {type: integer}}}}}
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
            watch, "/pets/1?api_key=sk-9&filter=%7B%22access_token%22%3A%22t-5%22%7D",
            #"{"id": "x", "owner": {"password": "hunter2"}, "profile": {"name": "Ada", "session_id": "s-77"}}"#)
        #expect(
            found.map(\.finding.message) == [
                "GET /pets/1 request: query api_key: the value breaks its schema (not shown: a name marks it as a "
                    + "secret)",
                "GET /pets/1 request: query filter /access_token: the value breaks its schema (not shown: a name "
                    + "marks it as a secret)",
                #"GET /pets/{petId} 200: /id: expected integer, got "x""#,
                "GET /pets/{petId} 200: /owner/password: the value breaks its schema (not shown: a name marks it "
                    + "as a secret)",
                "GET /pets/{petId} 200: /profile: the value breaks its schema (not shown: a name marks it as a "
                    + "secret)",
            ])
        #expect(found.map(\.isNew) == [true, true, true, true, true])
        #expect(found.allSatisfy { $0.finding.exchange == 0 && $0.finding.entry == nil })
    }

    @Test func findingsGroupAcrossExchangesAndAnEditedContractStartsTheReportOver() throws {
        let (source, folder) = try Self.source()
        let watch = DriftWatch(source)
        #expect(Self.check(watch, "/pets/1", #"{"id": "a"}"#).map(\.isNew) == [true])
        #expect(Self.check(watch, "/pets/2", #"{"id": "b"}"#).map(\.isNew) == [false])
        #expect(watch.report.groups.map(\.count) == [2])
        #expect(watch.report.groups.first?.examples.compactMap(\.exchange) == [0, 1])
        let edited = try folder.write(
            "edited.yaml", Self.contract.replacingOccurrences(of: "id: {type: integer}", with: "id: {type: string}"))
        source.reload(try OpenAPIContract(contentsOf: edited))
        #expect(Self.check(watch, "/pets/3", #"{"id": "c"}"#).isEmpty)
        #expect(watch.report.groups.isEmpty)
        #expect(Self.check(watch, "/pets/4", #"{"id": 4}"#).map(\.finding.exchange) == [1])
    }

    @Test func checksSubmittedRunInOrderAndSettleBeforeTheReportIsRead() throws {
        let (source, _) = try Self.source()
        let watch = DriftWatch(source)
        let seen = LockedState<[Int]>([])
        for index in 0..<50 {
            let exchange = DraftCorpus.exchange("/pets/\(index)", response: #"{"id": "\#(index)"}"#)
            let response = try #require(exchange.response)
            watch.submit(exchange.request, answeredWith: response) { number, _ in
                seen.withLock { $0.append(number) }
            }
        }
        #expect(watch.report.groups.map(\.count) == [50])
        #expect(seen.withLock { $0 } == Array(0..<50))
    }

    /// On a thread of its own: it blocks, waiting for other threads, and the cooperative pool's
    /// two threads may be busy elsewhere for a long time on a loaded machine.
    @Test(.ownThread) func pastTheBoundASubmitterWaitsForItsOwnCheckInTurn() throws {
        let (source, _) = try Self.source()
        let watch = DriftWatch(source, maximumWaiting: (count: 2, bytes: .max))
        let seen = LockedState<[Int]>([])
        let gate = DispatchSemaphore(value: 0)
        let exchanges = try (0..<3).map { index in
            let exchange = DraftCorpus.exchange("/pets/\(index)", response: #"{"id": "\#(index)"}"#)
            return (exchange.request, try #require(exchange.response))
        }
        @Sendable func submit(_ index: Int) {
            watch.submit(exchanges[index].0, answeredWith: exchanges[index].1) { number, _ in
                // The first check holds the queue until the third submitter is waiting.
                if index == 0 { gate.wait() }
                seen.withLock { $0.append(number) }
            }
        }
        submit(0)
        submit(1)
        // Two wait: the third submitter waits in turn, on a thread of its own.
        let third = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            submit(2)
            third.signal()
        }
        // Until it waits (an event its thread brings about), a millisecond at a time, at most a minute.
        var waiting = false
        for _ in 0..<60_000 where !waiting {
            waiting = watch.submittersThatWaited == 1
            if !waiting { usleep(1_000) }
        }
        gate.signal()
        #expect(waiting)
        #expect(third.wait(timeout: .now() + 60) == .success)
        #expect(seen.withLock { $0 } == [0, 1, 2])
        #expect(watch.report.groups.map(\.count) == [3])
    }

    @Test func theItemsOfAListAreOnePlace() {
        #expect(DriftReport.anyItem("/items/12/tags/0") == "/items/*/tags/*")
        #expect(DriftReport.anyItem("/v2/x1") == "/v2/x1")
        var report = DriftReport(maximumGroups: 10)
        for index in 0..<3 {
            var finding = ContractCheck.Finding(place: "GET /pets", isError: true, message: "/\(index)/id")
            finding.operation = "listPets"
            finding.pointer = "/\(index)/id"
            report.add(finding)
        }
        #expect(report.groups.map(\.count) == [3])
        #expect(report.groups.first?.finding.pointer == "/0/id")
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
