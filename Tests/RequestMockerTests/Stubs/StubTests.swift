import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

@Suite("Stubs written as JSON", .timeLimit(.minutes(3)), .hangGuard)
struct StubTests {
    /// The status, the named header and the body of `url` through a session of `registry`.
    func fetch(
        _ registry: MockRegistry, _ url: String, method: String = "GET", headers: [String: String] = [:],
        body: String? = nil
    ) async throws -> (status: Int, header: String?, body: String) {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        request.httpBody = body.map { Data($0.utf8) }
        let (data, response) = try await registry.makeSession().data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, http.value(forHTTPHeaderField: "X-Echo"), String(decoding: data, as: UTF8.self))
    }

    @Test("request conditions: method, host, path, query, headers and JSON body")
    func requestConditions() async throws {
        let registry = MockRegistry()
        let stub = try Stub(json: [
            "request": [
                "method": "post", "host": "*.api.test", "path": "/users/<id>/notes",
                "query": ["draft": nil, "lang": "en"], "headers": ["X-Team": "blue"], "jsonBody": ["text": "hi"],
            ],
            "response": ["status": 201, "headers": ["X-Echo": "made"], "json": ["ok": true]],
        ])
        registry.register(stub.filter)
        let made = try await fetch(
            registry, "https://eu.api.test/users/7/notes?lang=en&draft", method: "POST", headers: ["X-Team": "blue"],
            body: #"{"text": "hi"}"#)
        #expect(made.status == 201)
        #expect(made.header == "made")
        #expect(made.body == #"{"ok":true}"#)
        // Each condition that fails is named, as for a filter written in Swift.
        let error = await #expect(throws: RequestMockerError.self) {
            _ = try await fetch(registry, "https://eu.api.test/users/7/notes?lang=de&draft", method: "POST", body: "{}")
        }
        #expect("\(error.map(String.init(describing:)) ?? "")".contains("query has lang=de, filter wants lang=en"))
        #expect(
            stub.filter.description
                == #"POST *.api.test/users/<id>/notes ?draft&lang=en [X-Team: blue] body {"text":"hi"} (stub)"#)
    }

    @Test("templates fill path variables, query items and headers into the body and header values")
    func templates() async throws {
        let registry = MockRegistry()
        registry.register(
            try Stub(json: [
                "request": ["path": "/users/<id>"],
                "response": [
                    "template": true, "headers": ["X-Echo": "user {{id}} for {{header.X-Who}}"],
                    "json": ["id": "{{id}}", "search": ["{{query.q}}", "fixed"], "missing": "[{{query.none}}]"],
                ],
            ]).filter)
        registry.register(
            try Stub(json: [
                "request": ["path": "/text/<name>"],
                "response": ["template": true, "body": "Hello, {{ name }}!"],
            ]).filter)
        let user = try await fetch(registry, "https://api.test/users/7?q=swift", headers: ["X-Who": "ada"])
        #expect(user.header == "user 7 for ada")
        #expect(user.body == #"{"id":"7","missing":"[]","search":["swift","fixed"]}"#)
        // A value that would break the JSON stays a string inside it.
        let quoted = try await fetch(registry, "https://api.test/users/%22%7D?q=%22")
        #expect(quoted.body == #"{"id":"\"}","missing":"[]","search":["\"","fixed"]}"#)
        #expect(try await fetch(registry, "https://api.test/text/Ada").body == "Hello, Ada!")
    }

    @Test("form fields, a path extension, and a pass-through to the real server")
    func formsExtensionsAndPassThrough() async throws {
        let real = try await PythonEchoServer.shared(script: "redirect_server").baseURL
        let registry = MockRegistry()
        for json: JSONValue in [
            [
                "request": ["method": "POST", "path": "/token", "formBody": ["grant_type": "password", "scope": nil]],
                "response": ["json": ["token": "t"]],
            ],
            ["request": ["path": "/images/*", "pathExtension": "png"], "response": ["body": "a picture"]],
            ["request": ["path": "/echo/**"], "response": ["passThrough": true]],
        ] {
            registry.register(try Stub(json: json).filter)
        }
        let token = try await fetch(
            registry, "https://api.test/token", method: "POST", body: "scope&grant_type=password&user=ada")
        #expect(token.body == #"{"token":"t"}"#)
        let refused = await #expect(throws: RequestMockerError.self) {
            _ = try await fetch(registry, "https://api.test/token", method: "POST", body: "grant_type=code&scope")
        }
        #expect("\(refused.map(String.init(describing:)) ?? "")".contains("grant_type"))
        #expect(try await fetch(registry, "https://api.test/images/logo.PNG").body == "a picture")
        await #expect(throws: RequestMockerError.self) {
            _ = try await fetch(registry, "https://api.test/images/a.jpg")
        }
        let passed = try await fetch(registry, real + "/echo/hi")
        #expect(try JSONValue(parsing: Data(passed.body.utf8))["path"] == "/echo/hi")
        guard case .passedThrough = try #require(registry.journal.last).disposition else {
            Issue.record("\(String(describing: registry.journal.last))")
            return
        }
    }

    @Test("sequences, faults, delays and base64 bodies")
    func responses() async throws {
        let registry = MockRegistry()
        registry.register(
            try Stub(json: [
                "request": ["path": "/flaky"],
                "response": ["sequence": [["status": 503], ["body": "ok"]], "afterLast": "stopMatching"],
            ]).filter)
        registry.register(try Stub(json: ["request": ["path": "/reset"], "response": ["fault": "reset"]]).filter)
        registry.register(
            try Stub(json: ["request": ["path": "/bytes"], "response": ["base64Body": "AAEC", "delay": 0.05]]).filter)
        #expect(try await fetch(registry, "https://api.test/flaky").status == 503)
        #expect(try await fetch(registry, "https://api.test/flaky").body == "ok")
        await #expect(throws: RequestMockerError.self) { _ = try await fetch(registry, "https://api.test/flaky") }
        let reset = await #expect(throws: URLError.self) { _ = try await fetch(registry, "https://api.test/reset") }
        #expect(reset?.code == ConnectionFault.reset.urlErrorCode)
        let clock = ContinuousClock()
        let start = clock.now
        let bytes = try await fetch(registry, "https://api.test/bytes")
        #expect(start.duration(to: clock.now) >= .milliseconds(50))
        #expect(Array(bytes.body.utf8) == [0, 1, 2])
    }

    @Test("chunks and events stream as the same responses written in Swift do")
    func streams() async throws {
        let registry = MockRegistry()
        let events = try Stub(json: [
            "request": ["path": "/events"],
            "response": [
                "events": [["event": "token", "data": "a\nb", "id": "1"], ["comment": "ping", "retry": 500]],
                "interval": 0.05,
            ],
        ])
        let chunks = try Stub(json: [
            "request": ["path": "/chunks"],
            "response": [
                "headers": ["Content-Type": "text/plain"],
                "chunks": [["text": "one "], ["base64": "dHdv", "pause": 0.05]],
            ],
        ])
        registry.register(events.filter)
        registry.register(chunks.filter)
        let session = registry.makeSession()
        let (eventData, eventResponse) = try await session.data(from: url("https://api.test/events"))
        #expect(
            String(decoding: eventData, as: UTF8.self)
                == "event: token\nid: 1\ndata: a\ndata: b\n\n: ping\nretry: 500\n\n")
        #expect((eventResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/event-stream")
        let (chunkData, chunkResponse) = try await session.data(from: url("https://api.test/chunks"))
        #expect(chunkData == Data("one two".utf8))
        #expect((chunkResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "text/plain")
    }

    @Test(
        "a wrong stub names the JSON path and says what is wrong",
        arguments: [
            (#"[]"#, "at (root): expected an object with \"id\", \"request\", \"response\", \"scenario\""),
            (
                #"{"request": {}}"#,
                #"at (root): a stub has a "request" and a "response" ("request": {} matches every request)"#
            ),
            (
                #"{"request": {"verb": "GET"}, "response": {}}"#,
                #"at request.verb: unknown key "verb"; the keys here are "method", "host", "path", "query", "#
                    + #""headers", "jsonBody", "formBody", "pathExtension", "graphql""#
            ),
            (
                #"{"request": {"path": "/a/<b"}, "response": {}}"#,
                #"at request.path: invalid path pattern "/a/<b" at column 4: unbalanced "<": "#
                    + #"close the variable with ">""#
            ),
            (#"{"request": {"query": {"q": 1}}, "response": {}}"#, "at request.query.q: expected a string or null"),
            (
                #"{"request": {"method": "GE T"}, "response": {}}"#,
                #"at request.method: "GE T" is not a method, such as GET or POST"#
            ),
            (
                #"{"request": {}, "response": {"status": 1000}}"#,
                "at response.status: expected a status code from 200 to 999"
            ),
            (
                #"{"request": {}, "response": {"headers": {"X-A": "a\nb"}}}"#,
                "at response.headers.X-A: a header value can't hold a line break or NUL"
            ),
            (
                #"{"request": {}, "response": {"json": 1, "body": "x"}}"#,
                #"at response.body: a response has at most one of "json", "body", "base64Body", "bodyFile", "#
                    + #""fault", "sequence", "chunks", "events", "webSocket", "passThrough", "openapi""#
            ),
            (
                #"{"request": {"pathExtension": "tar.gz"}, "response": {}}"#,
                "at request.pathExtension: expected an extension such as json or png"
            ),
            (
                #"{"request": {"formBody": {"a": 1}}, "response": {}}"#,
                "at request.formBody.a: expected a string or null"
            ),
            (
                #"{"request": {}, "response": {"passThrough": false}}"#,
                "at response.passThrough: expected true (leave it out for a mocked response)"
            ),
            (
                #"{"request": {}, "response": {"passThrough": true, "status": 200}}"#,
                #"at response.status: a pass-through sends the real server's answer, so it has no "status""#
            ),
            (
                #"{"request": {}, "response": {"fault": "explode"}}"#,
                #"at response.fault: expected one of "closeBeforeResponding", "malformedStatusLine", "reset", "stall""#
            ),
            (
                #"{"request": {}, "response": {"fault": "reset", "status": 500}}"#,
                #"at response.status: a fault sends no response, so it has no "status""#
            ),
            (
                #"{"request": {}, "response": {"sequence": [{"sequence": [{}]}]}}"#,
                "at response.sequence[0].sequence: a sequence's responses can't be sequences"
            ),
            (
                #"{"request": {}, "response": {"sequence": []}}"#,
                "at response.sequence: expected a list of one or more responses"
            ),
            (#"{"request": {}, "response": {"base64Body": "%%"}}"#, "at response.base64Body: not valid base64"),
            (
                #"{"request": {}, "response": {"bodyFile": "a.json"}}"#,
                #"at response.bodyFile: "bodyFile" is for stubs files; send the body as "body" or "base64Body""#
            ),
            (
                #"{"request": {}, "response": {"delay": -1}}"#,
                "at response.delay: expected a number of seconds from 0 to 3600"
            ),
            (
                #"{"request": {"path": "/u/<id>"}, "response": {"template": true, "json": {"a": ["{{ids}}"]}}}"#,
                "at response.json.a[0]: {{ids}} is not a path variable, query.NAME or header.NAME "
                    + "(the path gives {{id}})"
            ),
            (
                #"{"request": {}, "response": {"template": true, "body": "{{query.q"}}"#,
                #"at response.body: "{{" without "}}"; write {{id}}, {{query.name}} or {{header.Name}}"#
            ),
            (
                #"{"request": {}, "response": {"template": true, "base64Body": "AA=="}}"#,
                #"at response.template: templates fill "json" and "body" text and header values"#
            ),
            (
                #"{"request": {}, "response": {"chunks": [{"text": "a"}, {"pause": 1}]}}"#,
                #"at response.chunks[1]: a chunk has one of "text" or "base64""#
            ),
            (
                #"{"request": {}, "response": {"chunks": [{"text": "a", "pause": 7200}]}}"#,
                "at response.chunks[0].pause: expected a number of seconds from 0 to 3600"
            ),
            (
                #"{"request": {}, "response": {"events": [{"data": "a"}, {"id": "1\n2"}]}}"#,
                "at response.events[1]: its id holds a line break"
            ),
            (
                #"{"request": {}, "response": {"events": [{"retry": 1.5}]}}"#,
                "at response.events[0].retry: expected a number of milliseconds, 0 or more"
            ),
            (
                #"{"request": {}, "response": {"body": "x", "interval": 1}}"#,
                #"at response.interval: "interval" belongs to "events""#
            ),
            (
                #"{"request": {}, "response": {"template": true, "events": []}}"#,
                #"at response.template: templates fill "json" and "body" text and header values"#
            ),
            (
                #"{"request": {}, "response": {"webSocket": {"rules": [{"text": "(", "reply": []}]}}}"#,
                #"at response.webSocket.rules[0].text: the rule pattern "(" is not a valid regular expression: "#
                    + "check for unbalanced parentheses or brackets, a dangling quantifier, or a lone backslash"
            ),
            (
                #"{"request": {}, "response": {"webSocket": {"rules": [{"any": true, "reply": [{"shout": "x"}]}]}}}"#,
                #"at response.webSocket.rules[0].reply[0].shout: unknown key "shout"; the keys here are "text", "#
                    + #""base64", "echo", "pause", "close""#
            ),
            (
                #"{"request": {}, "response": {"webSocket": {"onConnect": [{"close": {"code": 1006}}]}}}"#,
                "at response.webSocket: a close action in onConnect has code 1006; a server may send 1000-1003, "
                    + "1007-1014 or 3000-4999"
            ),
            (
                #"{"request": {}, "response": {"webSocket": "echo", "status": 200}}"#,
                "at response.status: a WebSocket endpoint answers 101 Switching Protocols"
            ),
        ])
    func invalidStubs(json: String, message: String) throws {
        let value = try JSONValue(parsing: Data(json.utf8))
        let error = #expect(throws: Stub.Invalid.self) { try Stub(json: value) }
        #expect(error?.description == message)
    }

    @Test("a stubs file's mistake gives the file, line, column and JSON path; bodyFile is found beside it")
    func stubsFiles() throws {
        let folder = try TemporaryFolder()
        try folder.write("user.json", #"{"id": 1}"#)
        let good = try folder.write(
            "stubs.json",
            """
            {
              "$schema": "./stubs.schema.json",
              "stubs": [
                {"request": {"path": "/user"}, "response": {"bodyFile": "user.json"}},
                {"request": {"path": "/health"}, "response": {"status": 204}}
              ]
            }
            """)
        let stubs = try Stub.stubs(contentsOf: good)
        #expect(stubs.map(\.filter.description) == ["ANY /user (stubs.json:4)", "ANY /health (stubs.json:5)"])

        let bad = try folder.write(
            "bad.json",
            """
            {"stubs": [
              {"request": {}, "response": {}},
              {"request": {"path": "/a"},
               "response": {"status": "teapot"}}
            ]}
            """)
        let error = #expect(throws: RequestMockerError.self) { try Stub.stubs(contentsOf: bad) }
        #expect(
            error?.description
                == "stubs file \(bad.path):4:27: at stubs[1].response.status: expected a status code from 200 to 999; "
                + "fix the file (its schema is stubs.schema.json)")
        let missingFile = try folder.write(
            "missing.json", #"{"stubs": [{"request": {}, "response": {"bodyFile": "nope.json"}}]}"#)
        let missing = #expect(throws: RequestMockerError.self) { try Stub.stubs(contentsOf: missingFile) }
        #expect(
            missing?.description
                == "stubs file \(missingFile.path):1:53: at stubs[0].response.bodyFile: no readable file at "
                + "\(folder.url.path)/nope.json; fix the file (its schema is stubs.schema.json)")
        let notJSON = try folder.write("broken.json", "{\"stubs\": [\n  {\"request\": }\n]}")
        let syntax = #expect(throws: RequestMockerError.self) { try Stub.stubs(contentsOf: notJSON) }
        #expect(syntax?.description.hasPrefix("stubs file \(notJSON.path):2:15: at stubs[0].request: ") == true)
        let list = try folder.write("list.json", "[]")
        let wrongShape = #expect(throws: RequestMockerError.self) { try Stub.stubs(contentsOf: list) }
        #expect(
            wrongShape?.description
                == "stubs file \(list.path):1:1: at (root): a stubs file is an object with a \"stubs\" list: "
                + "{\"stubs\": [...]}; fix the file (its schema is stubs.schema.json)")
    }
}
