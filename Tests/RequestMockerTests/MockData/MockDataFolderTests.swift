import Foundation
import RequestMocker
import RequestMockerTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("MockDataFolder", .timeLimit(.minutes(3)), .hangGuard)
struct MockDataFolderTests {
    let folder: TemporaryFolder
    let registry = MockRegistry()
    var session: URLSession { registry.makeSession() }

    init() throws {
        folder = try TemporaryFolder()
    }

    func fetchText(_ path: String) async throws -> (String, URLResponse) {
        let (data, response) = try await session.data(from: url(path))
        return (String(decoding: data, as: UTF8.self), response)
    }

    @Test(".json files: 200 with application/json; .http files: the whole response")
    func kinds() async throws {
        try folder.write("GET|-users-42.json", #"{"id": 42}"#)
        try folder.write(
            "POST|-users|d4-name3-Adae.http",
            "HTTP/1.1 201 Created\r\nLocation: /users/43\r\nTransfer-Encoding: chunked\r\n\r\n{\"id\": 43}")
        registry.register(try MockDataFolder(folder.url))

        let (json, jsonResponse) = try await fetchText("/users/42")
        #expect(json == #"{"id": 42}"#)
        #expect(jsonResponse.status == 200)
        #expect(jsonResponse.header("Content-Type") == "application/json")

        var post = URLRequest(url: url("/users"))
        post.httpMethod = "POST"
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.httpBody = Data(#"{ "name": "Ada" }"#.utf8)
        let (created, createdResponse) = try await session.data(for: post)
        #expect(String(decoding: created, as: UTF8.self) == #"{"id": 43}"#)
        #expect(createdResponse.status == 201)
        #expect(createdResponse.header("Location") == "/users/43")
        #expect(createdResponse.header("Transfer-Encoding") == nil)
        #expect(createdResponse.header("Content-Length") == "10")
        #expect(registry.journal.last?.file?.lastPathComponent == "POST|-users|d4-name3-Adae.http")
    }

    @Test("per name, .http before .json; exact names before wildcards; a binary body is served exactly")
    func lookupOrder() async throws {
        try folder.write("GET|-a.json", "[1]")
        try folder.write("GET|-a.http", "HTTP/1.1 200 OK\n\nfrom http")
        try folder.write("GET|-search?q=1.json", #""exact""#)
        try folder.write("GET|-search?*.http", "HTTP/1.1 200 OK\n\nwildcard")
        var bytes = Data("HTTP/1.1 200 OK\nContent-Type: application/octet-stream\n\n".utf8)
        bytes.append(contentsOf: [0, 255, 10, 10, 13])
        try folder.write("GET|-bin.http", bytes)
        registry.register(try MockDataFolder(folder.url, allowsWildcards: true))
        #expect(try await fetchText("/a").0 == "from http")
        #expect(try await fetchText("/search?q=1").0 == #""exact""#)
        #expect(try await fetchText("/search?q=2").0 == "wildcard")
        #expect(try await session.data(from: url("/bin")).0 == Data([0, 255, 10, 10, 13]))
    }

    @Test("a miss lists every file name tried, in order, and the registry moves on")
    func misses() async throws {
        let directory = try MockDataFolder(folder.url)
        registry.register(directory)
        registry.register(.get("/fallback"), respond: .string("filter"))
        #expect(try await fetchText("/fallback").0 == "filter")
        let probe = MockRequest(method: .get, url: url("/users?page=2"))
        #expect(
            directory.candidateFileNames(for: probe) == [
                "GET|-users?page=2.http", "GET|-users?page=2.json",
                "GET|-users?\(sha256("page=2")).http", "GET|-users?\(sha256("page=2")).json",
            ])
        await #expect {
            _ = try await fetchText("/users?page=2")
        } throws: { error in
            guard case .unmatched(let report) = error as? RequestMockerError else { return false }
            return report.notes == [
                "mock-data folder \(folder.url.path) has none of, in lookup order: "
                    + directory.candidateFileNames(for: probe).joined(separator: ", ")
            ]
        }
    }

    @Test("a HEAD falls back to the GET's files, after its own names")
    func headFallsBackToGet() throws {
        let directory = try MockDataFolder(folder.url)
        let head = MockRequest(method: .head, url: url("/users"))
        #expect(
            directory.candidateFileNames(for: head) == [
                "HEAD|-users.http", "HEAD|-users.json", "GET|-users.http", "GET|-users.json",
            ])
    }

