import Foundation

/// A filter and its response written as JSON: the entries of a stubs file
/// (`request-mocker serve --stubs FILE.json`, or the same in YAML), what the loopback server's
/// admin API takes, and what `MockServerClient` sends. The schema is in `stubs.schema.json`, and
/// described in the CommandLineTool article ("Stubs in JSON or YAML").
///
/// ```swift
/// let stub = try Stub(json: [
///     "request": ["method": "GET", "path": "/users/<id>"],
///     "response": ["status": 200, "json": ["id": "{{id}}"], "template": true],
/// ])
/// registry.register(stub.filter)
/// ```
///
/// A request has `method`, `host`, `path` (a ``PathPattern``), `query` and `headers` (objects
/// whose `null` values ask only for the name), and `jsonBody`; each is optional. A response has
/// `status`, `headers`, and at most one of `json`, `body` (text), `base64Body`, `bodyFile`
/// (relative to the stubs file), `fault`, `openapi` (what a contract declares:
/// `{"operation": "getPet", "status": 404, "example": "notFound"}`) or `sequence` (a list of
/// responses, with `afterLast`: `repeatLast` or `stopMatching`); and `delay` in seconds. With
/// `"template": true`, `{{id}}` (a path variable), `{{query.q}}` and `{{header.X-Name}}` in the
/// body's text and in header values are filled from the request.
public struct Stub: Sendable {
    /// The stub as written.
    public let json: JSONValue
    /// The filter it describes, answering with its response.
    public let filter: RequestFilter

    /// A stub that isn't valid: where in its JSON, and why.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        /// The JSON path of the value that is wrong: `response.status`, or `(root)`.
        public var jsonPath: String { JSONLocation.Step.path(steps) }
        /// What is wrong with it, and what is allowed there.
        public let reason: String
        let steps: [JSONLocation.Step]

        public var description: String { "at \(jsonPath): \(reason)" }
    }

    /// Reads one stub.
    ///
    /// - Parameters:
    ///   - json: the stub.
    ///   - location: how diagnostics name it: a stubs file's name and line (`stubs.json:12`).
    ///   - folder: where `bodyFile` paths start; `nil` refuses `bodyFile` (a stub sent over
    ///     the network may not read the server's files).
    ///   - contract: the contract an `"openapi"` response answers from; `nil` refuses them.
    ///   - graphQL: the schema a GraphQL stub's `json` answer is checked against, trimmed to
    ///     each request's selection and completed by (``StubGraphQLSchema``); `nil` sends it as
    ///     written.
    /// - Throws: ``Invalid`` naming the first value that is wrong.
    public init(
        json: JSONValue, location: String = "stub", folder: URL? = nil, contract: (any StubContract)? = nil,
        graphQL: (any StubGraphQLSchema)? = nil
    ) throws(Invalid) {
        var reader = StubReader(folder: folder, contract: contract, graphQL: graphQL)
        self.json = json
        filter = try reader.filter(json, location: location)
    }

    /// The most stubs one file holds.
    public static let maximumCount = 10_000
    /// The largest stubs file read.
    public static let maximumFileSize = 64 * 1024 * 1024

    /// Reads a stubs file: a JSON (or YAML 1.2) object whose `stubs` member lists the stubs, in
    /// the order they are tried. JSON is told from YAML by its content.
    ///
    /// ```json
    /// {"stubs": [{"request": {"method": "GET", "path": "/health"}, "response": {"status": 204}}]}
    /// ```
    ///
    /// - Parameters:
    ///   - file: the stubs file.
    ///   - contract: the contract `"openapi"` responses answer from.
    ///   - graphQL: the schema GraphQL stubs' answers are checked against and shaped by.
    /// - Throws: ``RequestMockerError/invalidStubs(path:line:column:jsonPath:reason:)`` naming
    ///   the file, the line and column, and the JSON path of the first mistake;
    ///   ``RequestMockerError/fileNotReadable(path:reason:)`` when it can't be read.
    public static func stubs(
        contentsOf file: URL, contract: (any StubContract)? = nil, graphQL: (any StubGraphQLSchema)? = nil
    ) throws(RequestMockerError) -> [Stub] {
        let data: Data
        do {
            data = try FileSystem.read(file.path, upTo: maximumFileSize + 1).data
        } catch {
            throw .fileNotReadable(path: file.path, reason: error.reason)
        }
        guard data.count <= maximumFileSize else {
            throw .fileNotReadable(path: file.path, reason: "it is over \(maximumFileSize / (1024 * 1024)) MiB")
        }
        return try stubs(in: data, file: file, contract: contract, graphQL: graphQL)
    }

    static func stubs(
        in data: Data, file: URL, contract: (any StubContract)? = nil, graphQL: (any StubGraphQLSchema)? = nil
    ) throws(RequestMockerError) -> [Stub] {
        // JSON or YAML by the content (DocumentSyntax).
        let bytes = [UInt8](data)
        // A YAML file's positions come from its tree, once read; a JSON file's from scanning it.
        var positions = DocumentPositions(json: data)
        func invalid(_ steps: [JSONLocation.Step], _ reason: String) -> RequestMockerError {
            let position = positions.position(of: steps)
            return .invalidStubs(
                path: file.path, line: position?.line, column: position?.column,
                jsonPath: JSONLocation.Step.path(steps), reason: reason)
        }
        let document: JSONValue
        if DocumentSyntax(of: bytes) == .json {
            do {
                document = try JSONValue(parsing: data)
            } catch {
                let location = JSONLocation(offset: error.offset, in: data)
                throw .invalidStubs(
                    path: file.path, line: location.line, column: location.column, jsonPath: location.path,
                    reason: error.reason)
            }
        } else {
            do {
                let source = DocumentSource(url: file, bytes: bytes, root: try YAMLReader.parse(bytes))
                positions = DocumentPositions(yaml: source)
                document = source.root.jsonValue
            } catch {
                let location = DocumentSource.location(of: error.offset, in: bytes)
                let earlier = error.earlierOffset.map { DocumentSource.location(of: $0, in: bytes) }
                throw .invalidStubs(
                    path: file.path, line: location.line, column: location.column, jsonPath: "(root)",
                    reason: "invalid YAML: " + error.reason
                        + (earlier.map { " (first at line \($0.line), column \($0.column))" } ?? ""))
            }
        }
        guard case .object(let members) = document else {
            throw invalid([], "a stubs file is an object with a \"stubs\" list: {\"stubs\": [...]}")
        }
        if let unknown = members.keys.sorted().first(where: { $0 != "stubs" && $0 != "$schema" }) {
            throw invalid([.key(unknown)], "unknown key \"\(unknown)\"; a stubs file has \"stubs\" (and \"$schema\")")
        }
        guard case .array(let entries)? = members["stubs"] else {
            throw invalid(members["stubs"] == nil ? [] : [.key("stubs")], "\"stubs\" must be a list of stubs")
        }
        guard entries.count <= maximumCount else {
            throw invalid([.key("stubs")], "more than \(maximumCount) stubs")
        }
        let name = file.lastPathComponent
        let folder = file.deletingLastPathComponent()
        var stubs: [Stub] = []
        for (index, entry) in entries.enumerated() {
            let steps: [JSONLocation.Step] = [.key("stubs"), .index(index)]
            let line = positions.position(of: steps)?.line ?? 1
            do {
                stubs.append(
                    try Stub(
                        json: entry, location: "\(name):\(line)", folder: folder, contract: contract, graphQL: graphQL))
            } catch {
                throw invalid(steps + error.steps, error.reason)
            }
        }
        return stubs
    }
}
