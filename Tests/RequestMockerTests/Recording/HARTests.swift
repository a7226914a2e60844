import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

@Suite("HAR timestamps", .timeLimit(.minutes(3)), .hangGuard)
struct HARTimestampTests {
    @Test("reads UTC, offsets, and any number of fractional digits")
    func parses() throws {
        #expect(HARTimestamp.parse("1970-01-01T00:00:00Z") == Date(timeIntervalSince1970: 0))
        #expect(HARTimestamp.parse("2024-02-29T00:00:00Z") != nil)
        #expect(HARTimestamp.parse("2026-11-22T10:04:05.123Z")?.timeIntervalSince1970 == 1_795_341_845.123)
        #expect(HARTimestamp.parse("2026-11-22T11:04:05.123+01:00") == HARTimestamp.parse("2026-11-22T10:04:05.123Z"))
        #expect(HARTimestamp.parse("2026-11-22T05:34:05.123-0430") == HARTimestamp.parse("2026-11-22T10:04:05.123Z"))
        let micro = try #require(HARTimestamp.parse("2000-02-29T23:59:59.999999Z"))
        #expect(abs(micro.timeIntervalSince1970 - 951_868_799.999999) < 1e-6)
        for bad in [
            "", "2026-11-22", "2026-13-01T00:00:00Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z",
            "2026-11-22T10:04:05", "2026-11-22T10:04:05.Z", "2026-11-22T10:04:05Zjunk",
        ] {
            #expect(HARTimestamp.parse(bad) == nil, "\(bad)")
        }
    }

    @Test("writes UTC with milliseconds, and reads back what it wrote")
    func formats() {
        #expect(HARTimestamp.format(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00.000Z")
        #expect(HARTimestamp.format(Date(timeIntervalSince1970: 1_795_341_845.123)) == "2026-11-22T10:04:05.123Z")
        #expect(HARTimestamp.format(Date(timeIntervalSince1970: 951_868_799.5)) == "2000-02-29T23:59:59.500Z")
        #expect(HARTimestamp.format(Date(timeIntervalSince1970: -0.25)) == "1969-12-31T23:59:59.750Z")
        for text in [
            "2026-11-22T10:04:05.123Z", "2099-12-31T23:59:59.999Z", "1901-06-30T12:00:00.001Z",
            "1969-12-31T23:59:59.999Z",
        ] {
            #expect(HARTimestamp.parse(text).map(HARTimestamp.format) == text)
        }
        for seconds in stride(from: -86_400.0 * 400, to: 86_400 * 30_000, by: 86_400 * 37.3) {
            let date = Date(timeIntervalSince1970: (seconds * 1000).rounded() / 1000)
            #expect(HARTimestamp.parse(HARTimestamp.format(date)) == date)
        }
    }
}

@Suite("HAR files from browsers", .timeLimit(.minutes(3)), .hangGuard)
struct BrowserHARTests {
    let folder: TemporaryFolder
    let registry = MockRegistry()

    init() throws {
        folder = try TemporaryFolder()
    }

    @Test("a Chrome export plays back: HTTP/2 headers, compressed content, base64, errors, redirects")
    func chrome() async throws {
        let cassette = try Cassette(contentsOf: harFixture("chrome", in: folder), record: .none)
        #expect(cassette.interactions.count == 6)
        registry.register(cassette)
        let session = registry.makeSession()

        let (products, response) = try await session.data(
            from: url("https://api.shop.example/v1/products?sort=price&page=2"))
        #expect(String(decoding: products, as: UTF8.self) == #"{"items":[{"id":1,"name":"Lamp"}],"page":2}"#)
        #expect(response.status == 200)
        #expect(response.header("Content-Encoding") == nil)
        #expect(response.header("Content-Length") == "43")
        #expect(response.header("Content-Type") == "application/json; charset=utf-8")

        var post = URLRequest(url: url("https://api.shop.example/v1/cart"))
        post.httpMethod = "POST"
        post.httpBody = Data(#"{"sku":"lamp","qty":1}"#.utf8)
        let (cart, created) = try await session.data(for: post)
        #expect(created.status == 201)
        #expect(String(decoding: cart, as: UTF8.self) == #"{"cartItems":1}"#)

        let (logo, _) = try await session.data(from: url("https://shop.example/logo.png"))
        #expect(logo == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))

        let beacon = await #expect(throws: URLError.self) {
            _ = try await session.data(from: url("https://metrics.shop.example/beacon"))
        }
        #expect(beacon?.code == .cannotConnectToHost)
        #expect(beacon?.failingURL?.absoluteString == "https://metrics.shop.example/beacon")

        // The 301 has only redirectURL (no Location); the redirect is followed to the next entry.
        let (offers, final) = try await session.data(from: url("https://shop.example/old-offers"))
        #expect(String(decoding: offers, as: UTF8.self) == "<h1>Winter offers</h1>")
        #expect(final.url?.absoluteString == "https://shop.example/offers")
        #expect(cassette.allPlayed)
        #expect(registry.journal.map(\.entryIndex) == [0, 1, 2, 3, 4, 5])
    }

