import Foundation

/// Recorded traffic moved between the formats RequestMocker reads: a cassette (HAR, or
/// YAHTTPVCR's) and a mock-data folder. `request-mocker convert` is built on it.
package enum TrafficConversion {
    /// The biggest mock-data file read when a folder becomes a cassette.
    static let maximumFileSize = 64 * 1024 * 1024

    /// Writes `interactions` as a HAR file, replacing `file` atomically (see ``harData(of:redaction:)``).
    package static func writeHAR(_ interactions: [Interaction], to file: URL, redaction: Redaction) throws {
        let data = try harData(of: interactions, redaction: redaction)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try AtomicFile.write(data, to: file)
    }

    /// A HAR document of `interactions`, each written through `redaction` (an interaction its
    /// hooks exclude is left out).
    package static func harData(of interactions: [Interaction], redaction: Redaction) throws -> Data {
        let entries = interactions.compactMap { interaction -> JSONValue? in
            guard let request = redaction.redact(interaction.request) else { return nil }
            let result: Result<RecordedResponse, URLError>
            switch interaction.result {
            case .success(let response):
                guard let kept = redaction.redact(response, for: request) else { return nil }
                result = .success(kept)
            case .failure(let error):
                result = .failure(error)
            }
            return HAR.entry(
                from: Interaction(
                    request: request, result: result, startedAt: interaction.startedAt, duration: interaction.duration))
        }
        let log: [String: JSONValue] = [
            "version": "1.2",
            "creator": ["name": "RequestMocker", "version": .string(RequestMockerVersion.current)],
        ]
        return try HAR.data(log: log, entries: entries)
    }

    /// Writes each answered interaction into `folder` as a `.http` file under its mock-data name,
    /// through `redaction` as a recording folder writes (what it hides is named by its hash).
    ///
    /// - Returns: the files written, and why the others weren't: a transport error (a file can
    ///   only hold a response), a second answer for a name already written (the first stays),
    ///   or a request the redaction hooks exclude.
    package static func writeMockData(
        _ interactions: [Interaction], into folder: URL, redaction: Redaction, replacing: Bool = true
    ) throws -> (written: [URL], skipped: [String]) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var written: [URL] = []
        var skipped: [String] = []
        var names: Set<String> = []
        for (index, interaction) in interactions.enumerated() {
            let label = "entry \(index) (\(interaction.request))"
            guard case .success(let response) = interaction.result else {
                skipped.append("\(label): a transport error, which a mock-data file can't hold")
                continue
            }
            guard let named = redaction.redact(interaction.request, headers: false),
                let kept = redaction.redact(response, for: interaction.request)
            else {
                skipped.append("\(label): excluded by the redaction hooks")
                continue
            }
            let hashing = (
                query: named.url.query != interaction.request.url.query, headers: false,
                body: named.body != interaction.request.body
            )
            let naming = MockDataNaming()
            guard
                let name = naming.recordingName(for: named, hashing: hashing)
                    ?? naming.recordingName(for: named, hashing: (query: true, headers: true, body: true))
            else {
                skipped.append("\(label): no mock-data name is short enough for a file")
                continue
            }
            guard names.insert(name).inserted else {
                skipped.append("\(label): \(name).http was already written from an earlier entry")
                continue
            }
            let file = folder.appendingPathComponent(name + ".http")
            guard replacing || !FileManager.default.fileExists(atPath: file.path) else {
                skipped.append("\(label): \(name).http is in the folder already; edit it, or delete it first")
                continue
            }
            try AtomicFile.write(HTTPResponseFile.contents(of: kept), to: file)
            written.append(file)
        }
        return (written, skipped)
    }

    /// The files of a mock-data folder as interactions: each name read back into a request to
    /// `base` (`METHOD|path?query`, with `-` read as `/`), and the file as its response.
    ///
    /// - Returns: the interactions, in file-name order, and why the other files weren't taken: a
    ///   wildcard name, a query or body known only by its hash, or a file that isn't a response.
    package static func interactions(
        ofMockDataFolder folder: URL, base: URL
    ) throws -> (interactions: [Interaction], skipped: [String]) {
        let (entries, skipped) = try entries(ofMockDataFolder: folder, base: base)
        return (entries.map(\.interaction), skipped)
    }

    /// ``interactions(ofMockDataFolder:base:)``, each with the name of its file.
    package static func entries(
        ofMockDataFolder folder: URL, base: URL
    ) throws -> (entries: [(file: String, interaction: Interaction)], skipped: [String]) {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let root = folder.resolvingSymlinksInPath().path + "/"
        var interactions: [(file: String, interaction: Interaction)] = []
        var skipped: [String] = []
        for name in names where name.hasSuffix(".http") || name.hasSuffix(".json") {
            let stem = String(name.dropLast(5))
            guard let request = request(named: stem, base: base, skipping: &skipped, file: name) else { continue }
            // As a folder serves them: a link may lead to another file of the folder, never out.
            guard folder.appendingPathComponent(name).resolvingSymlinksInPath().path.hasPrefix(root) else {
                skipped.append("\(name): a link to a file outside the folder")
                continue
            }
            let data: Data
            do {
                data = try FileSystem.read(folder.appendingPathComponent(name).path, upTo: maximumFileSize + 1).data
            } catch {
                skipped.append("\(name): it can't be read: \(error.reason)")
                continue
            }
            guard data.count <= maximumFileSize else {
                skipped.append("\(name): it is over \(maximumFileSize / (1024 * 1024)) MiB")
                continue
            }
            let response: RecordedResponse
            if name.hasSuffix(".json") {
                response = RecordedResponse(
                    status: .ok, headers: [.contentType: "application/json", .contentLength: String(data.count)],
                    body: data)
            } else {
                do {
                    let file = try HTTPResponseFile(parsing: data)
                    var headers = file.headers.removing(HTTPHeaders.Name.framing)
                    headers.add(.contentLength, String(file.body.count))
                    response = RecordedResponse(
                        status: file.status, httpVersion: file.httpVersion, headers: headers, body: file.body)
                } catch {
                    skipped.append("\(name): \(error)")
                    continue
                }
            }
            interactions.append(
                (
                    name,
                    Interaction(
                        request: request, result: .success(response), startedAt: Date(timeIntervalSince1970: 0),
                        duration: .zero)
                ))
        }
        return (interactions, skipped)
    }

    /// The request a mock-data name stands for, or `nil` (with a note) when the name can't be read
    /// back into one.
    private static func request(
        named stem: String, base: URL, skipping skipped: inout [String], file: String
    ) -> MockRequest? {
        let parts = stem.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count >= 2, HTTPHeaders.Name.isValid(String(parts[0])) else {
            skipped.append("\(file): not a mock-data name (METHOD|path)")
            return nil
        }
        guard !stem.contains("*") else {
            skipped.append("\(file): a wildcard name answers many requests, and a cassette holds one each")
            return nil
        }
        var target = Substring(parts[1])
        var query: Substring?
        if let mark = target.firstIndex(of: "?") {
            query = target[target.index(after: mark)...]
            target = target[..<mark]
        }
        if let query, query.count == 64, query.allSatisfy(\.isHexDigit) {
            skipped.append("\(file): its query is known only by its hash")
            return nil
        }
        let method = HTTPMethod(rawValue: String(parts[0]))
        if MockDataNaming.methodsWithBodyInName.contains(method), parts.count > 2 {
            skipped.append(
                "\(file): a folder keeps a request body only in the file's name (bencoded or hashed), which isn't "
                    + "read back; "
                    + "record into a cassette (--cassette FILE.har --record) to keep request bodies")
            return nil
        }
        let decoded = target.replacingOccurrences(of: "-", with: "/")
        let path = decoded.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? decoded
        var text = base.absoluteString
        while text.hasSuffix("/") { text.removeLast() }
        text += (path.hasPrefix("/") ? path : "/" + path) + (query.map { "?" + $0 } ?? "")
        guard let url = URL(string: text) else {
            skipped.append("\(file): \(text) isn't a URL")
            return nil
        }
        return MockRequest(method: method, url: url)
    }
}