    @Test("an empty 404 for misses, through the unmatched policy")
    func notFound() async throws {
        let registry = MockRegistry(unmatchedPolicy: .respond(.status(404)))
        registry.register(try MockDataFolder(folder.url))
        #expect(try await registry.makeSession().data(from: url("/nothing")).1.status == 404)
    }

    @Test("files added later are found; edits show at once")
    func noticesChanges() async throws {
        registry.register(try MockDataFolder(folder.url))
        await #expect(throws: RequestMockerError.self) { try await fetchText("/late") }
        try folder.write("GET|-late.json", "1")
        #expect(try await fetchText("/late").0 == "1")
        try folder.write("GET|-late.json", "2")
        #expect(try await fetchText("/late").0 == "2")
    }

    #if canImport(Glibc)
        @Test("an edit in the same clock tick as the last one still shows (same file, size and modification time)")
        func editWithinOneTick() async throws {
            let file = try folder.write("GET|-tick.json", #"{"n":1}"#)
            registry.register(try MockDataFolder(folder.url))
            #expect(try await fetchText("/tick").0 == #"{"n":1}"#)
            var before = stat()
            #expect(stat(file.path, &before) == 0)
            try Data(#"{"n":2}"#.utf8).write(to: file)
            // As a file system with coarse timestamps leaves it: exactly the old modification time.
            let times = [before.st_atim, before.st_mtim]
            #expect(utimensat(AT_FDCWD, file.path, times, 0) == 0)
            #expect(try await fetchText("/tick").0 == #"{"n":2}"#)
        }
    #endif

    @Test("an override folder is searched first")
    func layering() async throws {
        let override = try TemporaryFolder()
        try folder.write("GET|-users.json", #"["default"]"#)
        try folder.write("GET|-health.json", #""ok""#)
        try override.write("GET|-users.http", "HTTP/1.1 500 Internal Server Error\n\n")
        registry.register(try MockDataFolder(folder.url))
        registry.register(try MockDataFolder(override.url), at: .first)
        #expect(try await fetchText("/users").1.status == 500)
        #expect(try await fetchText("/health").0 == #""ok""#)
    }

    @Test("bad files are typed errors naming the file; the next request works")
    func badFiles() async throws {
        try folder.write("GET|-broken.json", "{not json")
        try folder.write("GET|-broken-http.http", "HTTP/1.1 200 OK\nno colon here\n\nbody")
        try folder.write("GET|-fine.json", "true")
        registry.register(try MockDataFolder(folder.url))
        await #expect {
            _ = try await fetchText("/broken")
        } throws: { error in
            guard case .invalidMockDataFile(let path, let reason) = error as? RequestMockerError else { return false }
            return path.hasSuffix("GET|-broken.json") && reason.hasPrefix("invalid JSON at byte 1")
        }
        await #expect {
            _ = try await fetchText("/broken-http")
        } throws: { error in
            guard case .invalidMockDataFile(let path, let reason) = error as? RequestMockerError else { return false }
            return path.hasSuffix("GET|-broken-http.http") && reason.hasPrefix("line 2:")
        }
        #expect(try await fetchText("/fine").0 == "true")
    }

    @Test("a missing folder is an error at once; a bundle's resource folder works")
    func folders() throws {
        #expect {
            _ = try MockDataFolder(URL(fileURLWithPath: "/nonexistent/MockData"))
        } throws: { error in
            guard case .mockDataFolderNotFound("/nonexistent/MockData") = error as? RequestMockerError else {
                return false
            }
            return "\(error)".contains("Bundle.module")
        }
        let bundled = try MockDataFolder(Bundle.module, subdirectory: "Fixtures/MockData")
        #expect(
            bundled.candidateFileNames(for: MockRequest(method: .get, url: url("/bundled"))).first
                == "GET|-bundled.http")
    }

