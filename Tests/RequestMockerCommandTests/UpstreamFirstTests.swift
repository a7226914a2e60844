import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// `request-mocker serve --openapi FILE --upstream URL --upstream-first`: every request goes to a
/// backend that drifted from its contract (a Python server), each exchange is checked, and what
/// the backend lacks or can't answer is answered by the contract.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct UpstreamFirstTests {
    /// DriftTests' contract, with a session whose token is an integer, and owners, which the
    /// upstream doesn't have at all.
    static let contract = DriftTests.contract.replacingOccurrences(
        of: "components:",
        with: """
              /session:
                get:
                  operationId: getSession
                  responses:
                    "200":
                      description: a session
                      content:
                        application/json:
                          schema: {type: object, properties: {token: {type: integer}}}
              /owners/{ownerId}:
                get:
                  operationId: getOwner
                  parameters: [{name: ownerId, in: path, required: true, schema: {type: integer}}]
                  responses:
                    "200":
                      description: an owner
                      content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
            components:
            """)

    /// The fields of a finding of `GET /__admin/drift` a test pins, and its exchanges.
    struct Found: Equatable, CustomStringConvertible {
        let rule: String
        let operation: String
        let status: Int?
        let mediaType: String?
        let side: String?
        let pointer: String?
        let count: Int
        let exchanges: [Int]

        init(
            _ rule: String, _ operation: String, _ status: Int?, _ mediaType: String?, _ side: String?,
            _ pointer: String?, count: Int, exchanges: [Int]
        ) {
            (self.rule, self.operation, self.status, self.mediaType) = (rule, operation, status, mediaType)
            (self.side, self.pointer, self.count, self.exchanges) = (side, pointer, count, exchanges)
        }

        init(_ json: JSONValue) {
            self.init(
                json["rule"]?.stringValue ?? "?", json["operation"]?.stringValue ?? "?", json["status"]?.intValue,
                json["mediaType"]?.stringValue, json["in"]?.stringValue, json["pointer"]?.stringValue,
                count: json["count"]?.intValue ?? 0,
                exchanges: elements(json["examples"]).compactMap { ($0["exchange"] ?? $0["entry"])?.intValue })
        }

        var description: String {
            "\(rule) \(operation) \(status.map(String.init) ?? "-") \(mediaType ?? "-") \(side ?? "-") "
                + "\(pointer ?? "-") ×\(count) \(exchanges)"
        }
    }

    @Test func eachDriftIsFoundOnceWithItsOperationPointerAndCountAndWhatTheUpstreamLacksIsMocked() async throws {
        let upstream = try await Upstream("drifting-upstream")
        let folder = try TemporaryFolder()
        let contract = try folder.write("openapi.yaml", Self.contract)
        let (serving, base) = try await serving([
            "--openapi", contract.path, "--upstream", upstream.url.absoluteString, "--upstream-first", "--admin",
        ])
        func get(_ path: String, key: Bool = true, _ options: [String] = []) async throws -> String {
            try await ExternalProcess.curl(
                options + (key ? ["-H", "X-Api-Key: k-123"] : []) + [base.absoluteString + path]
            )
            .output
        }
        // Exchanges 0-9 reach the upstream and are checked in this order; the two it lacks aren't.
        let fine = try await get("/pets/1", ["--include", "--compressed"])
        let wrongType = try await get("/pets/2")
        _ = try await get("/pets/3")
        _ = try await get("/pets/4")
        _ = try await get("/pets/5")
        _ = try await get("/pets/6")
        _ = try await get("/toys")
        _ = try await get("/pets?limit=2&sort=name")
        let chunked = try await get("/pets/8", ["--include"])
        _ = try await get("/session")
        _ = try await get("/pets/7", key: false)
        // The upstream has answered getPet: its 404 is a real "no such pet", and is the answer.
        let notFound = try await get("/pets/404", ["--include"])
        // It has never answered getOwner but 404: the contract answers it.
        let lacking = try await get("/owners/3")
        let unbuilt = try await get("/pets?limit=501")
        let drift = try await MockServerClient(baseURL: base).drift()
        let journal = try JSONValue(parsing: Data(try await get("/__admin/requests", key: false).utf8))
        let dashboard = try JSONValue(parsing: Data(try await get("/__admin/exchanges", key: false).utf8))
        #expect(await serving.interrupt() == 0)
        await upstream.stop()

        // The upstream's answers go to the client as they are; it was asked for the body unencoded.
        #expect(fine.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(fine.contains("\r\nX-Accept-Encoding: identity\r\n"))
        #expect(fine.hasSuffix(#"{"id": 1, "name": "Rex"}"#))
        #expect(wrongType == #"{"id": "2", "name": "Bo"}"#)
        // A body that came chunked goes out chunked, each piece as it came, and is checked whole.
        #expect(chunked.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(chunked.contains("\r\nTransfer-Encoding: chunked\r\n"))
        #expect(chunked.hasSuffix("\r\n\r\n" + #"{"id": "8", "name": "Ed"}"#))
        // What it lacks (only ever 404) and what it answered 501 the contract answers.
        #expect(notFound.hasPrefix("HTTP/1.1 404 Not Found\r\n"))
        #expect(notFound.hasSuffix(#"{"error": "no such route"}"#))
        #expect(lacking == #"{"id":0,"name":"string"}"#)
        #expect(unbuilt == #"[{"id":0,"name":"string"}]"#)

        let findings = elements(drift["findings"]).map(Found.init)
        let expected: [Found] = [
            Found("schema", "getPet", 200, "application/json", "response", "/id", count: 3, exchanges: [1, 2, 8]),
            Found("schema", "getPet", 200, "application/json", "response", "", count: 1, exchanges: [3]),
            Found(
                "undocumented-property", "getPet", 200, "application/json", "response", "/color", count: 1,
                exchanges: [4]),
            Found("undocumented-status", "getPet", 500, nil, "response", nil, count: 1, exchanges: [5]),
            Found("undocumented-operation", "GET /toys", 200, nil, "response", nil, count: 1, exchanges: [6]),
            Found("undocumented-parameter", "listPets", 200, nil, "request", "query sort", count: 1, exchanges: [7]),
            Found("undocumented-media-type", "listPets", 200, "text/csv", "response", nil, count: 1, exchanges: [7]),
            Found("schema", "getSession", 200, "application/json", "response", "/token", count: 1, exchanges: [9]),
            Found("security", "getPet", 200, nil, "request", nil, count: 1, exchanges: [10]),
            Found(
                "undocumented-media-type", "getPet", 404, "application/json", "response", nil, count: 1,
                exchanges: [11]),
        ]
        #expect(findings == expected)
        // The live exchanges are named by their number and request line, no file.
        #expect(drift["findings"]?[0]?["examples"]?[0] == ["exchange": 1, "request": "GET /pets/2"])
        let coverage = drift["coverage"]
        #expect(coverage?["operations"]?["exercised"] == 3)
        #expect(coverage?["statuses"]?["neverSeen"] == ["getOwner 200"])

        // The journal has each exchange's findings, and says which mock answered instead.
        let entries = elements(journal["requests"])
        #expect(entries.count == 14)
        #expect(entries[1]["drift"]?[0]?["new"] == true)
        #expect(entries[2]["drift"]?[0]?["new"] == false)
        #expect(entries[2]["drift"]?[0]?["pointer"] == "/id")
        #expect(entries[0]["drift"] == [])
        #expect(entries.map { $0["exchange"]?.intValue } == Array(0...11) + [nil, nil])
        #expect(
            entries[12]["answeredBy"]?.stringValue
                == "openapi getOwner 200 generated, because the upstream answered 404 (it has answered "
                + "GET /owners/{ownerId} with nothing else yet)")
        // The dashboard's list says how many findings each exchange had, and what answered instead.
        let listed = elements(dashboard["exchanges"])
        #expect(listed.map { $0["drift"]?.intValue ?? 0 } == entries.map { elements($0["drift"]).count })
        #expect(listed[1]["source"] == ["kind": "upstream", "name": "checked against the contract"])
        #expect(
            listed[12]["source"]
                == [
                    "kind": "openapi",
                    "name": .string(
                        "getOwner 200 generated, because the upstream answered 404 (it has answered "
                            + "GET /owners/{ownerId} with nothing else yet)"),
                ])

        // Each kind of finding is printed once, when it is first seen, without the secret's value.
        let lines = serving.log.split(separator: "\n").map(String.init)
        #expect(
            lines.first { $0.hasPrefix("Serving ") }
                == "Serving upstream \(upstream.url.absoluteString) first (checked against openapi.yaml) and "
                + "\(contract.path) at \(base), dashboard and admin API at \(base)/__admin/ (Ctrl-C to stop)")
        #expect(
            lines.filter { $0.hasPrefix("drift in ") } == [
                #"drift in GET /pets/2: error: GET /pets/{petId} 200: /id: expected integer, got "2""#,
                #"drift in GET /pets/4: error: GET /pets/{petId} 200: /: missing the required property "name""#,
                "drift in GET /pets/5: warning: GET /pets/{petId} 200: /color is not declared in the schema",
                "drift in GET /pets/6: error: GET /pets/{petId} 500: the status is not declared; getPet declares "
                    + "200, 404",
                "drift in GET /toys: warning: GET /toys is not in the contract",
                "drift in GET /pets: warning: GET /pets request: query sort: the operation declares no query "
                    + "parameter of this name",
                "drift in GET /pets: error: GET /pets 200: Content-Type text/csv is not declared; it declares "
                    + "application/json",
                "drift in GET /session: error: GET /session 200: /token: the value breaks its schema (not shown: a "
                    + "name marks it as a secret)",
                "drift in GET /pets/7: warning: GET /pets/7 request: no credentials; send an API key in the header "
                    + "X-Api-Key",
                "drift in GET /pets/404: error: GET /pets/{petId} 404: there is a body, but the contract declares none",
            ])
        #expect(!serving.log.contains("sk-live"))
        #expect(lines.contains { $0.hasPrefix("GET /pets/2 -> 200 from upstream (") })
        #expect(
            lines.contains {
                $0.hasPrefix("GET /pets/404 -> 404 from upstream (")
                    && $0.hasSuffix(
                        " ms), not mocked: GET /pets/{petId} is built there (the upstream has answered it before), "
                            + "so its 404 is the answer")
            }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("GET /owners/3 -> 200 from openapi getOwner (generated, ")
                    && $0.hasSuffix(
                        " ms), because the upstream answered 404 (it has answered GET /owners/{ownerId} with nothing "
                            + "else yet)")
            }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("GET /pets?limit=501 -> 200 from openapi listPets (generated, ")
                    && $0.hasSuffix(" ms), because the upstream answered 501")
            }, "\(lines)")
    }

    @Test func aBodyTheUpstreamEncodesAnywayIsRelayedAndOnlyItsHeadChecked() async throws {
        let upstream = try await Upstream("drifting-upstream")
        let folder = try TemporaryFolder()
        let contract = try folder.write("openapi.yaml", Self.contract)
        let (serving, base) = try await serving([
            "--openapi", contract.path, "--upstream", upstream.url.absoluteString, "--upstream-first",
        ])
        let pet = try await ExternalProcess.curl([
            "--compressed", "-H", "X-Api-Key: k", base.absoluteString + "/pets/9",
        ])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        #expect(pet.output == #"{"id": 9, "name": "Gus"}"#)
        let lines = serving.log.split(separator: "\n").map(String.init)
        let line = try #require(lines.firstIndex { $0.hasPrefix("GET /pets/9 -> 200 from upstream (") })
        #expect(lines[line + 1] == "    body not checked: the upstream sent it encoded (Content-Encoding: gzip)")
    }

    @Test func anUnreachableUpstreamIsStoodInForByTheContractAndStubsAnswerFirst() async throws {
        let closed = try RefusingPort()
        defer { closed.close() }
        let folder = try TemporaryFolder()
        let contract = try folder.write("openapi.yaml", Self.contract)
        let stubs = try folder.write(
            "stubs.json", #"{"stubs": [{"request": {"path": "/pets/1"}, "response": {"json": {"from": "stub"}}}]}"#)
        let (serving, base) = try await serving([
            "--stubs", stubs.path, "--openapi", contract.path, "--upstream", "http://127.0.0.1:\(closed.port)",
            "--upstream-first", "--admin",
        ])
        let stubbed = try await ExternalProcess.curl([base.absoluteString + "/pets/1"])
        let mocked = try await ExternalProcess.curl(["-H", "X-Api-Key: k", base.absoluteString + "/pets/2"])
        let unknown = try await ExternalProcess.curl(["--include", base.absoluteString + "/toys"])
        let drift = try JSONValue(
            parsing: Data(try await ExternalProcess.curl([base.absoluteString + "/__admin/drift"]).output.utf8))
        #expect(await serving.interrupt() == 0)
        #expect(stubbed.output == #"{"from":"stub"}"#)
        #expect(mocked.output == #"{"id":0,"name":"string"}"#)
        #expect(unknown.output.hasPrefix("HTTP/1.1 502 Bad Gateway\r\n"))
        #expect(
            unknown.output.hasSuffix(
                "passing GET http://127.0.0.1:\(closed.port)/toys through to the network failed: could not connect "
                    + "to 127.0.0.1:\(closed.port): connection refused\n"))
        // Nothing reached the upstream, so nothing was checked.
        #expect(drift["findings"] == [])
        #expect(drift["coverage"]?["operations"]?["exercised"] == 0)
        let lines = serving.log.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("GET /pets/1 -> 200 from filter ") }, "\(lines)")
        #expect(
            lines.contains {
                $0.hasPrefix("GET /pets/2 -> 200 from openapi getPet (generated, ")
                    && $0.hasSuffix(
                        " ms), because the upstream could not answer (could not connect to 127.0.0.1:\(closed.port): "
                            + "connection refused)")
            }, "\(lines)")
    }

    @Test func withRecordWhatTheUpstreamAnsweredIsAppendedToTheCassetteAndWhatAMockAnsweredIsNot() async throws {
        let upstream = try await Upstream("drifting-upstream")
        let folder = try TemporaryFolder()
        let contract = try folder.write("openapi.yaml", Self.contract)
        let cassette = folder.url.appendingPathComponent("traffic.har")
        let arguments = [
            "--openapi", contract.path, "--upstream", upstream.url.absoluteString, "--upstream-first", "--record",
            "--cassette", cassette.path,
        ]
        var (serving, base) = try await RequestMockerCommandTests.serving(arguments)
        var answers: [String] = []
        for path in ["/pets/1", "/pets/1", "/owners/404"] {
            answers.append(try await ExternalProcess.curl(["-H", "X-Api-Key: k", base.absoluteString + path]).output)
        }
        #expect(await serving.interrupt() == 0)
        // A second run appends (the default mode, new): every request reached the upstream.
        (serving, base) = try await RequestMockerCommandTests.serving(arguments)
        _ = try await ExternalProcess.curl(["-H", "X-Api-Key: k", base.absoluteString + "/pets/6"])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        #expect(answers == [#"{"id": 1, "name": "Rex"}"#, #"{"id": 1, "name": "Rex"}"#, #"{"id":0,"name":"string"}"#])
        // The upstream's 404, which the client never saw, is not recorded.
        let recorded = try Cassette(contentsOf: cassette, record: .none).interactions
        #expect(recorded.map(\.request.path) == ["/pets/1", "/pets/1", "/pets/6"])
        #expect(recorded.map { $0.response?.status.code } == [200, 200, 500])
        let check = try await Command.run(
            ["check", "--openapi", contract.path, "--cassette", cassette.path, "--format", "json"], in: folder.url)
        #expect(check.status == 1)
        let findings = try elements(JSONValue(parsing: Data(check.output.utf8))["findings"]).map(Found.init)
        #expect(
            findings == [Found("undocumented-status", "getPet", 500, nil, "response", nil, count: 1, exchanges: [2])])
    }

    @Test func recordingIntoAFolderKeepsWhatTheUpstreamAnsweredAndTheContractStillAnswersWhatItLacks() async throws {
        let upstream = try await Upstream("drifting-upstream")
        let folder = try TemporaryFolder()
        let contract = try folder.write("openapi.yaml", Self.contract)
        let mocks = folder.url.appendingPathComponent("Mocks").path
        let (serving, base) = try await serving([
            mocks, "--openapi", contract.path, "--upstream", upstream.url.absoluteString, "--upstream-first",
            "--record",
        ])
        var answers: [String] = []
        for path in ["/pets/1", "/owners/404", "/owners/404"] {
            answers.append(try await ExternalProcess.curl(["-H", "X-Api-Key: k", base.absoluteString + path]).output)
        }
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        // Both times the contract answered: no recording of the upstream's 404 stood in its way.
        #expect(
            answers == [#"{"id": 1, "name": "Rex"}"#, #"{"id":0,"name":"string"}"#, #"{"id":0,"name":"string"}"#])
        #expect(try FileManager.default.contentsOfDirectory(atPath: mocks) == ["GET|-pets-1.http"])
    }

    @Test func aNotFoundFallsBackOnlyUntilTheUpstreamHasAnsweredTheOperationOtherwise() async throws {
        let upstream = try await Upstream("drifting-upstream")
        let folder = try TemporaryFolder()
        let contract = try folder.write("openapi.yaml", Self.contract)
        let (serving, base) = try await serving([
            "--openapi", contract.path, "--upstream", upstream.url.absoluteString, "--upstream-first",
        ])
        var answers: [String] = []
        for path in ["/pets/404", "/pets/1", "/pets/404", "/pets?limit=501", "/pets?limit=2", "/pets?limit=501"] {
            let answer = try await ExternalProcess.curl(
                ["--write-out", " %{http_code}", "-H", "X-Api-Key: k", base.absoluteString + path])
            answers.append(answer.output)
        }
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        // Before the upstream has answered getPet, its 404 is "not built yet"; after, "no such pet".
        // A 501 falls back whatever came before.
        #expect(
            answers == [
                #"{"id":0,"name":"string"} 200"#, #"{"id": 1, "name": "Rex"} 200"#, #"{"error": "no such route"} 404"#,
                #"[{"id":0,"name":"string"}] 200"#, "id,name\n1,Rex\n 200", #"[{"id":0,"name":"string"}] 200"#,
            ])
    }

    @Test func aStreamedBodyReachesTheClientAsItComesAndIsCheckedAtItsFirstPiece() async throws {
        let upstream = try await Upstream("drifting-upstream")
        let folder = try TemporaryFolder()
        let contract = try folder.write("openapi.yaml", Self.contract)
        let (serving, base) = try await serving([
            "--openapi", contract.path, "--upstream", upstream.url.absoluteString, "--upstream-first", "--admin",
        ])
        let client = try #require(
            Bundle.module.url(forResource: "event_stream_client", withExtension: "py", subdirectory: "Fixtures"))
        let read = try await ExternalProcess.run(
            "python3", [client.path, String(base.port ?? 0), String(upstream.url.port ?? 0)])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        let output = try JSONValue(parsing: Data(read.output.utf8))
        // The first event came while the upstream held the stream open, and was checked by then.
        #expect(output["first"] == "data: one\n\n")
        #expect(output["rest"] == "data: two\n\n")
        let findings = elements(output["drift"]?["findings"]).map(Found.init)
        #expect(
            findings == [
                Found("undocumented-operation", "GET /events", 200, nil, "response", nil, count: 1, exchanges: [0])
            ])
    }
}

/// The elements of an array, or none.
private func elements(_ value: JSONValue?) -> [JSONValue] {
    if case .array(let elements)? = value { elements } else { [] }
}
