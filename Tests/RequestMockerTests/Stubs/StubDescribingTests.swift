import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `Stub(describing:)`: a filter written in Swift, sent as JSON, answers as it did.
@Suite("Stubs describing Swift filters", .timeLimit(.minutes(3)), .hangGuard)
struct StubDescribingTests {
    /// Status, headers (sorted) and body of each request through a registry holding `filter`.
    func answers(_ filter: RequestFilter, _ urls: [String]) async throws -> [String] {
        let registry = MockRegistry()
        registry.register(filter)
        var answers: [String] = []
        for url in urls {
            do {
                var request = URLRequest(url: URL(string: url)!)
                request.setValue("application/json", forHTTPHeaderField: "Accept")
                let (data, response) = try await registry.makeSession().data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                let headers = http.allHeaderFields.map { "\($0.key): \($0.value)" }.sorted()
                answers.append("\(http.statusCode) \(headers) \(String(decoding: data, as: UTF8.self))")
            } catch let error as URLError {
                answers.append("URLError \(error.code.rawValue)")
            } catch {
                answers.append("\(error)")
            }
        }
        return answers
    }

    @Test(arguments: [
        RequestFilter.get("/users/<id>").query(["q": "swift", "flag": nil]).header("Accept", "application/json")
            .respond(with: .json(["id": 1], status: .created, headers: ["X-A": "b"])),
        RequestFilter.any("/text").respond(with: .string("hello").withHeader("Content-Type", "text/markdown")),
        RequestFilter.get("/bytes").respond(with: .data(Data([0, 255, 7]))),
        RequestFilter.get("/empty").respond(with: .status(.noContent)),
        RequestFilter.get("/turns").respond(with: .sequence([.status(503), .string("ok")], afterLast: .stopMatching)),
        RequestFilter.get("/twice").respond(with: .string("ok").times(2)),
        RequestFilter.get("/slow").respond(with: .string("late").delayed(by: .milliseconds(30))),
        RequestFilter.get("/reset").respond(with: .fault(.reset)),
        RequestFilter.get("/feed").respond(
            with: .stream([.text("a\n"), .data(Data([0, 255]), after: .milliseconds(20))], contentType: "text/plain")),
        RequestFilter.get("/events").respond(
            with: .events([ServerSentEvent(event: "t", data: "x", id: "1"), ServerSentEvent(comment: "c")])),
        // A plain GET to a WebSocket endpoint: 426, as described.
        RequestFilter.webSocket("/chat").respond(
            with: .webSocket(
                WebSocketScript(
                    onConnect: [.text("hi"), .binary(Data([1]))],
                    rules: [
                        .json(["a": 1], [.pause(.milliseconds(10)), .echo]), .any([.close(code: 4000, reason: "x")]),
                    ],
                    subprotocols: ["v1"], maximumMessageSize: 4096))),
    ])
    func describedStubsAnswerAsTheFilterDid(_ filter: RequestFilter) async throws {
        let stub = try Stub(describing: filter)
        let path = filter.path?.rawValue.replacingOccurrences(of: "<id>", with: "7") ?? "/"
        let urls = Array(repeating: "https://api.test\(path)?q=swift&flag", count: 4)
        let expected = try await answers(filter, urls)
        let described = try await answers(stub.filter, urls)
        #expect(described == expected, "\(described) \(expected)")
        // What it sends is itself a valid stub.
        #expect(try Stub(json: stub.json).json == stub.json)
    }

    @Test func formFieldsAPathExtensionAndAPassThroughAreSent() throws {
        let form = try Stub(describing: .post("/token").formBody(["grant_type": "password", "scope": nil]))
        #expect(
            form.json["request"] == [
                "method": "POST", "path": "/token", "formBody": ["grant_type": "password", "scope": nil],
            ])
        let picture = try Stub(describing: .get("/images/*").pathExtension(".PNG"))
        #expect(picture.json["request"] == ["method": "GET", "path": "/images/*", "pathExtension": "png"])
        let cdn = try Stub(
            describing: .get("/cdn/**").respond(with: MockResponse.passThrough.delayed(by: .milliseconds(250))))
        #expect(cdn.json["response"] == ["passThrough": true, "delay": 0.25])
        for stub in [form, picture, cdn] { #expect(try Stub(json: stub.json).json == stub.json) }
    }