    @Test(
        "no request reads outside the folder",
        arguments: [
            "/%2E%2E/%2E%2E/etc/hostname", "/..%2F..%2Fetc%2Fhostname", "//etc/hostname", "/secret%00.json", "/outside",
        ])
    func confinement(path: String) async throws {
        let outside = try TemporaryFolder()
        let secret = try outside.write("secret.json", #""secret""#)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("GET|-outside.json"), withDestinationURL: secret)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("GET|-..-..-etc-hostname.json"),
            withDestinationURL: URL(fileURLWithPath: "/etc/hostname")
        )
        registry.register(try MockDataFolder(folder.url))
        let target = try #require(URL(string: "https://api.test" + path))
        await #expect(throws: RequestMockerError.self) { try await session.data(from: target) }
    }

    @Test("a link to a file inside the folder answers")
    func linkInside() async throws {
        let real = try folder.write("real.json", #""linked""#)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("GET|-alias.json"), withDestinationURL: real)
        registry.register(try MockDataFolder(folder.url))
        #expect(try await fetchText("/alias").0 == #""linked""#)
    }

    @Test("a link that comes to point outside after the folder was listed is refused when the file is opened")
    func linkRetargetedOutsideAfterListing() async throws {
        let outside = try TemporaryFolder()
        let secret = try outside.write("secret.json", #""secret""#)
        let subfolder = folder.url.appendingPathComponent("shared")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: false)
        let real = subfolder.appendingPathComponent("real.json")
        try Data(#""linked""#.utf8).write(to: real)
        try FileManager.default.createSymbolicLink(
            at: folder.url.appendingPathComponent("GET|-alias.json"), withDestinationURL: real)
        registry.register(try MockDataFolder(folder.url))
        #expect(try await fetchText("/alias").0 == #""linked""#)
        // Only the subfolder changes: the folder itself keeps its modification time and listing.
        try FileManager.default.removeItem(at: real)
        try FileManager.default.createSymbolicLink(at: real, withDestinationURL: secret)
        await #expect {
            _ = try await fetchText("/alias")
        } throws: { error in
            guard case .invalidMockDataFile(let path, let reason) = error as? RequestMockerError else { return false }
            return path.hasSuffix("GET|-alias.json") && reason.contains("outside the folder")
        }
    }

    @Test("a large .http file's body is read from disk as it is sent, exactly, and edits still show")
    func largeHTTPFileIsStreamed() async throws {
        let body = Data((0..<(MockDataFolder.cachedFileLimit + 1_000)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        let head = Data("HTTP/1.1 203 Non-Authoritative Information\nX-Large: yes\nContent-Length: 3\n\n".utf8)
        try folder.write("GET|-large.http", head + body)
        try folder.write("GET|-large-json.json", "[" + String(repeating: "1,", count: 200_000) + "1]")
        registry.register(try MockDataFolder(folder.url))
        let (data, response) = try await session.data(from: url("/large"))
        #expect(response.status == 203)
        #expect(response.header("X-Large") == "yes")
        #expect(response.header("Content-Length") == String(body.count))
        #expect(data == body)
        try folder.write("GET|-large.http", head + body.prefix(10))
        #expect(try await session.data(from: url("/large")).0 == body.prefix(10))
        let (json, jsonResponse) = try await session.data(from: url("/large-json"))
        #expect(json.count == 400_003)
        #expect(jsonResponse.header("Content-Type") == "application/json")
    }

    func sha256(_ text: String) -> String {
        // Known digest, computed independently (Python's hashlib).
        ["page=2": "bc7c7eb0ad0afdec22a98aee6437c21ba68cc9e60eee16268ee946ffabbeaf51"][text] ?? ""
    }
}
