import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

extension OneHeavyProgramAtATime {
    /// `serve --openapi FILE --stateful` with `--data FILE` and `--state FILE`, driven with curl and
    /// Python: a seed file checked at start, the admin API's view of the resources, and a state file
    /// that survives restarts and `kill -9`.
    @Suite(.timeLimit(.minutes(5)), .hangGuard) struct ServeResourcesTests {
        static let shop = Command.packageRoot.appendingPathComponent(
            "Tests/RequestMockerOpenAPITests/Fixtures/OpenAPI/resources/shop.json")

        @Test func aDataFileSeedsTheResourcesAndAResetPutsItBack() async throws {
            let folder = try TemporaryFolder()
            let data = try folder.write(
                "pets.yaml",
                """
                /pets:
                  - id: 1
                    name: Rex
                  - id: 7
                    name: Tom
                /users/00000000-0000-4000-8000-000000000001/settings:
                  theme: dark

                """)
            let (serving, base) = try await serving([
                "--openapi", Self.shop.path, "--stateful", "--data", data.path, "--admin",
            ])
            let url = base.absoluteString
            let created = try await ExternalProcess.curl(
                ["-H", "Content-Type: application/json", "-d", #"{"name": "Kim"}"#, url + "/v1/pets"])
            #expect(created.output == #"{"name":"Kim","id":8}"#)
            let state = try await ExternalProcess.curl([url + "/__admin/resources"])
            #expect(
                state.output
                    == #"{"/pets":[{"id":1,"name":"Rex"},{"id":7,"name":"Tom"},{"name":"Kim","id":8}],"#
                    + #""/users/00000000-0000-4000-8000-000000000001/settings":{"theme":"dark"}}"#)
            _ = try await ExternalProcess.curl(
                ["-X", "POST", "-H", "Content-Type: application/json", url + "/__admin/reset"])
            #expect(
                try await ExternalProcess.curl([url + "/v1/pets"]).output
                    == #"[{"id":1,"name":"Rex"},{"id":7,"name":"Tom"}]"#)
            #expect(await serving.interrupt() == 0)
            #expect(
                serving.log.contains(
                    "\n    from \(data.path): /pets: 2 items, /users/00000000-0000-4000-8000-000000000001/settings: "
                        + "a singleton\n"))
        }

        @Test func aDataFileThatDoesNotFitStopsTheCommandWithTheLineAndColumn() async throws {
            let folder = try TemporaryFolder()
            let data = try folder.write("pets.yaml", "/pets:\n  - id: 1\n    name: Rex\n  - id: 2\n    name: 5\n")
            let refused = try await Command.run([
                "serve", "--openapi", Self.shop.path, "--stateful", "--data", data.path,
            ])
            #expect(refused.status == 65)
            #expect(
                refused.error
                    == "request-mocker: resources \(data.path):5:11: at #/~1pets/1/name: the item breaks the "
                    + "contract's item schema: expected string, got 5; make it fit\n")
            let missing = try await Command.run(
                ["serve", "--openapi", Self.shop.path, "--stateful", "--data", "/no/such/pets.json"])
            #expect(missing.status == 66)
            #expect(missing.error == "request-mocker: no data file at /no/such/pets.json\n")
            let alone = try await Command.run(["serve", "--openapi", Self.shop.path, "--data", data.path])
            #expect(alone.status == 64)
            #expect(alone.error == "request-mocker: --data goes with --stateful, whose resources it fills\n")
        }

        @Test func aStateFileKeepsTheResourcesAcrossARestart() async throws {
            let folder = try TemporaryFolder()
            let state = folder.url.appendingPathComponent("state.json")
            let (first, base) = try await serving(["--openapi", Self.shop.path, "--stateful", "--state", state.path])
            #expect(try String(contentsOf: state, encoding: .utf8) == "{}")
            _ = try await ExternalProcess.curl(
                ["-H", "Content-Type: application/json", "-d", #"{"name": "Rex"}"#, base.absoluteString + "/v1/pets"])
            #expect(try String(contentsOf: state, encoding: .utf8) == #"{"/pets":[{"name":"Rex","id":1}]}"#)
            #expect(await first.interrupt() == 0)
            let (second, again) = try await serving(["--openapi", Self.shop.path, "--stateful", "--state", state.path])
            #expect(
                try await ExternalProcess.curl([again.absoluteString + "/v1/pets"]).output
                    == #"[{"name":"Rex","id":1}]"#)
            #expect(await second.interrupt() == 0)
            #expect(second.log.contains("\n    from \(state.path) (--state): /pets: 1 item\n"))
        }

        /// A client creates pets one after another while the server is killed with SIGKILL, three
        /// times, once at least 5 creates are saved: each time the file holds every create the
        /// client saw answered (and at most the one the kill cut off after it was saved), and the
        /// next start loads it.
        @Test func aStateFileSurvivesKill9InTheMiddleOfCreates() async throws {
            let folder = try TemporaryFolder()
            let state = folder.url.appendingPathComponent("state.json")
            let script = """
                import http.client, sys, time
                created = 0
                while True:
                    try:
                        connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=30)
                        connection.request("POST", "/v1/pets", body='{"name": "p"}',
                                           headers={"Content-Type": "application/json"})
                        response = connection.getresponse()
                        response.read()
                        connection.close()
                    except (OSError, http.client.HTTPException):
                        break
                    if response.status != 201:
                        print("status", response.status)
                        sys.exit(1)
                    created += 1
                    # A breath between creates: each rewrites the state file, and a client at full
                    # speed loads the machine the other tests share.
                    time.sleep(0.02)
                print(created)
                """
            @Sendable func saved() -> [JSONValue]? {
                guard let data = try? Data(contentsOf: state),
                    case .array(let pets)? = (try? JSONValue(parsing: data))?["/pets"]
                else { return nil }
                return pets
            }
            var answered = 0
            for round in 1...3 {
                let (serving, base) = try await serving([
                    "--openapi", Self.shop.path, "--stateful", "--state", state.path,
                ])
                let before = saved()?.count ?? 0
                let client = BackgroundClient {
                    try await ExternalProcess.python(script, [String(base.port ?? 0)], timeout: .seconds(120))
                }
                defer { client.cancel() }
                try await client.waitUntil(waitingFor: "5 creates to be saved in round \(round)") {
                    (saved()?.count ?? 0) >= before + 5
                }
                #expect(await serving.kill() == SIGKILL)
                let result = try await client.result
                #expect(result.status == 0, "\(result.output)\(result.error)")
                answered += Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
                let pets = try #require(saved(), "round \(round): the state file doesn't load")
                #expect(pets.count == answered || pets.count == answered + 1, "round \(round)")
                // A create cut off after it was saved counts as answered from here on.
                answered = pets.count
                #expect(Set(pets.compactMap { $0["id"]?.intValue }) == Set(1...pets.count))
            }
            let (last, _) = try await serving(["--openapi", Self.shop.path, "--stateful", "--state", state.path])
            #expect(await last.interrupt() == 0)
            #expect(last.log.contains("\n    from \(state.path) (--state): /pets: \(answered) items\n"))
            // The killed processes' temporary files are gone: each start's first write removes them.
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
            #expect(left == ["state.json"], "\(left); the last start printed: \(last.log)")
        }
    }
}
