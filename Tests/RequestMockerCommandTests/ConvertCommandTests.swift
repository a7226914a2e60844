import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

/// `request-mocker convert`: YAHTTPVCR to HAR, HAR to a mock-data folder, and a folder to HAR.
@Suite(.timeLimit(.minutes(3)), .hangGuard) struct ConvertCommandTests {
    static let tapes = Command.packageRoot.appendingPathComponent("Tests/RequestMockerTests/Fixtures/YAHTTPVCR")

    @Test func aYAHTTPVCRTapeBecomesHARThenAFolderThenHARAgain() async throws {
        let folder = try TemporaryFolder()
        let har = folder.url.appendingPathComponent("httpbin.har")
        let converted = try await Command.run([
            "convert", Self.tapes.appendingPathComponent("httpbin.json").path, har.path,
        ])
        #expect(converted.status == 0, "\(converted.error)")
        #expect(
            converted.output
                == "converted 3 of 3 from the YAHTTPVCR cassette \(Self.tapes.path)/httpbin.json into the HAR file "
                + "\(har.path)\n")
        let cassette = try Cassette(contentsOf: har, record: .none)
        #expect(!cassette.isYAHTTPVCR)
        #expect(cassette.interactions.map(\.response?.status) == [200, 404, nil])

        let mockData = folder.url.appendingPathComponent("MockData")
        let split = try await Command.run(["convert", har.path, mockData.path])
        #expect(split.status == 0, "\(split.error)")
        #expect(
            split.output
                == "converted 2 of 3 from the HAR file \(har.path) into the mock-data folder \(mockData.path)\n"
                + "  left out entry 2 (GET https://httpbin.org/delay/10): a transport error, which a mock-data file "
                + "can't hold\n")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: mockData.path).sorted() == [
                "GET|-get?page=2&sort=name.http", "POST|-post|d4-name3-Adae.http",
            ])
        #expect(
            try String(contentsOf: mockData.appendingPathComponent("GET|-get?page=2&sort=name.http"), encoding: .utf8)
                == "HTTP/1.1 404 Not Found\nContent-Type: text/plain\n\nnot found")

        let back = folder.url.appendingPathComponent("back.har")
        let joined = try await Command.run(["convert", mockData.path, back.path, "--host", "https://httpbin.org"])
        #expect(joined.status == 0, "\(joined.error)")
        #expect(
            joined.output
                == "converted 1 of 2 from the mock-data folder \(mockData.path) into the HAR file \(back.path)\n"
                + "  left out POST|-post|d4-name3-Adae.http: a folder keeps a request body only in the file's name "
                + "(bencoded or hashed), which isn't read back; record into a cassette (--cassette FILE.har --record) "
                + "to keep request bodies\n")
        let replayed = try Cassette(contentsOf: back, record: .none)
        #expect(replayed.interactions.map(\.request.description) == ["GET https://httpbin.org/get?page=2&sort=name"])
        #expect(replayed.interactions.first?.response?.body == Data("not found".utf8))
    }

    @Test func aLinkToAFileOutsideTheFolderIsLeftOut() async throws {
        let folder = try TemporaryFolder()
        let mockData = folder.url.appendingPathComponent("MockData")
        try FileManager.default.createDirectory(at: mockData, withIntermediateDirectories: true)
        let outside = try folder.write("secret.json", #"{"token": "hunter2"}"#)
        try FileManager.default.createSymbolicLink(
            at: mockData.appendingPathComponent("GET|-secret.json"), withDestinationURL: outside)
        try Data(#"{"ok": true}"#.utf8).write(to: mockData.appendingPathComponent("GET|-ok.json"))
        let har = folder.url.appendingPathComponent("out.har")
        let result = try await Command.run(["convert", mockData.path, har.path])
        #expect(
            result.output
                == "converted 1 of 2 from the mock-data folder \(mockData.path) into the HAR file \(har.path)\n"
                + "  left out GET|-secret.json: a link to a file outside the folder\n")
        #expect(try !String(contentsOf: har, encoding: .utf8).contains("hunter2"))
    }

    @Test func convertHelpIsTheHelp() async throws {
        let result = try await Command.run(["convert", "--help"])
        #expect(result.status == 0)
        #expect(result.output.contains("request-mocker convert IN OUT [--host URL]"))
    }

    @Test(arguments: [
        (["convert", "/no/such.json", "out.har"], 66, "request-mocker: no file or folder at /no/such.json\n"),
        (
            ["convert", "one.json"], 64,
            "request-mocker: convert takes IN and OUT, for example "
                + "`request-mocker convert Cassettes/login.json login.har`\n"
        ),
        (
            ["convert", "a", "b", "--host", "ftp://x"], 64,
            "request-mocker: --host needs a URL, for example --host https://api.example.com\n"
        ),
    ])
    func mistakes(arguments: [String], status: Int32, message: String) async throws {
        let result = try await Command.run(arguments)
        #expect(result.status == status)
        #expect(result.error == message)
    }
}
