import Foundation
import RequestMocker
import RequestMockerOpenAPI
import RequestMockerServer

/// Files the file-reading targets write their input to, each in a folder of its own under the
/// temporary directory (a new name, so no cache answers for an earlier input), removed once
/// the input is read. Nothing is left behind, whoever runs the targets: the fuzzer's child
/// processes, or the test that replays the findings.
final class FuzzFiles: Sendable {
    static let shared = FuzzFiles()

    private let prefix = "request-mocker-fuzz-\(ProcessInfo.processInfo.processIdentifier)-"
    private let counter = LockedCounter()
    /// A registry whose contract takes forms and multipart bodies and remembers what it takes.
    private let forms: MockRegistry?

    private init() {
        forms = Self.formRegistry(
            in: FileManager.default.temporaryDirectory.appendingPathComponent(
                "request-mocker-fuzz-\(ProcessInfo.processInfo.processIdentifier)-forms"))
    }

    /// The form target's contract: every kind of field its properties and `encoding` read.
    private static func formRegistry(in folder: URL) -> MockRegistry? {
        let contract = """
            {"openapi": "3.1.0", "info": {"title": "Forms", "version": "1"}, "paths": {
             "/things": {"post": {"requestBody": {"content": {
               "multipart/form-data": {"schema": {"$ref": "#/components/schemas/Form"},
                 "encoding": {"meta": {"contentType": "application/json"}}},
               "application/x-www-form-urlencoded": {"schema": {"$ref": "#/components/schemas/Form"},
                 "encoding": {"csv": {"style": "form", "explode": false}, "filter": {"style": "deepObject"},
                   "meta": {"contentType": "application/json"}}}}},
               "responses": {"201": {"description": "made"}}}},
             "/things/{id}": {"get": {"parameters": [{"name": "id", "in": "path", "required": true,
               "schema": {"type": "integer"}}], "responses": {"200": {"description": "a thing", "content": {
               "application/json": {"schema": {"$ref": "#/components/schemas/Form"}}}}}}}},
             "components": {"schemas": {"Form": {"type": "object", "properties": {
               "id": {"type": "integer"}, "title": {"type": "string", "maxLength": 20},
               "count": {"type": "integer"}, "flag": {"type": "boolean"},
               "ids": {"type": "array", "items": {"type": "integer"}},
               "csv": {"type": "array", "items": {"type": "integer"}},
               "filter": {"type": "object", "properties": {"n": {"type": "integer"}}},
               "meta": {"type": "object"}, "file": {"type": "string", "format": "binary"}}}}}}
            """
        defer { try? FileManager.default.removeItem(at: folder) }
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil,
            (try? Data(contract.utf8).write(to: folder.appendingPathComponent("forms.json"))) != nil,
            let read = try? OpenAPIContract(contentsOf: folder.appendingPathComponent("forms.json"))
        else { return nil }
        let registry = MockRegistry()
        registry.register(read, state: .resources)
        // The journal only needs the recent requests.
        registry.journalCapacity = 16
        return registry
    }

    /// Posts `input` as a multipart body and as a form to the form registry, whose contract reads,
    /// checks and stores it.
    func postForm(_ input: Data) {
        guard let forms, let url = URL(string: "https://forms.test/things") else { return }
        for type in ["multipart/form-data; boundary=B", "application/x-www-form-urlencoded"] {
            let request = MockRequest(method: .post, url: url, headers: ["Content-Type": type], body: input)
            if case .ready(let outcome) = forms.answer(request, forwarding: Forwarding(timeout: 1)).outcome,
                case .response(let response) = outcome.result
            {
                _ = try? response.body.data()
            }
        }
    }

