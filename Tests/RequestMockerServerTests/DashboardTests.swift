import Foundation
import RequestMocker
import RequestMockerServer
import RequestMockerTestSupport
import Testing

/// The dashboard's side of the admin API, through `MockServer`: the live feed (read by Python's
/// http.client), an exchange's details, "mock this", stubs turned off and on, the session as
/// HAR; curl is the other client.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct DashboardTests {
    static var admin: MockServer.Configuration {
        var configuration = MockServer.Configuration()
        configuration.admin = MockServer.Admin()
        return configuration
    }

    static let json = ["-H", "Content-Type: application/json"]

    func details(_ base: URL, _ id: Int) async throws -> JSONValue {
        let answer = try await ExternalProcess.curl([base.absoluteString + "/__admin/exchanges/\(id)"])
        return try JSONValue(parsing: Data(answer.output.utf8))
    }

    /// A page that opens gets the kept exchanges after its `Last-Event-ID`, then each new one as
    /// it is served.
    @Test func eventsStreamTheKeptExchangesThenEachNewOne() async throws {
        let registry = MockRegistry()
        registry.register(.get("/hello"), respond: .string("hi"))
        try await withServer(registry, configuration: Self.admin) { _, base in
            for path in ["/hello", "/hello?n=2", "/missing"] {
                _ = try await ExternalProcess.curl([base.absoluteString + path])
            }
            let script = """
                import http.client, json, sys
                port = int(sys.argv[1])
                events = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
                events.request("GET", "/__admin/events", headers={"Last-Event-ID": "1"})
                stream = events.getresponse()
                print(stream.status, stream.getheader("Content-Type"))
                def read(count):
                    seen = []
                    while len(seen) < count:
                        block = []
                        while True:
                            line = stream.fp.readline().decode()
                            if line in ("\\r\\n", "\\n"): break
                            block.append(line.rstrip("\\r\\n"))
                        # Each chunk of the chunked body may hold several events.
                        fields = dict(line.split(": ", 1) for line in block
                                      if ": " in line and not line.startswith(":"))
                        if fields.get("event") == "exchange":
                            summary = json.loads(fields["data"])
                            seen.append((fields["id"], summary["method"], summary["url"].split("/", 3)[3],
                                         summary["status"], summary["source"]["kind"]))
                    return seen
                for entry in read(2): print(*entry)
                late = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
                late.request("POST", "/late")
                late.getresponse().read()
                for entry in read(1): print(*entry)
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)])
            #expect(
                result.output == """
                    200 text/event-stream; charset=utf-8
                    2 GET hello?n=2 200 filter
                    3 GET missing 404 unmatched
                    4 POST late 404 unmatched

                    """, "\(result.error)")
        }
    }

    /// A page that doesn't keep up loses the oldest exchanges waiting for it, never the server's
    /// pace, and learns how many it lost; a new page gets the last 1,000.
    @Test func aSlowPageLosesTheOldestAndIsToldHowMany() async throws {
        let registry = MockRegistry()
        registry.register(.get("/hello"), respond: .string("hi"))
        try await withServer(registry, configuration: Self.admin) { server, base in
            let feed = try #require(server.dashboard)
            let page = feed.follow(after: nil)
            let script = """
                import http.client, sys
                connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=20)
                for _ in range(1500):
                    connection.request("GET", "/hello")
                    connection.getresponse().read()
                print("done")
                """
            let result = try await ExternalProcess.python(script, [String(base.port ?? 0)], timeout: .seconds(120))
            #expect(result.output == "done\n", "\(result.error)")
            let taken = try #require(page.take(waitingAtMost: .zero))
            #expect(taken.dropped == 500)
            #expect(taken.exchanges.map(\.id) == Array(501...1500))
            #expect(feed.exchanges.map(\.id) == Array(501...1500))
            #expect(feed.exchange(500) == nil)
            #expect(feed.exchange(1234)?.id == 1234)
            #expect(feed.follow(after: 1490).take(waitingAtMost: .zero)?.exchanges.map(\.id) == Array(1491...1500))
            page.cancel()
            #expect(page.take(waitingAtMost: .zero) == nil)
        }
    }

    /// An unmatched request's details list the nearest stubs with every field that differs;
    /// bodies are shown as JSON, headers with secrets hidden, and the request as curl.
    @Test func detailsShowEveryDifferenceOfTheNearestStubs() async throws {
        let registry = MockRegistry()
        // Reports name each filter by where it was made: these three lines.
        let line = #line + 1
        registry.register(.post("/users/<id>").header("X-Team", "ios").query(["v": "2"]), respond: .status(204))
        registry.register(.get("/users/<id>/posts"), respond: .json(["posts": [1, 2]]))
        registry.register(.get("/health"), respond: .status(204))
        try await withServer(registry, configuration: Self.admin) { _, base in
            let url = base.absoluteString
            _ = try await ExternalProcess.curl(["-H", "Authorization: Bearer s3cret", url + "/users/7/posts"])
            _ = try await ExternalProcess.curl(["-H", "X-Team: android", url + "/users/7?v=1"])
            let answered = try await details(base, 1)
            #expect(
                answered["source"]
                    == ["kind": "filter", "name": .string("GET /users/<id>/posts (DashboardTests.swift:\(line + 1))")])
            #expect(
                answered["response"]?["body"] == [
                    "size": 15, "shown": 15, "json": "{\n  \"posts\": [\n    1,\n    2\n  ]\n}",
                ])
            #expect(answered["request"]?["headers"]?[3] == ["name": "Authorization", "value": "Bearer REDACTED"])
            #expect(
                answered["curl"]
                    == .string(
                        "curl '\(url)/users/7/posts' -H 'User-Agent: curl/\(try await curlVersion())' "
                            + "-H 'Accept: */*' -H 'Authorization: Bearer REDACTED'"))

            let unmatched = try await details(base, 2)
            #expect(unmatched["status"] == 404)
            #expect(unmatched["source"] == ["kind": "unmatched", "name": ""])
            #expect(
                unmatched["nearest"]?["stubs"]
                    == [
                        [
                            "filter": .string("POST /users/<id> [X-Team: ios] ?v=2 (DashboardTests.swift:\(line))"),
                            "differences": [
                                "method is GET, filter wants POST", #"header X-Team is "android", filter wants "ios""#,
                                "query has v=1, filter wants v=2",
                            ],
                        ],
                        [
                            "filter": .string("GET /users/<id>/posts (DashboardTests.swift:\(line + 1))"),
                            "differences": ["path /users/7 has 2 segments, pattern /users/<id>/posts has 3"],
                        ],
                        [
                            "filter": .string("GET /health (DashboardTests.swift:\(line + 2))"),
                            "differences": ["path /users/7 has 2 segments, pattern /health has 1"],
                        ],
                    ])
        }
    }

    func curlVersion() async throws -> String {
        let version = try await ExternalProcess.curl(["--version"]).output
        return String(version.split(separator: " ").dropFirst().first ?? "")
    }

    /// A stub turned off matches nothing and stays listed; turned on again, it is tried where it
    /// was, before the older stub.
    @Test func aStubTurnedOffAndOnKeepsItsPlace() async throws {
        try await withServer(MockRegistry(), configuration: Self.admin) { _, base in
            let client = MockServerClient(baseURL: base)
            let older = try await client.register(RequestFilter.get("/x").respond(with: .string("older")))
            let newer = try await client.register(RequestFilter.get("/x").respond(with: .string("newer")))
            let url = base.absoluteString + "/x"
            #expect(try await ExternalProcess.curl([url]).output == "newer")
            try await client.setStubEnabled(newer, false)
            #expect(try await ExternalProcess.curl([url]).output == "older")
            let listed = try await ExternalProcess.curl([base.absoluteString + "/__admin/stubs"]).output
            let stubs = try JSONValue(parsing: Data(listed.utf8))["stubs"]
            #expect(stubs?[0]?["id"] == .string(newer))
            #expect(stubs?[0]?["enabled"] == false)
            #expect(stubs?[1]?["enabled"] == true)
            try await client.setStubEnabled(older, false)
            #expect(try await ExternalProcess.curl(["-o", "/dev/null", "-w", "%{http_code}", url]).output == "404")
            try await client.setStubEnabled(newer, true)
            try await client.setStubEnabled(older, true)
            #expect(try await ExternalProcess.curl([url]).output == "newer")
            do {
                try await client.setStubEnabled("nope", false)
                Issue.record("a stub that isn't there was turned off")
            } catch {
                #expect(
                    "\(error)" == #"the server refused PATCH /__admin/stubs/nope with 404: no stub has the id "nope"; "#
                        + "GET /__admin/stubs lists them")
            }
        }
    }

    /// "Mock this": an exchange's answer becomes a stub that answers the next request, or a file
    /// in the mock-data folder under its name (never over one that is there).
    @Test func mockThisMakesAStubOrAFile() async throws {
        let folder = try TemporaryFolder()
        var configuration = Self.admin
        configuration.admin?.mockDataFolder = folder.url
        let registry = MockRegistry()
        let weather = registry.register(.get("/weather"), respond: .json(["sky": "clear"]))
        try await withServer(registry, configuration: configuration) { _, base in
            let url = base.absoluteString
            _ = try await ExternalProcess.curl([url + "/weather?city=Oslo"])
            let mock = url + "/__admin/exchanges/1/mock"
            let stub = try await ExternalProcess.curl(Self.json + ["--include", "-d", #"{"as": "stub"}"#, mock])
            #expect(stub.output.hasPrefix("HTTP/1.1 201 Created\r\n"))
            weather.remove()
            #expect(try await ExternalProcess.curl([url + "/weather?city=Oslo"]).output == #"{"sky":"clear"}"#)
            #expect(try await details(base, 2)["source"] == ["kind": "stub", "name": "1"])

            let file = try await ExternalProcess.curl(Self.json + ["-d", #"{"as": "file"}"#, mock])
            let written = folder.url.appendingPathComponent("GET|-weather?city=Oslo.http")
            #expect(file.output == "{\n  \"file\": \"\(written.path)\"\n}")
            let contents = try String(contentsOf: written, encoding: .utf8)
            #expect(contents == "HTTP/1.1 200 OK\nContent-Type: application/json\n\n{\"sky\":\"clear\"}")
            let again = try await ExternalProcess.curl(Self.json + ["--include", "-d", #"{"as": "file"}"#, mock])
            #expect(again.output.hasPrefix("HTTP/1.1 409 Conflict\r\n"))
            #expect(
                again.output.contains(
                    "GET|-weather?city=Oslo.http is in the folder already; edit it, or delete it first"))
        }
    }

    /// A body is shown up to 256 KiB, with its whole size; one longer can't be mocked from here.
    @Test func aLongBodyIsCutWithItsSize() async throws {
        let registry = MockRegistry()
        registry.register(.get("/big"), respond: .string(String(repeating: "é", count: 150_000)))
        try await withServer(registry, configuration: Self.admin) { _, base in
            _ = try await ExternalProcess.curl(["-o", "/dev/null", base.absoluteString + "/big"])
            let body = try await details(base, 1)["response"]?["body"]
            #expect(body?["size"] == 300_000)
            #expect(body?["shown"] == 262_144)
            // Cut inside nothing: 262,144 bytes are 131,072 whole characters.
            #expect(body?["text"]?.stringValue?.count == 131_072)
            let mock = try await ExternalProcess.curl(
                Self.json + ["-w", " %{http_code}", "-d", "{}", base.absoluteString + "/__admin/exchanges/1/mock"])
            #expect(
                mock.output
                    == "{\n  \"error\": \"exchange 1 has no whole answer to copy: its body is over the 256 KiB the "
                    + "dashboard keeps; record it with --upstream URL --record instead\"\n} 409")
        }
    }

    /// A secret in the query stays out of the stub "mock this" makes, which asks for the item by
    /// its name, so the same request still matches it; an id past any kept is a 404, however low.
    @Test func mockThisLeavesSecretsOutAndStillMatches() async throws {
        let registry = MockRegistry()
        let items = registry.register(.get("/items"), respond: .json(["items": [1]]))
        try await withServer(registry, configuration: Self.admin) { _, base in
            let url = base.absoluteString + "/items?api_key=s3cret&page=2"
            _ = try await ExternalProcess.curl([url])
            let made = try await ExternalProcess.curl(
                Self.json + ["-d", "{}", base.absoluteString + "/__admin/exchanges/1/mock"])
            let stub = try JSONValue(parsing: Data(made.output.utf8))["stub"]
            #expect(stub?["request"] == ["method": "GET", "path": "/items", "query": ["api_key": nil, "page": "2"]])
            #expect(!made.output.contains("s3cret"))
            items.remove()
            #expect(try await ExternalProcess.curl([url]).output == #"{"items":[1]}"#)
            for id in ["-9223372036854775808", "9223372036854775807", "0", "x"] {
                let answer = try await status([base.absoluteString + "/__admin/exchanges/" + id])
                #expect(answer == "404", "exchange \(id)")
            }
        }
    }

    /// A file's stub turned off stays off when the file is read again, wherever it moved; an id
    /// an added stub has is not given to a file's.
    @Test func aFilesStubTurnedOffStaysOffAcrossReloads() async throws {
        try await withServer(MockRegistry(), configuration: Self.admin) { server, base in
            func stub(_ path: String, id: String? = nil) throws -> Stub {
                var json: [String: JSONValue] = ["request": ["path": .string(path)], "response": ["body": "ok"]]
                if let id { json["id"] = .string(id) }
                return try Stub(json: .object(json))
            }
            let client = MockServerClient(baseURL: base)
            let added = try await client.register(try stub("/added"))
            server.stubStore.replaceFileStubs(with: [try stub("/a"), try stub("/b", id: added)])
            #expect(server.stubStore.stubs.file.map(\.id) == ["file-1", "file-2"])
            try await client.setStubEnabled("file-2", false)
            #expect(server.stubStore.stubs.added.map(\.isEnabled) == [true])
            server.stubStore.replaceFileStubs(with: [try stub("/c"), try stub("/a"), try stub("/b", id: added)])
            #expect(server.stubStore.stubs.file.map(\.isEnabled) == [true, true, false])
            let code = { (path: String) in try await self.status([base.absoluteString + path]) }
            #expect(try await code("/b") == "404")
            #expect(try await code("/a") == "200")
            #expect(try await code("/added") == "200")
        }
    }

    /// The kept session downloads as HAR, with secrets hidden as a recording hides them.
    @Test func theSessionDownloadsAsHAR() async throws {
        let registry = MockRegistry()
        registry.register(.get("/me"), respond: .json(["name": "Ada"]))
        try await withServer(registry, configuration: Self.admin) { _, base in
            _ = try await ExternalProcess.curl(["-H", "Authorization: Bearer s3cret", base.absoluteString + "/me"])
            let answer = try await ExternalProcess.curl(["--include", base.absoluteString + "/__admin/exchanges.har"])
            #expect(
                answer.output.contains(
                    "\r\nContent-Disposition: attachment; filename=\"requestmocker-session.har\"\r\n"))
            let body = try #require(answer.output.components(separatedBy: "\r\n\r\n").last)
            let entry = try JSONValue(parsing: Data(body.utf8))["log"]?["entries"]?[0]
            #expect(entry?["request"]?["url"] == .string(base.absoluteString + "/me"))
            #expect(entry?["response"]?["content"]?["text"] == #"{"name":"Ada"}"#)
            #expect(!body.contains("s3cret"))
        }
    }

    /// A web page can send requests to loopback: a hostile `Host` (DNS rebinding), a cross-site
    /// `Origin` or `Sec-Fetch-Site`, and a form's content type are refused; the page itself,
    /// which holds nothing, is served to any host.
    @Test(arguments: [
        (["-H", "Host: rebound.evil.test", "/exchanges"], "403"),
        (["-H", "Origin: http://evil.test", "/exchanges"], "403"),
        (["-H", "Origin: null", "/exchanges"], "403"),
        (["-H", "Sec-Fetch-Site: cross-site", "/exchanges"], "403"),
        (["-H", "Content-Type: application/x-www-form-urlencoded", "-d", "a=1", "/reset"], "415"),
        (["-H", "Content-Type: text/plain", "-X", "PATCH", "-d", #"{"enabled": false}"#, "/stubs/1"], "415"),
        (["-H", "Host: rebound.evil.test", "/"], "200"),
        (["-H", "Sec-Fetch-Site: same-origin", "/exchanges"], "200"),
    ])
    func hostileCallsAreRefused(arguments: [String], status: String) async throws {
        try await withServer(MockRegistry(), configuration: Self.admin) { _, base in
            let origin = ["-H", "Origin: http://127.0.0.1:\(base.port ?? 0)"]
            let answer = try await ExternalProcess.curl(
                ["-o", "/dev/null", "-w", "%{http_code}"] + arguments.dropLast()
                    + [base.absoluteString + "/__admin" + (arguments.last ?? "")])
            #expect(answer.output == status)
            // The page's own origin is let through.
            let own = try await ExternalProcess.curl(
                ["-o", "/dev/null", "-w", "%{http_code}"] + origin + [base.absoluteString + "/__admin/exchanges"])
            #expect(own.output == "200")
        }
    }

    func status(_ arguments: [String]) async throws -> String {
        try await ExternalProcess.curl(["-o", "/dev/null", "-w", "%{http_code}"] + arguments).output
    }

    /// With a token, the page is served without it (it asks for it), and every call needs it as
    /// a bearer, from any host.
    @Test func withATokenThePageIsFreeAndEveryCallNeedsIt() async throws {
        var configuration = MockServer.Configuration()
        configuration.admin = MockServer.Admin(token: "t0ken")
        try await withServer(MockRegistry(), configuration: configuration) { _, base in
            let admin = base.absoluteString + "/__admin/"
            let page = try await status([admin])
            #expect(page == "200")
            #expect(try await status([admin + "events"]) == "401")
            #expect(try await status(["-H", "Authorization: Bearer t0ken", admin + "exchanges"]) == "200")
            #expect(
                try await status([
                    "-H", "Authorization: Bearer t0ken", "-H", "Host: machine.local", admin + "exchanges",
                ])
                    == "200")
            #expect(
                try await status(["-H", "Authorization: Bearer t0ken", "-X", "POST", admin + "scenarios/reset"])
                    == "200")
        }
    }
}
