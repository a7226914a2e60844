import Foundation
import RequestMocker

/// How much of a body a draft reads.
struct DraftLimits {
    /// Past this size, one body per operation, status and media type is read and the others
    /// are only counted.
    var sampledBodySize = 1 << 20
    /// The largest body kept as a media type's example.
    var exampleSize = 64 << 10
}

/// An OpenAPI 3.1 contract drafted from recorded exchanges (what `request-mocker draft` writes),
/// or an existing contract with what the exchanges show it lacks.
///
/// Add the exchanges of cassettes (HAR or YAHTTPVCR), mock-data folders or your own, then write
/// the draft as YAML or JSON. Ids in paths become parameters (`/users/{userId}`), query
/// parameters and headers are typed, credentials become security schemes (never their values),
/// and bodies become JSON Schema with one redacted example; the same exchanges give the same
/// bytes. The rules are in the "Drafting a contract from recordings" section of
/// <doc:OpenAPIContracts>.
///
/// ```swift
/// let draft = ContractDraft(basePath: "/v2")
/// draft.add(contentsOf: try Cassette(contentsOf: URL(fileURLWithPath: "traffic.har"), record: .none))
/// try draft.write(to: URL(fileURLWithPath: "openapi.yaml"))
/// print(draft.notes)   // what was left out or only sampled
/// ```
///
/// Exchanges are kept as shapes, never as themselves, so memory follows the distinct paths and
/// body shapes rather than the number of exchanges. Each is redacted with
/// `Redaction.default` before it is read. A draft is not thread-safe: use it from one task.
public final class ContractDraft {
    /// The base path's segments, stripped from every request; requests outside it are counted.
    let basePath: [String]
    private let limits: DraftLimits
    let root = PathNode()
    /// How many nodes `root`'s tree holds (``PathNode/maximumNodes``).
    private var nodes = 1
    private(set) var origins: Set<String> = []
    private(set) var hasOperations = false

    /// How many exchanges were added.
    public private(set) var exchanges = 0
    /// Requests outside the base path, with up to three of their paths.
    package private(set) var outsideBasePath = 0
    private var outsideExamples: [String] = []
    /// Exchanges that ended in a transport error, kept for their requests only.
    package private(set) var transportErrors = 0
    /// Paths with more segments than ``PathNode/maximumSegments``.
    package private(set) var tooDeep = 0
    /// Exchanges of methods a 3.1 path item can't hold (`PROPFIND`, `QUERY`), with up to three.
    package private(set) var otherMethods = 0
    private var otherMethodNames: [String] = []

    /// The contract a draft updates (`--openapi EXISTING`), and the exchanges that reached its
    /// operations and paths: those are kept apart from the tree, so its paths win over new
    /// templates.
    struct Existing {
        let contract: OpenAPIContract
        let router: OpenAPIRouter
        /// By the index of the operation they reached.
        var operations: [Int: OperationShape] = [:]
        /// By the path template they reached, then method: a method the path doesn't declare.
        var methods: [String: [String: OperationShape]] = [:]
    }

    private(set) var existing: Existing?

    /// A new draft, or (with `existing`) the additions to a contract: exchanges that reach one of
    /// its operations or paths are drafted there (``update()`` writes them into it), the others
    /// as new paths.
    ///
    /// ```swift
    /// let draft = ContractDraft(basePath: "/api")   // /api/users/7 is drafted as /users/{userId}
    /// ```
    ///
    /// - Parameters:
    ///   - basePath: the prefix stripped from every path (never a parameter); requests outside it
    ///     are left out and counted in ``notes``. With `existing`, its base path when `nil`.
    ///   - contract: a contract to update (`existing:`) rather than a draft of its own.
    public init(basePath: String? = nil, existing contract: OpenAPIContract? = nil) {
        let base = basePath ?? contract?.basePath ?? ""
        self.basePath = base.split(separator: "/").map(String.init)
        limits = DraftLimits()
        existing = contract.map { Existing(contract: $0, router: $0.router(basePath: basePath)) }
    }

    /// Adds every exchange a cassette holds, in its order.
    ///
    /// ```swift
    /// draft.add(contentsOf: try Cassette(contentsOf: URL(fileURLWithPath: "app.har"), record: .none))
    /// ```
    public func add(contentsOf cassette: Cassette) {
        for interaction in cassette.interactions { add(interaction) }
    }

