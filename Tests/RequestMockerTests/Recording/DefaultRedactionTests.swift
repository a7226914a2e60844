import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Recordings made with the default redaction, through a cassette and a recording folder, keep
/// every secret `SecretNames` lists out of files, file names, descriptions and error messages.
@Suite("Default redaction", .timeLimit(.minutes(3)), .hangGuard)
struct DefaultRedactionTests {
    let server: PythonEchoServer
    let folder: TemporaryFolder

    init() async throws {
        server = try await PythonEchoServer()
        folder = try TemporaryFolder()
    }

    /// The raw values the requests below carry, none of which may be written or printed.
    static let secrets = ["K1", "T1", "S1", "K2", "T2", "P1", "P2", "pw-9", "secret-token", "hunter2", "abc123"]

    /// Requests with secrets in the query, a header, a JSON body, a form body and the user info,
    /// and one whose response holds a token, a password and a cookie.
    func requests() -> [URLRequest] {
        let base = server.baseURL
        var query = URLRequest(url: url(base + "/echo/items?api_key=K1&access_token=T1&sessionId=S1&page=2"))
        query.setValue("K2", forHTTPHeaderField: "X-Api-Key")
        query.setValue("T2", forHTTPHeaderField: "X-Auth-Token")
        var json = URLRequest(url: url(base + "/echo/sign-in"))
        json.httpMethod = "POST"
        json.setValue("application/json", forHTTPHeaderField: "Content-Type")
        json.httpBody = Data(#"{"user": "ada", "credentials": {"password": "P1"}}"#.utf8)
        var form = URLRequest(url: url(base + "/echo/sign-in-form"))
        form.httpMethod = "POST"
        form.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        form.httpBody = Data("name=ada&password=P2".utf8)
        let userInfo = URLRequest(
            url: url(base.replacingOccurrences(of: "http://", with: "http://ada:pw-9@") + "/echo/me"))
        return [query, json, form, userInfo, URLRequest(url: url(base + "/login"))]
    }

    func leaks(in text: String) -> [String] {
        Self.secrets.filter { text.contains($0) }
    }

    // Before: the query's api_key and token, the X-Api-Key header, the JSON and form passwords,
    // the response's token, and the URL's password reached the files and their names.
    @Test("a cassette and a recording folder write no secret, in contents or in file names")
    func recordingsHoldNoSecret() async throws {
        let cassetteFile = folder.url.appendingPathComponent("secrets.har")
        let cassette = try Cassette(contentsOf: cassetteFile, record: .all)
        let recordingFolder = folder.url.appendingPathComponent("MockData")
        let registry = MockRegistry()
        registry.register(cassette)
        let folderRegistry = MockRegistry()
        folderRegistry.register(try MockDataFolder(recordingFolder, record: .all))
        for request in requests() {
            _ = try await registry.makeSession().data(for: request)
            _ = try await folderRegistry.makeSession().data(for: request)
        }
        try cassette.save()
        // The echo server repeats the request's path and body in its answers: those answers are
        // the server's words, so only the requests and the login answer are looked at.
        let har = try JSONValue(parsing: Data(contentsOf: cassetteFile))
        guard case .array(let entries)? = har["log"]?["entries"] else {
            Issue.record("no entries in \(har)")
            return
        }
        #expect(entries.count == 5)
        for entry in entries {
            let request = try #require(entry["request"])
            #expect(leaks(in: request.description) == [], "\(request)")
        }
        let login = try #require(entries.last?["response"])
        #expect(leaks(in: login.description) == [], "\(login)")
        #expect(login.description.contains("REDACTED"))
        let names = try FileManager.default.contentsOfDirectory(atPath: recordingFolder.path).sorted()
        #expect(names.count == 5)
        for name in names {
            #expect(leaks(in: name) == [], "\(name)")
            #expect(!name.contains("REDACTED"), "a name hashes what was hidden: \(name)")
        }
        #expect(names.contains { $0.hasPrefix("GET|-echo-items?") && !$0.contains("page=2") }, "\(names)")
        let loginFile = try String(
            contentsOf: recordingFolder.appendingPathComponent("GET|-login.http"), encoding: .utf8)
        #expect(leaks(in: loginFile) == [])
    }

    @Test("descriptions, journal entries and near-miss reports show no secret")
    func descriptionsHoldNoSecret() async throws {
        let registry = MockRegistry()
        registry.register(.get("/echo/items").query(["api_key": "other"]).header("X-Api-Key", "other"))
        registry.register(.post("/echo/sign-in").jsonBody(["credentials": ["password": "other"]]))
        // An empty folder's miss lists the file names it looked for, which hold the query.
        registry.register(try MockDataFolder(folder.url))
        var printed: [String] = []
        for request in requests() {
            do {
                _ = try await registry.makeSession().data(for: request)
            } catch {
                printed.append("\(error)")
            }
        }
        printed += registry.journal.map(\.description) + registry.journal.map(\.request.description)
        printed += registry.filters.map(\.description)
        // Five errors, five entries, five requests and the two filters.
        #expect(printed.count == 17)
        for text in printed { #expect(leaks(in: text) == [], "\(text)") }
        #expect(printed.contains { $0.contains("api_key=REDACTED") })
        #expect(printed.contains { $0.contains("names that would show a secret of the request, left out here") })
        #expect(printed.contains { $0.contains("http://REDACTED:REDACTED@127.0.0.1") })
    }

    @Test("each default rule can be switched off")
    func rulesCanBeSwitchedOff() throws {
        let request = MockRequest(
            method: .post, url: url("https://ada:pw@api.test/x?token=T&session=S"),
            headers: ["X-Api-Key": "K", "Content-Type": "application/json"], body: Data(#"{"password":"P"}"#.utf8))
        let kept = try #require(
            Redaction.default.keepingSecretNames().keepingUserInfo().redact(request))
        #expect(kept.url.absoluteString == "https://ada:pw@api.test/x?token=T&session=S")
        #expect(kept.header("X-Api-Key") == "K")
        #expect(kept.bodyText == #"{"password":"P"}"#)
        let some = try #require(Redaction.default.keepingField("session").keepingHeader("X-Api-Key").redact(request))
        #expect(some.url.absoluteString == "https://REDACTED:REDACTED@api.test/x?token=REDACTED&session=S")
        #expect(some.header("X-Api-Key") == "K")
        #expect(some.bodyText == #"{"password":"REDACTED"}"#)
        #expect(Redaction.none.redact(request)?.url == request.url)
    }
}
