import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerTestSupport
import Testing

extension OneHeavyProgramAtATime {
    /// `request-mocker serve --openapi` tested by schemathesis, a contract tester no one here wrote,
    /// with its stateless checks: status codes, content types, headers and bodies that conform,
    /// valid data accepted, invalid data rejected, undeclared methods refused; and its stateful
    /// phase, which follows a contract's links (a create, then a read, a change or a delete of what
    /// it made), against `serve --stateful`. Not run: `ignored_auth`, which sends a well-formed
    /// wrong credential and expects it refused, where a mock checks a credential's shape, never its
    /// truth.
    /// One run at a time: each is a Python process computing for tens of seconds (Twilio's 196
    /// operations for 36 s on an idle machine), and four at once on a loaded machine took Twilio's
    /// past its time limit.
    @Suite(.serialized, .timeLimit(.minutes(3)), .hangGuard, .ownThread) struct SchemathesisTests {
        static let fixtures = Command.packageRoot.appendingPathComponent("Tests/RequestMockerCommandTests/Fixtures")
        static let stateless =
            "not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,"
            + "response_schema_conformance,negative_data_rejection,positive_data_acceptance,missing_required_header,"
            + "unsupported_method,allow_header_conformance"

        /// What a run found: each failure's code with the operations it hit, and how many
        /// operations were tested and how many errored (a connection schemathesis couldn't make).
        struct Report {
            var failures: [String: Set<String>] = [:]
            var tested = 0
            var errored = 0
        }

        /// Runs schemathesis' `phases` on `contract` against `serve --openapi contract` with `serve`
        /// after it.
        func run(
            _ contract: URL, basePath: String = "", serve: [String] = [], phases: String = "examples,coverage,fuzzing",
            _ arguments: [String]
        ) async throws -> Report {
            try await Tool.schemathesis.require()
            let (serving, base) = try await serving(["--openapi", contract.path] + serve)
            // Run in a folder of its own: schemathesis keeps a cache of the cases that failed in
            // `.schemathesis/` under its working directory and replays them on the next run, which
            // would make one run's outcome depend on the last (and write into the checkout).
            let folder = try TemporaryFolder()
            let reports = folder.url.appendingPathComponent("reports")
            let result = try await ExternalProcess.run(
                "python3",
                [
                    "-m", "schemathesis.cli", "run", contract.path, "--url", base.absoluteString + basePath,
                    "--phases", phases, "--seed", "1", "--no-color", "--report", "json",
                    "--report-dir", reports.path,
                ] + arguments, in: folder.url, timeout: .seconds(150))
            #expect(await serving.interrupt() == 0)
            let files = try FileManager.default.contentsOfDirectory(atPath: reports.path).filter {
                $0.hasSuffix(".json")
            }
            let file = try #require(files.first, "schemathesis wrote no report: \(result.output.suffix(2000))")
            let json = try JSONValue(parsing: Data(contentsOf: reports.appendingPathComponent(file)))
            var report = Report()
            report.tested = json["operations"]?["tested"]?.intValue ?? 0
            report.errored = json["operations"]?["errored"]?.intValue ?? 0
            if case .array(let failures)? = json["failures"] {
                for failure in failures {
                    guard let code = failure["code"]?.stringValue, case .array(let operations)? = failure["operations"]
                    else {
                        continue
                    }
                    report.failures[code, default: []].formUnion(operations.compactMap(\.stringValue))
                }
            }
            return report
        }

        /// A contract drafted from recordings (`request-mocker draft`) is served as any other, and
        /// schemathesis finds nothing wrong with what it answers to valid requests. Not invalid ones:
        /// a draft declares only the statuses the traffic showed, so the 422 that refuses an invalid
        /// request is undeclared (status_code_conformance, ST103), as it would be for the backend.
        @Test func aDraftFromRecordingsPassesEveryCheckWithValidRequests() async throws {
            let folder = try TemporaryFolder()
            try TrafficConversion.writeHAR(
                DraftCorpus.interactions, to: folder.url.appendingPathComponent("traffic.har"), redaction: .default)
            let drafted = try await Command.run(
                ["draft", "--cassette", "traffic.har", "-o", "openapi.yaml"], in: folder.url)
            #expect(drafted.status == 0, "\(drafted.error)")
            let report = try await run(
                folder.url.appendingPathComponent("openapi.yaml"),
                [
                    "--checks", Self.stateless, "--mode", "positive", "-n", "30", "-H", "X-Api-Key: k", "-H",
                    "Authorization: Bearer t",
                ])
            #expect(report.failures == [:])
            #expect(report.tested == 10)
            #expect(report.errored == 0)
        }

        @Test func aHandWrittenContractWithItsErrorsDeclaredPassesEveryCheck() async throws {
            let report = try await run(
                Self.fixtures.appendingPathComponent("bookshop.json"), basePath: "/api",
                ["--checks", Self.stateless, "-n", "40", "-H", "X-API-Key: k"])
            #expect(report.failures == [:])
            #expect(report.tested == 4)
            #expect(report.errored == 0)
        }

        /// The stateful phase follows the links from a create to the read, the change and the delete
        /// of the pet it made: with `--stateful` every check passes, `use_after_free` among them (a
        /// deleted pet is gone); without it a deleted pet is still answered, which that check reports
        /// (the same seed, so the same scenarios).
        @Test func theStatefulPhasePassesWithStateAndFailsWithout() async throws {
            let contract = Self.fixtures.appendingPathComponent("linked-pets.json")
            let checks = ["--checks", "all", "--exclude-checks", "ignored_auth", "-n", "30"]
            let remembering = try await run(contract, serve: ["--stateful"], phases: "stateful", checks)
            #expect(remembering.failures == [:])
            #expect(remembering.tested == 5)
            #expect(remembering.errored == 0)
            let forgetting = try await run(contract, phases: "stateful", checks)
            // ST301: "Deleted resource still available".
            #expect(forgetting.failures == ["ST301": ["Stateful tests"]])
        }

        /// The pet shop declares no 401 or 422, so valid data (which must get its documented
        /// statuses) and invalid data (which must be refused) are run apart; `legacy` declares only
        /// a 302, which is answered 501 by design.
        @Test func thePetShopAcceptsValidDataAndRefusesInvalidData() async throws {
            let petshop = ServeOpenAPITests.petshop
            let common = ["--exclude-operation-id", "legacy", "-H", "X-API-Key: k"]
            let valid = try await run(
                petshop, basePath: "/v2", ["--mode", "positive", "--checks", Self.stateless, "-n", "40"] + common)
            #expect(valid.failures == [:])
            #expect(valid.tested == 6)
            let invalid = try await run(
                petshop, basePath: "/v2",
                ["--mode", "negative", "--checks", "negative_data_rejection,not_a_server_error", "-n", "40"] + common)
            #expect(invalid.failures == [:])
            #expect(invalid.errored == 0)
        }

        /// Twilio's contract, whose examples break their schemas in places (relative URLs as `uri`,
        /// numbers as strings): those it serves as written, and only those fail schema conformance.
        /// Valid data only: on Twilio's many string parameters, schemathesis's negative mode now and
        /// then reports as accepted a request whose invalid part its own encoding dropped (seen:
        /// `?Category=%C2%BF%3F` sent for "query: violates additionalProperties"), so the refusal of
        /// invalid data is checked on the hand-written contracts.
        @Test(.enabled(if: RealContracts.available, RealContracts.skipped))
        func twilioAnswersAsItsContractSays() async throws {
            let url = RealContracts.url("twilio/spec/json/twilio_api_v2010.json")
            let contract = try OpenAPIContract(contentsOf: url)
            let broken = Set(
                contract.problems.compactMap { problem -> String? in
                    let steps = problem.pointer.split(separator: "/").map {
                        $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
                    }
                    guard steps.count > 4, steps[1] == "paths", steps[3] != "parameters", steps[4] == "responses" else {
                        return nil
                    }
                    return "\(steps[3].uppercased()) \(steps[2])"
                })
            let common = [
                "-a", "AC00000000000000000000000000000000:token", "--exclude-operation-id",
                "FetchRecordingAddOnResultPayloadData", "-n", "2",
            ]
            let valid = try await run(url, ["--mode", "positive", "--checks", Self.stateless] + common)
            #expect(valid.tested == 196)
            #expect(valid.errored == 0)
            #expect(Set(valid.failures.keys).isSubset(of: ["ST108"]))
            #expect(valid.failures["ST108", default: []].isSubset(of: broken))
            print(
                "schemathesis on Twilio: \(valid.failures["ST108", default: []].count) operations serve examples "
                    + "that break their schemas, all in the load notices"
            )
        }

        @Test(.enabled(if: RealContracts.available, RealContracts.skipped))
        func thePetstoreSetsValidatorPetstoresPassEveryCheck() async throws {
            for path in ["openapi-spec-validator/v3.0/petstore.yaml", "openapi-spec-validator/v3.1/petstore.yaml"] {
                let contract = RealContracts.url("petstore/" + path)
                let valid = try await run(
                    contract, basePath: "/v1", ["--mode", "positive", "--checks", Self.stateless, "-n", "20"])
                #expect(valid.failures == [:], "\(path)")
                #expect(valid.tested == 3, "\(path)")
                let invalid = try await run(
                    contract, basePath: "/v1",
                    ["--mode", "negative", "--checks", "negative_data_rejection,not_a_server_error", "-n", "20"])
                #expect(invalid.failures == [:], "\(path)")
            }
        }

        /// Prism's circular petstore: its cycles are served; its failures are those its own contract
        /// explains. Operations that declare only errors are answered 501 (schemathesis calls that a
        /// server error and an undocumented status); `/store/inventory` has servers of its own
        /// (`/v3`), which schemathesis doesn't follow; and one example breaks its array schema, which
        /// is served as written and named in the load notices.
        @Test(.enabled(if: RealContracts.available, RealContracts.skipped))
        func prismsCircularPetstoreFailsOnlyWhereItsContractSays() async throws {
            let file = RealContracts.url("petstore/prism/petstore.no-auth.circular.oas3.yaml")
            let contract = try OpenAPIContract(contentsOf: file)
            let label = { (operation: OpenAPIContract.Operation) in "\(operation.method) \(operation.path)" }
            let errorsOnly = Set(
                contract.operations.filter { operation in
                    !operation.statuses.contains { $0.hasPrefix("2") || $0 == "default" }
                }.map(label))
            let ownServers: Set = ["GET /store/inventory"]
            let brokenExamples = Set(
                contract.operations.filter { operation in
                    contract.problems.contains { $0.pointer.hasPrefix(operation.pointer + "/responses/") }
                }.map(label))
            #expect(!errorsOnly.isEmpty && !brokenExamples.isEmpty)
            let report = try await run(
                file, basePath: "/v2", ["--mode", "positive", "--checks", Self.stateless, "-n", "20"])
            #expect(report.tested == 26)
            #expect(report.failures["ST101", default: []].isSubset(of: errorsOnly))
            #expect(report.failures["ST103", default: []].isSubset(of: errorsOnly.union(ownServers)))
            #expect(report.failures["ST108", default: []].isSubset(of: brokenExamples))
            #expect(Set(report.failures.keys).isSubset(of: ["ST101", "ST103", "ST108"]))
        }
    }
}