    @Test("a Firefox export plays back: time-zone offsets, form params (one without a value), missing content text")
    func firefox() async throws {
        let cassette = try Cassette(
            contentsOf: harFixture("firefox", in: folder), record: .none, matchers: CassetteMatcher.default + [.body])
        let interactions = cassette.interactions
        #expect(
            interactions.map(\.startedAt) == [
                HARTimestamp.parse("2026-11-20T09:15:02.250Z"), HARTimestamp.parse("2026-11-20T09:15:02.400Z"),
            ])
        // A param without a value is a bare field, not an empty one (`debug=`).
        #expect(interactions.first?.request.bodyText == "user=ada%20lovelace&remember=yes&debug")
        #expect(interactions.first?.duration == .milliseconds(40))
        registry.register(cassette)
        let session = registry.makeSession()

        var login = URLRequest(url: url("https://api.shop.example/v1/login"))
        login.httpMethod = "POST"
        login.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        login.httpBody = Data("debug&remember=yes&user=ada+lovelace".utf8)
        let (data, response) = try await session.data(for: login)
        #expect(String(decoding: data, as: UTF8.self) == #"{"ok":true}"#)
        #expect(response.header("Content-Encoding") == nil)

        let (empty, noContent) = try await session.data(from: url("https://api.shop.example/v1/ping"))
        #expect(noContent.status == 204)
        #expect(empty.isEmpty)
    }

    @Test("saving a browser export keeps its pages and underscore fields")
    func keepsBrowserFields() async throws {
        let file = try harFixture("chrome", in: folder)
        let server = try await PythonEchoServer()
        defer { server.stop() }
        let cassette = try Cassette(contentsOf: file, record: .newEpisodes)
        try await registry.withCassette(cassette) { session in
            _ = try await session.data(from: url(server.baseURL + "/echo/new"))
        }
        let saved = try JSONValue(parsing: Data(contentsOf: file))
        #expect(saved["log"]?["pages"]?[0]?["id"] == "page_1")
        #expect(saved["log"]?["creator"]?["name"] == "WebInspector")
        #expect(
            saved["log"]?["entries"]?[0]?["_initiator"]?["stack"]?["callFrames"]?[0]?["functionName"] == "loadProducts")
        #expect(saved["log"]?["entries"]?[0]?["timings"]?["_blocked_queueing"] == 0.8)
        #expect(saved["log"]?["entries"]?[6]?["request"]?["url"] == .string(server.baseURL + "/echo/new"))
        #expect(saved["log"]?["entries"]?[7] == nil)
        // The browser's credentials are redacted on the way out.
        #expect(
            saved["log"]?["entries"]?[0]?["request"]?["headers"]?.arrayContains(["name": "cookie", "value": "REDACTED"])
                == true)
        #expect(saved["log"]?["entries"]?[0]?["request"]?["cookies"]?[0]?["value"] == "REDACTED")
        #expect(!String(decoding: try Data(contentsOf: file), as: UTF8.self).contains("real-session-id"))
    }
}

@Suite("Corrupt cassettes", .timeLimit(.minutes(3)), .hangGuard)
struct CorruptCassetteTests {
    let folder: TemporaryFolder

    init() throws {
        folder = try TemporaryFolder()
    }

