import Foundation
import RequestMocker

extension ContractCheck {
    /// What a mock-data folder's files answer, each checked; and why the others weren't.
    package func check(folder: URL) throws -> (findings: [Finding], checked: Int, skipped: [String]) {
        let (entries, skipped) = try TrafficConversion.entries(ofMockDataFolder: folder, base: Self.base)
        var findings: [Finding] = []
        for (file, interaction) in entries {
            guard let response = interaction.response else { continue }
            let place = folder.appendingPathComponent(file).relativePath + ":1"
            findings += check(interaction.request, answeredWith: response, at: place)
        }
        return (findings, entries.count, skipped.map { folder.relativePath + "/" + $0 })
    }

    /// What a stubs file's stubs with a fixed response answer (a status, headers and a `json`,
    /// `body`, `base64Body` or `bodyFile` body), each checked; others are not checked.
    package func check(stubsFile file: URL) throws(RequestMockerError) -> (findings: [Finding], checked: Int) {
        let stubs = try Stub.stubs(contentsOf: file, contract: contract)
        let positions = DocumentPositions((try? Data(contentsOf: file)) ?? Data(), file: file)
        var findings: [Finding] = []
        var checked = 0
        for (index, stub) in stubs.enumerated() {
            let line = positions.position(of: [.key("stubs"), .index(index)])?.line ?? 1
            let place = "\(file.relativePath):\(line)"
            guard case .object(let request)? = stub.json["request"], case .object(let response)? = stub.json["response"]
            else { continue }
            let fixed = ["template", "sequence", "fault", "passThrough", "webSocket", "events", "chunks", "openapi"]
            if fixed.contains(where: { response[$0] != nil && response[$0] != .bool(false) }) { continue }
            guard let method = request["method"]?.stringValue, let path = request["path"]?.stringValue else {
                findings.append(
                    Finding(
                        place: place, isError: false,
                        message: "the stub matches any method or path; give it a method and a path to check it"))
                continue
            }
            guard !path.contains("*") else {
                findings.append(
                    Finding(
                        place: place, isError: false,
                        message: "\(path) has a wildcard, so it can't be matched to one operation; not checked"))
                continue
            }
            checked += 1
            findings += check(
                Self.request(method, path),
                answeredWith: Self.response(response, folder: file.deletingLastPathComponent()),
                at: place)
        }
        return (findings, checked)
    }

    /// What a cassette's recordings answer, each checked.
    package func check(cassette file: URL) throws -> (findings: [Finding], checked: Int) {
        let cassette = try Cassette(
            contentsOf: file, record: .none, playback: .momentary, matchers: CassetteMatcher.default,
            redaction: .default, hosts: .all, repeatsLastResponse: false, environment: [:])
        let positions = DocumentPositions((try? Data(contentsOf: file)) ?? Data(), file: file)
        var findings: [Finding] = []
        var checked = 0
        for (index, interaction) in cassette.interactions.enumerated() {
            guard let response = interaction.response else { continue }
            let line = positions.position(of: [.key("log"), .key("entries"), .index(index)])?.line ?? 1
            checked += 1
            findings += check(
                interaction.request, answeredWith: response, at: "\(file.relativePath):\(line)", checkingRequest: true
            ).map { finding in
                var finding = finding
                finding.entry = index
                return finding
            }
        }
        return (findings, checked)
    }

    private static let base = URL(fileURLWithPath: "/").deletingLastPathComponent()

    /// A request to a stub's path, its variables (`<id>`) as template segments of their own.
    private static func request(_ method: String, _ path: String) -> MockRequest {
        var components = URLComponents()
        (components.scheme, components.host) = ("http", "localhost")
        components.path = path.replacing(/<([^>]*)>/) { "{\($0.output.1)}" }
        return MockRequest(
            method: HTTPMethod(rawValue: method.uppercased()), url: components.url ?? URL(fileURLWithPath: "/"))
    }

    /// A stub's fixed response as a recording: its status, headers and body, with the
    /// Content-Type the stub would send.
    private static func response(_ members: [String: JSONValue], folder: URL) -> RecordedResponse {
        var headers = HTTPHeaders()
        if case .object(let fields)? = members["headers"] {
            for (name, value) in fields {
                if let text = value.stringValue { headers.add(HTTPHeaders.Name(name), text) }
            }
        }
        var body = Data()
        var contentType: String?
        if let json = members["json"] {
            body = (try? json.serialized()) ?? Data()
            contentType = "application/json"
        } else if let text = members["body"]?.stringValue {
            body = Data(text.utf8)
            contentType = "text/plain; charset=utf-8"
        } else if let base64 = members["base64Body"]?.stringValue {
            body = Data(base64Encoded: base64) ?? Data()
            contentType = "application/octet-stream"
        } else if let path = members["bodyFile"]?.stringValue {
            let url = path.hasPrefix("/") ? URL(fileURLWithPath: path) : folder.appendingPathComponent(path)
            body = (try? Data(contentsOf: url)) ?? Data()
            contentType = "application/octet-stream"
        }
        if headers[.contentType] == nil, let contentType { headers.add(.contentType, contentType) }
        return RecordedResponse(status: HTTPStatus(members["status"]?.intValue ?? 200), headers: headers, body: body)
    }
}