    /// A new, empty folder, or `nil` when it can't be made.
    private func makeFolder() -> URL? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + "\(counter.next())")
        return (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)) != nil
            ? folder : nil
    }

    /// Writes `input` as a `.http` file or a cassette, and answers a request from it.
    func answer(_ input: Data, as name: String) {
        guard let folder = makeFolder() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent(name)
        guard (try? input.write(to: file)) != nil else { return }
        let registry = MockRegistry()
        if name.hasSuffix(".har") || name.hasSuffix(".tape.json") || name.hasSuffix(".plist") {
            guard let cassette = try? Cassette(contentsOf: file, record: .none) else { return }
            registry.register(cassette)
        } else {
            guard let mockData = try? MockDataFolder(folder) else { return }
            registry.register(mockData)
        }
        let request = MockRequest(method: .get, url: URL(fileURLWithPath: "/x").absoluteURL)
        let target = MockRequest(method: .get, url: URL(string: "https://api.test/x?a=1") ?? request.url)
        for asked in [request, target] {
            if case .ready(let outcome) = registry.answer(asked, forwarding: Forwarding(timeout: 1)).outcome,
                case .response(let response) = outcome.result
            {
                _ = try? response.body.data()
            }
        }
    }

    /// Writes `input` as a contract beside a second file that refers back to it, and reads it.
    func readContract(_ input: Data) {
        guard let folder = makeFolder() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let other =
            #"{"Item": {"get": {"responses": {}}}, "Problem": {"$ref": "openapi.json#/paths"}, "type": "object"}"#
        guard (try? input.write(to: folder.appendingPathComponent("openapi.json"))) != nil,
            (try? Data(other.utf8).write(to: folder.appendingPathComponent("other.json"))) != nil
        else { return }
        _ = try? OpenAPIContract(contentsOf: folder.appendingPathComponent("openapi.json"))
    }

    func loadScript(_ input: Data) {
        guard let folder = makeFolder() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("script.json")
        guard (try? input.write(to: file)) != nil else { return }
        _ = try? ScriptedServer.Script(contentsOf: file)
    }

    /// Drafts a contract from the exchanges `input` describes, reads it back, and checks each
    /// exchange against it: a notice or a finding is a bug of the draft.
    func draft(_ input: Data) {
        guard case .array(let entries)? = try? JSONValue(parsing: input), entries.count <= 64 else { return }
        var exchanges: [Interaction] = []
        for entry in entries {
            guard let path = entry["path"]?.stringValue, path.hasPrefix("/"),
                let url = URL(string: "https://api.test" + path), let body = entry["body"],
                let data = try? body.serialized()
            else { continue }
            // What the draft leaves out (and says so) can't pass it: other methods, deep paths.
            let method = (entry["method"]?.stringValue ?? "GET").uppercased()
            guard ContractDraft.methods.contains(method), path.split(separator: "/").count <= 64 else { continue }
            let status = entry["status"]?.intValue.flatMap { (100...999).contains($0) ? $0 : nil } ?? 200
            let type = entry["type"]?.stringValue ?? "application/json"
            exchanges.append(
                Interaction(
                    request: MockRequest(method: HTTPMethod(rawValue: method), url: url),
                    result: .success(
                        RecordedResponse(status: HTTPStatus(status), headers: ["Content-Type": type], body: data)),
                    startedAt: Date(timeIntervalSince1970: 0), duration: .zero))
        }
        guard !exchanges.isEmpty, let folder = makeFolder() else { return }
        defer { try? FileManager.default.removeItem(at: folder) }
        let draft = ContractDraft()
        for exchange in exchanges { draft.add(exchange) }
        let file = folder.appendingPathComponent("openapi.yaml")
        guard (try? ContractDraft.write(draft.document(), to: file)) != nil else { return }
        let contract: OpenAPIContract
        do {
            contract = try OpenAPIContract(contentsOf: file)
        } catch {
            preconditionFailure("the draft does not load: \(error)")
        }
        precondition(contract.notices.isEmpty, "the draft loads with notices: \(contract.notices)")
        let check = ContractCheck(contract)
        precondition(check.contractFindings.isEmpty, "the draft's examples break it: \(check.contractFindings)")
        for exchange in exchanges {
            guard let response = exchange.response else { continue }
            let findings = check.check(exchange.request, answeredWith: response, at: "fuzz")
            precondition(findings.isEmpty, "an exchange fails its draft: \(findings) (\(exchange.request))")
        }
    }
}

/// A counter several threads may take numbers from.
final class LockedCounter: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value = 0

    func next() -> Int {
        lock.withLock {
            value += 1
            return value
        }
    }
}
