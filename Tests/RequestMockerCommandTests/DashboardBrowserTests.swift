import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

extension OneHeavyProgramAtATime {
    /// The dashboard of `request-mocker serve --admin` in a real browser: headless Chromium,
    /// driven by Selenium (Fixtures/dashboard_browser.py), against a folder and a stubs file.
    /// One browser at a time: Chromium is the heaviest program the tests start.
    @Suite(.serialized, .timeLimit(.minutes(3)), .hangGuard) struct DashboardBrowserTests {
        static let script = Command.packageRoot.appendingPathComponent(
            "Tests/RequestMockerCommandTests/Fixtures/dashboard_browser.py")

        static let stubs = """
            {"stubs": [
              {"id": "greeting", "request": {"method": "GET", "path": "/greeting"},
               "response": {"json": {"hello": "world"}}},
              {"request": {"method": "POST", "path": "/pay"}, "response": {"status": 204},
               "scenario": {"name": "checkout", "requiredState": "Started", "newState": "Paid"}},
              {"request": {"method": "GET", "path": "/order"}, "response": {"json": {"status": "open"}},
               "scenario": {"name": "checkout", "requiredState": "Started"}},
              {"request": {"method": "GET", "path": "/order"}, "response": {"json": {"status": "paid"}},
               "scenario": {"name": "checkout", "requiredState": "Paid"}}
            ]}
            """

        /// A request appears without a reload; its details name the stub; turned off, the stub
        /// leaves the next request unmatched, with its nearest misses; a logged exchange mocked
        /// as a stub answers the next one; a scenario moved by a request is reset from the page; a
        /// burst of 2,000 requests leaves the page live, with the last 1,000.
        @Test func theDashboardShowsAndSteersARunningServer() async throws {
            try await Tool.selenium.require()
            try await Tool.chromedriver.require()
            let folder = try TemporaryFolder()
            try folder.write(
                "Mocks/GET|-hello.http", "HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"hello\": \"folder\"}")
            try folder.write("stubs.json", Self.stubs)
            let (serving, base) = try await serving([
                folder.url.appendingPathComponent("Mocks").path, "--stubs",
                folder.url.appendingPathComponent("stubs.json").path, "--admin",
            ])
            // SCREENSHOT=path keeps a picture of the page (the README's).
            let screenshot = ProcessInfo.processInfo.environment["DASHBOARD_SCREENSHOT"].map { [$0] } ?? []
            let result = try await ExternalProcess.python(
                file: Self.script, [base.absoluteString] + screenshot, timeout: .seconds(150))
            #expect(await serving.interrupt() == 0)
            let seen = try JSONValue(parsing: Data(result.output.utf8))
            #expect(seen["failed"] == nil, "\(result.output) \(result.error)")
            let mocks = folder.url.appendingPathComponent("Mocks").path
            let expected: JSONValue = [
                "greeting": [200, #"{"hello":"world"}"#],
                "answeredBy": "Answered by stub greeting",
                "curl": .string("curl '\(base.absoluteString)/greeting' -H 'Accept-Encoding: identity'"),
                "afterOff": 404,
                "answeredByAfterOff": "Answered by unmatched",
                "nearest": [
                    [
                        #"GET /order scenario "checkout" in Started (stubs.json:6)"#,
                        #"path segment 1 is "greeting", pattern /order wants "order""#,
                    ],
                    [
                        #"GET /order scenario "checkout" in Paid (stubs.json:8)"#,
                        #"path segment 1 is "greeting", pattern /order wants "order""#,
                    ],
                    [
                        #"POST /pay scenario "checkout" in Started -> Paid (stubs.json:4)"#,
                        "method is GET, filter wants POST", #"path segment 1 is "greeting", pattern /pay wants "pay""#,
                    ],
                ],
                "helloAnsweredBy": .string("Answered by file \(mocks)/GET|-hello.http"),
                "mocked": "Added as stub 1",
                "helloAgainAnsweredBy": "Answered by stub 1",
                "pay": 204,
                "scenarioBefore": "Paid",
                "scenarioAfter": "Started",
                "order": #"{"status":"open"}"#,
                "consoleErrors": [],
                "burstRows": 1000,
                "burstCounts": "1000 shown",
            ]
            #expect(seen == expected, "\(result.error)")
        }

        /// With `--admin-token`, the page asks for the token once (however many of its calls were
        /// refused), keeps it only in the page (never in storage), and never puts it in a URL or
        /// the server's log.
        @Test func withATokenThePageAsksForItOnce() async throws {
            try await Tool.selenium.require()
            try await Tool.chromedriver.require()
            let folder = try TemporaryFolder()
            try folder.write("stubs.json", Self.stubs)
            let token = "dashboard-t0ken-91"
            let (serving, base) = try await serving([
                "--stubs", folder.url.appendingPathComponent("stubs.json").path, "--admin", "--admin-token", token,
            ])
            let result = try await ExternalProcess.python(
                file: Self.script, [base.absoluteString, "--token", token], timeout: .seconds(150))
            #expect(await serving.interrupt() == 0)
            let seen = try JSONValue(parsing: Data(result.output.utf8))
            #expect(
                seen == [
                    "asked": "This server needs its admin token (--admin-token):",
                    "greeting": [200, #"{"hello":"world"}"#],
                    "stubsListed": 4,
                    "askedAgain": false,
                    "stored": 0,
                    "urlsWithToken": [],
                ], "\(result.error)")
            #expect(!serving.log.contains(token))
        }
    }
}
