import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

extension OneHeavyProgramAtATime {
    /// Drafting a contract from a real server's traffic: Jupyter Server (from PyPI, in a Python
    /// environment of its own, `.build/jupyter`, which `.ci/run` makes), which publishes
    /// its REST API's contract, driven through `request-mocker serve --upstream --record --record-mode
    /// all` by a client script, then `request-mocker draft`; the draft's path templates and response
    /// properties are compared with the published contract's.
    @Suite(.serialized, .timeLimit(.minutes(5)), .hangGuard, .ownThread) struct RealServerDraftTests {
        static let fixtures = Command.packageRoot.appendingPathComponent("Tests/RequestMockerCommandTests/Fixtures")

        @Test func jupyterServersTrafficDraftsItsPublishedTemplates() async throws {
            for tool in [Tool.jupyterServer, .pyyaml, .openapiSpecValidator] { try await tool.require() }
            let folder = try TemporaryFolder()
            let root = folder.url.appendingPathComponent("root")
            try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
            let token = "draft-test-token"
            // Its runtime and configuration in the test's folder, not the user's home.
            let jupyter = try await BackgroundProcess(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "JUPYTER_RUNTIME_DIR=" + folder.url.appendingPathComponent("runtime").path,
                    "JUPYTER_CONFIG_DIR=" + folder.url.appendingPathComponent("config").path,
                    Tool.jupyterPython, "-m", "jupyter_server", "--allow-root", "--no-browser", "--port=0",
                    "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0", "--IdentityProvider.token=" + token,
                    "--ServerApp.root_dir=" + root.path,
                ], ready: #"http://127\.0\.0\.1:\d+"#, seconds: 120)
            let traffic = folder.url.appendingPathComponent("traffic.har")
            let (recorder, base) = try await serving([
                "--upstream", jupyter.announced, "--record", "--record-mode", "all", "--cassette", traffic.path,
            ])
            let client = try await ExternalProcess.python(
                file: Self.fixtures.appendingPathComponent("jupyter-traffic.py"), [base.absoluteString, token],
                timeout: .seconds(180))
            #expect(await recorder.interrupt() == 0)
            await jupyter.stop()
            try #require(client.status == 0, "the client: \(client.output)\(client.error)")

            let drafted = try await Command.run(
                ["draft", "--cassette", "traffic.har", "-o", "openapi.yaml"], in: folder.url)
            #expect(drafted.status == 0, "\(drafted.error)")
            let check = try await Command.run(
                ["check", "--openapi", "openapi.yaml", "--cassette", "traffic.har"], in: folder.url)
            #expect(check.status == 0, "\(check.output)")
            #expect(check.output.hasSuffix(": 0 errors, 0 warnings\n"), "\(check.output)")
            let validator = try await ExternalProcess.run(
                "python3", ["-m", "openapi_spec_validator", "openapi.yaml"], in: folder.url, timeout: .seconds(60))
            #expect(validator.status == 0, "\(validator.output)\(validator.error)")

            // The contract Jupyter Server publishes (Swagger 2.0), from its installed package.
            let published = try await ExternalProcess.run(
                Tool.jupyterPython,
                [
                    "-c",
                    "import jupyter_server, os; print(os.path.join(os.path.dirname(jupyter_server.__file__), "
                        + "'services', 'api', 'api.yaml'))",
                ])
            let comparison = try await ExternalProcess.python(
                file: Self.fixtures.appendingPathComponent("template-precision.py"),
                [
                    folder.url.appendingPathComponent("openapi.yaml").path,
                    published.output.trimmingCharacters(in: .whitespacesAndNewlines), traffic.path,
                ])
            let report = try JSONValue(parsing: Data(comparison.output.utf8))
            // Two templates differ, each as the traffic shows it: GET /api/contents (the root folder)
            // is a path the published contract folds into /api/contents/{path}, and a file's checkpoint
            // is always named `checkpoint`, which the contract writes as {checkpoint_id}.
            #expect(
                report["templates"]?["drafted"] == [
                    "api", "api/config/{}", "api/contents", "api/contents/{}", "api/contents/{}/checkpoints",
                    "api/contents/{}/checkpoints/checkpoint", "api/kernels", "api/kernels/{}",
                    "api/kernels/{}/interrupt",
                    "api/kernelspecs", "api/me", "api/sessions", "api/sessions/{}", "api/status", "api/terminals",
                    "api/terminals/{}",
                ])
            #expect(report["templates"]?["precision"] == 0.875)
            #expect(report["templates"]?["recall"] == 0.933)
            // Properties depend on the server's version; these are the floors, the note gives the figures.
            let properties = try #require(report["properties"])
            #expect((properties["precision"]?.doubleValue ?? 0) >= 0.9, "\(properties)")
            #expect((properties["recall"]?.doubleValue ?? 0) >= 0.9, "\(properties)")
            #expect((properties["published"]?.intValue ?? 0) >= 50, "\(properties)")
            print("jupyter_server draft: \(comparison.output)")
        }
    }
}