    @Test func aFileBodyIsSentAsItsBytes() async throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("user.json", #"{"id": 1}"#)
        let stub = try Stub(describing: .get("/user").respond(with: .file(file)))
        #expect(
            stub.json["response"]
                == ["status": 200, "body": #"{"id": 1}"#, "headers": ["Content-Type": "application/json"]])
    }

    @Test(arguments: [
        (
            RequestFilter.get("/a").respond(with: .block { _, _ in .status(200) }),
            "at response: a block is Swift code, which can't be sent; describe the response itself"
        ),
        (
            RequestFilter.get("/a").when("even") { _ in true },
            #"at request.when: the predicate "even" is Swift code, which can't be sent"#
        ),
        (
            RequestFilter.get("https://api.test/a"),
            "at request.scheme: a scheme can't be sent: the server is reached over http; leave it out"
        ),
        (
            RequestFilter.get("/a").exactQuery(["q": "1"]),
            "at request.query: an exact query can't be sent; use query(_:), which allows other items"
        ),
        (
            RequestFilter.post("/a").formBody(["q": "1"]).formBody(["r": "2"]),
            "at request.formBody: form fields are asked for twice, which a stub can't hold"
        ),
        (
            RequestFilter.post("/a").formBody(["q": "1", "q": "2"]),
            "at request.formBody: the form field q is asked for twice, which a stub can't hold"
        ),
        (
            RequestFilter.get("/a").pathExtension("..png"),
            #"at request.pathExtension: the path extension ".png" matches no path, so it isn't sent"#
        ),
        (
            RequestFilter.get("/a").pathExtension("png").pathExtension("jpg"),
            "at request.pathExtension: two path extensions are asked for, which a stub can't hold"
        ),
        (
            RequestFilter.get("/a").respond(with: MockResponse.passThrough.withHeader("X-A", "b")),
            "at response: a status or headers on a sequence, fault or pass-through can't be sent; "
                + "set them on each response"
        ),
        (
            RequestFilter.get("/a").respond(with: .stream { _, _, continuation in continuation.finish() }),
            "at response: a computed stream is Swift code, which can't be sent; list its chunks instead"
        ),
        (
            RequestFilter.get("/a").respond(with: .error(URLError(.timedOut))),
            "at response: an error can't be sent; use .fault(_:) for a broken connection"
        ),
        (
            RequestFilter.get("/a").respond(with: .string("x").throttled(bytesPerSecond: 10)),
            "at response: a throttled or truncated body can't be sent"
        ),
        (
            RequestFilter.get("/a").respond(with: .string("x").times(2_000)),
            "at response: a sequence of more than 1,000 responses can't be sent"
        ),
        (
            RequestFilter.get("/a").respond(with: .sequence([.status(200), .block { _, _ in .status(201) }])),
            "at response.sequence[1]: a block is Swift code, which can't be sent; describe the response itself"
        ),
        (
            RequestFilter.get("/a").respond(with: .sequence([.status(200), .string("x").times(2)])),
            "at response.sequence[1]: a sequence inside a sequence can't be sent"
        ),
        (
            RequestFilter.get("/a").header("X-Team", "a").header("x-team", "b"),
            "at request.headers: the header x-team is asked for twice, which a stub can't hold"
        ),
        (
            RequestFilter.get("/a").query(["tag": "a", "tag": "b"]),
            "at request.query: the query item tag is asked for twice, which a stub can't hold"
        ),
    ])
    func whatJSONCantCarryIsRefused(_ filter: RequestFilter, _ message: String) {
        let error = #expect(throws: Stub.Invalid.self) { try Stub(describing: filter) }
        #expect(error?.description == message)
    }
}