    /// The `http(s)` origin of `url` (`https://[::1]:8443`), with its path when asked (an
    /// upstream's base, without a trailing slash); never its credentials or query.
    private static func origin(of url: URL, withPath: Bool) -> String? {
        guard let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), let host = url.host else {
            return nil
        }
        var path = withPath ? url.path(percentEncoded: true) : ""
        while path.hasSuffix("/") { path.removeLast() }
        return "\(scheme)://" + (host.contains(":") ? "[\(host)]" : host) + (url.port.map { ":\($0)" } ?? "") + path
    }

    /// Adds one recorded exchange.
    ///
    /// ```swift
    /// for interaction in cassette.interactions where interaction.request.url.host == "api.example.com" {
    ///     draft.add(interaction)
    /// }
    /// ```
    public func add(_ interaction: Interaction) {
        exchanges += 1
        // Credentials are read before redaction hides them: their names and scheme words only.
        let credentials = SecurityScheme.carried(by: interaction.request)
        guard let request = Redaction.default.redact(interaction.request) else { return }
        var response: RecordedResponse?
        switch interaction.result {
        case .success(let recorded): response = Redaction.default.redact(recorded, for: request)
        case .failure: transportErrors += 1
        }
        let segments = request.pathSegments.filter { !$0.isEmpty }
        guard segments.starts(with: basePath) else {
            outsideBasePath += 1
            if outsideExamples.count < 3 { outsideExamples.append(request.url.path) }
            return
        }
        guard Self.methods.contains(request.method.rawValue) else {
            otherMethods += 1
            if !otherMethodNames.contains(request.method.rawValue), otherMethodNames.count < 3 {
                otherMethodNames.append(request.method.rawValue)
            }
            return
        }
        if existing != nil, let shape = existingOperation(for: request) {
            shape.add(request, credentials: credentials, response: response, limits: limits)
            hasOperations = true
            return
        }
        let below = segments.dropFirst(basePath.count)
        guard below.count <= PathNode.maximumSegments else {
            tooDeep += 1
            return
        }
        // A server forwarded it: the API is there, with the upstream's path, not at the
        // recorder's own address.
        if let origin = interaction.upstream.flatMap({ Self.origin(of: $0, withPath: true) })
            ?? Self.origin(of: request.url, withPath: false)
        {
            origins.insert(origin)
        }
        var node = root
        var previous: String?
        for segment in below {
            // The first segment of the path, or the first after version-like ones (`/api/v2/…`,
            // `/admin/api/2024-01/…`), names a resource.
            let position: SegmentPosition =
                PathShape.isVersionLike(segment)
                ? .version : previous.map(PathShape.isVersionLike) ?? true ? .first : .deeper
            let child = node.child(for: segment, position: position, nodes: &nodes)
            if let previous { child.noteParent(previous) }
            previous = segment
            node = child
        }
        node.operation(request.method.rawValue).add(
            request, credentials: credentials, response: response, limits: limits)
        hasOperations = true
    }

    /// Where an exchange goes in the existing contract: its operation, or a new method of a path
    /// it has; `nil` for a path it lacks.
    private func existingOperation(for request: MockRequest) -> OperationShape? {
        guard let router = existing?.router, let contract = existing?.contract else { return nil }
        let query = request.queryItems.filter { !Preferences.queryNames.contains($0.name) }
        switch router.route(request.method, segments: request.pathSegments, query: query) {
        case .operation(let index, _):
            let shape = existing?.operations[index] ?? OperationShape()
            existing?.operations[index] = shape
            return shape
        case .methodNotAllowed(let allowed):
            guard let method = allowed.first,
                case .operation(let index, _) = router.route(method, segments: request.pathSegments, query: query)
            else { return nil }
            let template = contract.operations[index].path
            let shape = existing?.methods[template]?[request.method.rawValue] ?? OperationShape()
            existing?.methods[template, default: [:]][request.method.rawValue] = shape
            return shape
        case .notFound:
            return nil
        }
    }

    /// What the draft left out or only sampled, one line each: requests outside the base path,
    /// transport errors, bodies past 1 MiB or not JSON, methods a path item can't hold, statuses
    /// OpenAPI can't name.
    ///
    /// ```swift
    /// for note in draft.notes { print("note:", note) }
    /// ```
    public var notes: [String] {
        var notes: [String] = []
        if outsideBasePath > 0 {
            notes.append(
                "\(outsideBasePath) request\(outsideBasePath == 1 ? " was" : "s were") outside the base path /"
                    + basePath.joined(separator: "/") + " and left out (for example "
                    + outsideExamples.joined(separator: ", ") + ")")
        }
        if transportErrors > 0 {
            notes.append(
                "\(transportErrors) exchange\(transportErrors == 1 ? "" : "s") ended in a transport error: "
                    + "their requests are drafted, their responses can't be")
        }
        if tooDeep > 0 {
            notes.append(
                "\(tooDeep) path\(tooDeep == 1 ? "" : "s") of more than \(PathNode.maximumSegments) "
                    + "segments left out")
        }
        if otherMethods > 0 {
            notes.append(
                "\(otherMethods) exchange\(otherMethods == 1 ? "" : "s") of methods an OpenAPI path item can't hold "
                    + "left out (\(otherMethodNames.joined(separator: ", ")))")
        }
        var sampled = 0
        var unreadable = 0
        var dropped = 0
        var odd: Set<Int> = []
        for (_, _, node) in root.templates() {
            for operation in node.operations.values {
                dropped += operation.query.dropped + operation.headers.dropped
                var bodies = Array(operation.requestBodies.bodies.values)
                for (status, response) in operation.responses {
                    bodies += response.bodies.bodies.values
                    dropped += response.headers.dropped
                    if !(100...599).contains(status) { odd.insert(status) }
                }
                for body in bodies {
                    sampled += body.skipped
                    unreadable += body.unreadable
                }
            }
        }
        if sampled > 0 {
            notes.append(
                "\(sampled) bod\(sampled == 1 ? "y" : "ies") over 1 MiB counted, not read (the first of each "
                    + "operation, status and media type was): their schemas require no member and give no format or "
                    + "enum")
        }
        if unreadable > 0 {
            notes.append(
                "\(unreadable) bod\(unreadable == 1 ? "y" : "ies") of a JSON media type that wasn't JSON: "
                    + "those media types are drafted without a schema")
        }
        if dropped > 0 {
            notes.append(
                "\(dropped) parameter or header name\(dropped == 1 ? "" : "s") past \(NamedTexts.maximumNames) in "
                    + "one operation left out")
        }
        if !odd.isEmpty {
            notes.append(
                "status" + (odd.count == 1 ? " " : "es ") + odd.sorted().map(String.init).joined(separator: ", ")
                    + " can't be a response's key in OpenAPI: drafted as the operation's default response")
        }
        return notes
    }
}
