import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// What a first-time user met following the README and the articles (issue 43), through the
/// command: a browser's HAR drafted and checked, coverage that counts what was reached, a file
/// where a folder goes, a recorder's banner and its draft's server, and preferences a folder's
/// file answered before the contract.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct FirstUserTests {
    /// A HAR as a browser exports it: no request headers, the body's media type in `postData`,
    /// forms and an upload as `params`, a file with its `fileName` and `contentType`.
    static let browserHAR = #"""
        {"log": {"version": "1.2", "creator": {"name": "WebInspector", "version": "537.36"}, "entries": [
          {"startedDateTime": "2026-11-30T10:00:00.000Z", "time": 12,
           "request": {"method": "POST", "url": "https://app.example/api/uploads", "httpVersion": "HTTP/1.1",
             "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 300,
             "postData": {"mimeType": "multipart/form-data; boundary=----WebKitFormBoundaryQ2x",
               "params": [{"name": "title", "value": "Trip"},
                          {"name": "photo", "fileName": "trip.png", "contentType": "image/png", "value": "PNG…"}]}},
           "response": {"status": 201, "statusText": "Created", "httpVersion": "HTTP/1.1",
             "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
             "content": {"size": 24, "mimeType": "application/json", "text": "{\"id\": 7, \"title\": \"Trip\"}"},
             "redirectURL": "", "headersSize": -1, "bodySize": 24},
           "cache": {}, "timings": {"send": 0, "wait": 12, "receive": 0}},
          {"startedDateTime": "2026-11-30T10:00:01.000Z", "time": 9,
           "request": {"method": "POST", "url": "https://app.example/api/settings", "httpVersion": "HTTP/1.1",
             "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 24,
             "postData": {"mimeType": "application/x-www-form-urlencoded",
               "params": [{"name": "theme", "value": "dark"}, {"name": "beta", "value": "true"}]}},
           "response": {"status": 204, "statusText": "No Content", "httpVersion": "HTTP/1.1", "headers": [],
             "cookies": [], "content": {"size": 0, "mimeType": "x-unknown"}, "redirectURL": "",
             "headersSize": -1, "bodySize": 0},
           "cache": {}, "timings": {"send": 0, "wait": 9, "receive": 0}},
          {"startedDateTime": "2026-11-30T10:00:02.000Z", "time": 8,
           "request": {"method": "POST", "url": "https://app.example/api/notes", "httpVersion": "HTTP/1.1",
             "headers": [], "queryString": [], "cookies": [], "headersSize": -1, "bodySize": 13,
             "postData": {"mimeType": "application/json", "text": "{\"text\": \"hi\"}"}},
           "response": {"status": 200, "statusText": "OK", "httpVersion": "HTTP/1.1",
             "headers": [{"name": "Content-Type", "value": "application/json"}], "cookies": [],
             "content": {"size": 2, "mimeType": "application/json", "text": "{}"}, "redirectURL": "",
             "headersSize": -1, "bodySize": 2},
           "cache": {}, "timings": {"send": 0, "wait": 8, "receive": 0}}
        ]}}
        """#

    @Test func aBrowsersHARIsDraftedWithItsFormsAndUploadAndChecksClean() async throws {
        let folder = try TemporaryFolder()
        try folder.write("browser.har", Self.browserHAR)
        let draft = try await Command.run(["draft", "--cassette", "browser.har", "-o", "openapi.json"], in: folder.url)
        #expect(draft.status == 0, "\(draft.error)")
        let contract = try JSONValue(parsing: Data(contentsOf: folder.url.appendingPathComponent("openapi.json")))
        let paths = contract["paths"]
        // The upload: its text field and its file (binary), as multipart.
        let upload = paths?["/api/uploads"]?["post"]?["requestBody"]?["content"]
        #expect(
            upload?["multipart/form-data"]?["schema"]?["properties"]?["photo"] == [
                "type": "string", "format": "binary",
            ])
        #expect(upload?["multipart/form-data"]?["schema"]?["properties"]?["title"]?["type"] == "string")
        // The form, by postData's media type (the request listed no headers), with its fields.
        let settings = paths?["/api/settings"]?["post"]?["requestBody"]?["content"]
        #expect(settings?["application/x-www-form-urlencoded"]?["example"] == ["theme": "dark", "beta": "true"])
        let notes = paths?["/api/notes"]?["post"]?["requestBody"]?["content"]
        #expect(notes?["application/json"]?["example"] == ["text": "hi"])
        #expect(notes?["application/octet-stream"] == nil)

        // Checked against its own draft, the recording is clean.
        let check = try await Command.run(
            ["check", "--openapi", "openapi.json", "--cassette", "browser.har"], in: folder.url)
        #expect(check.status == 0, "\(check.output)")
        #expect(
            check.output == "checked 3 mocks and the contract's examples against openapi.json: 0 errors, 0 warnings\n")
    }

    @Test func coverageCountsAnOperationReachedOnlyWithUndeclaredStatuses() async throws {
        let folder = try TemporaryFolder()
        try folder.write("openapi.yaml", DriftTests.contract)
        try TrafficConversion.writeHAR(
            [
                DraftCorpus.exchange(
                    "/pets/6", headers: ["X-Api-Key": "k"], status: 500, response: #"{"error": "boom"}"#)
            ],
            to: folder.url.appendingPathComponent("traffic.har"), redaction: .default)
        let check = try await Command.run(
            ["check", "--openapi", "openapi.yaml", "--cassette", "traffic.har", "--coverage"], in: folder.url)
        #expect(check.status == 1)
        let lines = check.output.split(separator: "\n").map(String.init)
        // getPet was exercised (its 500 is a finding); only listPets was never seen.
        #expect(lines.contains("coverage: 1 of 2 operations, 0 of 3 declared statuses"), "\(lines)")
        #expect(lines.contains("  never seen: listPets"), "\(lines)")
        #expect(!lines.contains("  never seen: getPet"), "\(lines)")
        #expect(lines.contains("  never seen: getPet 200, 404"), "\(lines)")
    }

    @Test(arguments: ["app.har", "stubs.json", "openapi.yml"])
    func aFileWhereAFolderGoesNamesTheOptionThatTakesIt(_ name: String) async throws {
        let folder = try TemporaryFolder()
        try folder.write(name, "{}")
        let served = try await Command.run(["serve", name], in: folder.url)
        #expect(served.status == 64)
        let which =
            name.hasSuffix(".har")
            ? "a HAR cassette goes after --cassette: serve --cassette \(name)"
            : "a cassette goes after --cassette (serve --cassette \(name)), a stubs file after --stubs, a contract "
                + "after --openapi"
        #expect(served.error == "request-mocker: \(name) is a file, not a folder of mock data; \(which)\n")
    }

    @Test func aRecordersBannerSaysItRecordsAndItsDraftNamesTheUpstream() async throws {
        let upstream = try await Upstream()
        let folder = try TemporaryFolder()
        let cassette = folder.url.appendingPathComponent("app.har")
        let (serving, base) = try await serving([
            "--upstream", upstream.url.absoluteString + "/", "--record", "--record-mode", "all", "--cassette",
            cassette.path,
        ])
        _ = try await ExternalProcess.curl([base.absoluteString + "/users/7"])
        #expect(await serving.interrupt() == 0)
        await upstream.stop()
        let banner = serving.log.split(separator: "\n").first { $0.hasPrefix("Serving ") || $0.hasPrefix("Listening") }
        #expect(
            banner.map(String.init)
                == "Serving upstream \(upstream.url.absoluteString)/ at \(base), recording into \(cassette.path) "
                + "(every exchange: nothing is played back) (Ctrl-C to stop)")
        // The recording says where the request went; the draft's server is there, not the recorder.
        let recorded = try String(contentsOf: cassette, encoding: .utf8)
        #expect(recorded.contains(#""_upstream": "\#(upstream.url.absoluteString)/""#), "\(recorded)")
        let draft = try await Command.run(["draft", "--cassette", "app.har", "-o", "openapi.json"], in: folder.url)
        #expect(draft.status == 0, "\(draft.error)")
        let contract = try JSONValue(parsing: Data(contentsOf: folder.url.appendingPathComponent("openapi.json")))
        #expect(contract["servers"] == [["url": .string(upstream.url.absoluteString)]])
    }

    @Test func aPreferenceAFoldersFileAnsweredBeforeTheContractIsSaidInTheLog() async throws {
        let (serving, base) = try await serving([
            "--openapi", "Examples/OpenAPI/petstore.json", "Examples/OpenAPI/Mocks",
        ])
        let fromFile = try await ExternalProcess.curl(["-H", "Prefer: code=404", base.absoluteString + "/v1/pets/3"])
        let fromContract = try await ExternalProcess.curl([
            "--write-out", " %{http_code}", "-H", "Prefer: code=404", base.absoluteString + "/v1/pets/1",
        ])
        #expect(await serving.interrupt() == 0)
        #expect(fromFile.output == #"{"id": 3, "name": "Polly", "kind": "bird"}"# + "\n")
        #expect(fromContract.output == #"{"code":404,"message":"no such pet"} 404"#)
        let lines = serving.log.split(separator: "\n").map(String.init)
        let line = try #require(lines.firstIndex { $0.hasPrefix("GET /v1/pets/3 -> 200 from file ") }, "\(lines)")
        #expect(lines[line + 1] == "    Prefer: code=404 was not applied: a source before the contract answered")
        let contractLine = try #require(lines.firstIndex { $0.hasPrefix("GET /v1/pets/1 -> 404 from openapi ") })
        #expect(!lines[contractLine + 1].contains("was not applied"))
    }

    @Test func theHelpNamesEveryVersionTheReaderTakes() async throws {
        let help = try await Command.run(["--help"])
        #expect(help.output.contains("Answer from an OpenAPI 3.0/3.1/3.2 contract"))
    }
}