    private func openingFails(_ text: String) throws -> (jsonPath: String, reason: String, description: String)? {
        let file = try folder.write("broken.har", text)
        do {
            _ = try Cassette(contentsOf: file, record: .none)
            return nil
        } catch RequestMockerError.invalidCassette(let path, let jsonPath, let reason) {
            #expect(path == file.path)
            let error = RequestMockerError.invalidCassette(path: path, jsonPath: jsonPath, reason: reason)
            return (jsonPath, reason, error.description)
        }
    }

    @Test("a syntax error names the line, the column and the JSON path")
    func syntax() throws {
        let text = """
            {"log": {"version": "1.2", "entries": [
              {"request": {"method": "GET", "url": "https://a.test/"}, "response": {"status": 200}},
              {"request": {"method": "GET", "url": "https://a.test/" "oops": 1}}
            ]}}
            """
        let failure = try #require(try openingFails(text))
        #expect(failure.jsonPath == "log.entries[1].request.url")
        #expect(failure.reason.hasSuffix("(line 3, column 58)"))
        #expect(
            failure.description.contains(
                "broken.har is not a valid HAR file: at log.entries[1].request.url: "
                    + "expected \",\" or \"}\" in an object (line 3, column 58)"
            ))
    }

    @Test("a wrong type or a missing field names its JSON path")
    func structure() throws {
        let entry = #"{"request": {"method": "GET", "url": "https://a.test/"}, "response": {"status": 200}}"#
        let cases: [(String, String, String)] = [
            // (A top-level array is a YAHTTPVCR tape; see YAHTTPVCRTests.)
            (#"7"#, "(root)", "expected an object with a \"log\""),
            (#"{"lag": {}}"#, "log", "missing; a HAR file is {\"log\": {\"entries\": [...]}}"),
            (#"{"log": {"entries": {}}}"#, "log.entries", "expected an array"),
            (
                #"{"log": {"entries": [\#(entry), {"request": {"url": "https://a.test/"}, "#
                    + #""response": {"status": 200}}]}}"#,
                "log.entries[1].request.method", "missing"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.test/"}, "#
                    + #""response": {"status": "200"}}]}}"#,
                "log.entries[0].response.status", "expected a number"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "a.test"}, "#
                    + #""response": {"status": 200}}]}}"#,
                "log.entries[0].request.url", "\"a.test\" is not an absolute URL"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.test/"}, "#
                    + #""response": {"status": 200, "content": {"text": "!!", "encoding": "base64"}}}]}}"#,
                "log.entries[0].response.content.text", "not valid base64"
            ),
            (
                #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.test/", "#
                    + #""headers": [{"value": "x"}]}, "response": {"status": 200}}]}}"#,
                "log.entries[0].request.headers[0].name", "missing"
            ),
            (
                #"{"log": {"entries": [{"startedDateTime": "yesterday", "#
                    + #""request": {"method": "GET", "url": "https://a.test/"}, "response": {"status": 200}}]}}"#,
                "log.entries[0].startedDateTime",
                "\"yesterday\" is not an ISO 8601 date such as 2026-11-22T10:00:00.000Z"
            ),
        ]
        for (text, jsonPath, reason) in cases {
            let failure = try #require(try openingFails(text), "\(text)")
            #expect(failure.jsonPath == jsonPath)
            #expect(failure.reason == reason)
        }
    }

    @Test("a header name or value that would split the response, or a status outside 100-999, fails the load")
    func responseSplittingIsRefusedAtLoad() throws {
        func cassette(status: String = "200", header: String) -> String {
            #"{"log": {"entries": [{"request": {"method": "GET", "url": "https://a.test/"}, "#
                + #""response": {"status": \#(status), "headers": [\#(header)]}}]}}"#
        }
        let splitting = #"{"name": "X\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nX-Smuggled", "value": "1"}"#
        let cases: [(String, String, String)] = [
            (
                cassette(header: splitting), "log.entries[0].response.headers[0].name",
                #""X\r\nContent-Length: 0\r\n\r\nHTTP/1.1 200 OK\r\nX-Smuggled" is not a header name; "#
                    + "use letters, digits and !#$%&'*+-.^_`|~ only"
            ),
            (
                cassette(header: #"{"name": "X-A", "value": "1\r\nSet-Cookie: a=b"}"#),
                "log.entries[0].response.headers[0].value",
                "the value holds a carriage return, line feed or NUL; remove it"
            ),
            (
                cassette(status: "-7", header: ""), "log.entries[0].response.status",
                "-7 is not an HTTP status; use three digits from 100 to 999 (0 for a failed request)"
            ),
            (
                cassette(status: "1000000", header: ""), "log.entries[0].response.status",
                "1000000 is not an HTTP status; use three digits from 100 to 999 (0 for a failed request)"
            ),
        ]
        for (text, jsonPath, reason) in cases {
            let failure = try #require(try openingFails(text), "\(text)")
            #expect(failure.jsonPath == jsonPath)
            #expect(failure.reason == reason)
        }
    }

    @Test("mode all replaces a corrupt cassette without reading it, even when nothing is recorded")
    func allIgnoresOldContent() throws {
        let file = try folder.write("broken.har", "not json")
        let cassette = try openCassette(file, record: .all)
        #expect(cassette.interactions.isEmpty)
        #expect(cassette.hasUnsavedChanges)
        #expect(try cassette.save())
        #expect(try cassette.save() == false)
        let replaced = try JSONValue(parsing: Data(contentsOf: file))
        #expect(harProblems(replaced) == [])
        #expect(replaced["log"]?["entries"] == [])
    }

    @Test("a save leaves no temporary file, and removes those a killed save of the same file left behind")
    func savingRemovesLeftoversOfKilledSaves() throws {
        let file = try folder.write("kept.har", "not json")
        // Int32.max is never a process; process 1 always is.
        let kept = ".request-mocker-\(AtomicFile.shortHash("kept.har"))"
        let leftover = "\(kept)-\(Int32.max)-dead0001.tmp"
        let inProgress = "\(kept)-1-live0001.tmp"
        let otherFiles = ".request-mocker-\(AtomicFile.shortHash("other.har"))-\(Int32.max)-dead0002.tmp"
        for name in [leftover, inProgress, otherFiles] { try folder.write(name, String(repeating: "x", count: 1_000)) }
        let cassette = try openCassette(file, record: .all)
        #expect(try cassette.save())
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(names == [inProgress, otherFiles, "kept.har"].sorted())
        #expect(harProblems(try JSONValue(parsing: Data(contentsOf: file))) == [])
    }
}

/// A HAR as browsers export it (issue 43): the body's media type in `postData` when the request
/// lists no headers, `params` as the body they were, checked as headers are.
@Suite("HAR postData as browsers write it", .timeLimit(.minutes(3)), .hangGuard)
struct HARPostDataTests {
    static func interactions(_ request: String, response: String = "") throws -> [Interaction] {
        let folder = try TemporaryFolder()
        let answer =
            response.isEmpty
            ? #"{"status": 200, "headers": [], "content": {"size": 2, "mimeType": "application/json", "text": "{}"}}"#
            : response
        let file = try folder.write(
            "browser.har",
            #"{"log": {"entries": [{"request": {"method": "POST", "url": "https://app.example/x", "headers": [], "#
                + #""postData": \#(request)}, "response": \#(answer)}]}}"#)
        return try Cassette(contentsOf: file, record: .none).interactions
    }

    @Test("params are the body of a form or a multipart upload; postData's mimeType is the body's media type")
    func paramsAndMimeType() throws {
        let form = try #require(
            try Self.interactions(
                #"{"mimeType": "application/x-www-form-urlencoded", "params": [{"name": "a b", "value": "1&2"}]}"#
            ).first?.request)
        #expect(form.bodyText == "a%20b=1%262")
        #expect(form.headers[.contentType] == "application/x-www-form-urlencoded")
        let upload = try #require(
            try Self.interactions(
                #"{"mimeType": "multipart/form-data; boundary=----Q", "params": [{"name": "t", "value": "x"}, "#
                    + #"{"name": "f", "fileName": "a.png", "contentType": "image/png", "value": "PNG"}]}"#
            ).first?.request)
        #expect(upload.headers[.contentType] == "multipart/form-data; boundary=----Q")
        let parts = MultipartBody(upload.body ?? Data(), boundary: "----Q")?.parts
        #expect(
            parts == [
                MultipartBody.Part(name: "t", body: Data("x".utf8)),
                MultipartBody.Part(name: "f", fileName: "a.png", contentType: "image/png", body: Data("PNG".utf8)),
            ])
        // Without a boundary in the mimeType, one of ours is written into it.
        let unbounded = try #require(
            try Self.interactions(#"{"mimeType": "multipart/form-data", "params": [{"name": "t", "value": "x"}]}"#)
                .first?.request)
        #expect(unbounded.headers[.contentType] == "multipart/form-data; boundary=RequestMockerHARBoundary")
        // Params of a type that isn't a form make no body; text keeps its mimeType.
        let json = try Self.interactions(#"{"mimeType": "application/json", "params": [{"name": "a", "value": "1"}]}"#)
        #expect(json.first?.request.body == nil)
        let text = try Self.interactions(#"{"mimeType": "application/json", "text": "{\"a\": 1}"}"#)
        #expect(text.first?.request.headers[.contentType] == "application/json")
        // A response without a Content-Type header has content's mimeType, not browsers' x-unknown.
        #expect(text.first?.response?.headers[.contentType] == "application/json")
        let unknown = try Self.interactions(
            #"{"text": "x"}"#,
            response: #"{"status": 200, "headers": [], "content": {"mimeType": "x-unknown", "text": "hi"}}"#)
        #expect(unknown.first?.response?.headers[.contentType] == nil)
    }

    @Test("a param's contentType with a line break is refused where it is")
    func lineBreaks() throws {
        #expect {
            try Self.interactions(
                #"{"mimeType": "multipart/form-data", "params": [{"name": "f", "fileName": "a", "#
                    + #""contentType": "text/plain\r\n\r\ninjected", "value": "x"}]}"#)
        } throws: { error in
            "\(error)".contains("log.entries[0].request.postData.params[0].contentType")
                && "\(error)".contains("carriage return, line feed or NUL")
        }
    }
}

/// A browser's HAR upload plays back to the same upload sent live with a boundary of its own.
@Suite("Multipart bodies matched by their parts", .timeLimit(.minutes(3)), .hangGuard)
struct MultipartMatchingTests {
    @Test(
        "the body matcher compares a multipart body's parts, whatever the boundary; a file the HAR left empty takes any"
    )
    func partsNotBytes() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(
            "upload.har",
            #"{"log": {"entries": [{"request": {"method": "POST", "url": "https://app.example/uploads", "#
                + #""headers": [], "postData": {"mimeType": "multipart/form-data; boundary=----FromTheBrowser", "#
                + #""params": [{"name": "title", "value": "Trip"}, {"name": "photo", "fileName": "a.png"}]}}, "#
                + #""response": {"status": 201, "headers": [], "content": {"mimeType": "application/json", "#
                + #""text": "{\"id\": 7}"}}}]}}"#)
        let cassette = try Cassette(
            contentsOf: file, record: .none, matchers: [.method, .host, .path, .body])
        let registry = MockRegistry()
        registry.register(cassette)
        func upload(title: String) -> URLRequest {
            var request = URLRequest(url: URL(string: "https://app.example/uploads")!)
            request.httpMethod = "POST"
            request.setValue("multipart/form-data; boundary=Live123", forHTTPHeaderField: "Content-Type")
            request.httpBody = MultipartBody(parts: [
                MultipartBody.Part(name: "title", body: Data(title.utf8)),
                MultipartBody.Part(name: "photo", fileName: "a.png", contentType: "image/png", body: Data([1, 2, 3])),
            ]).encoded(boundary: "Live123")
            return request
        }
        let (data, response) = try await registry.makeSession().data(for: upload(title: "Trip"))
        #expect((response as? HTTPURLResponse)?.statusCode == 201)
        #expect(String(decoding: data, as: UTF8.self) == #"{"id": 7}"#)
        // Another title is another body: nothing plays back.
        await #expect {
            try await registry.makeSession().data(for: upload(title: "Other"))
        } throws: { error in
            "\(error)".contains("no filter matched POST https://app.example/uploads")
        }
    }
}
