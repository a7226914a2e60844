import Foundation

/// How much of a body a draft reads.
struct DraftLimits {
    /// Past this size, one body per operation, status and media type is read and the others
    /// are only counted.
    var sampledBodySize = 1 << 20
    /// The largest body kept as a media type's example.
    var exampleSize = 64 << 10
}

/// An OpenAPI 3.1 contract drafted from recorded exchanges, for `request-mocker draft`.
///
/// Exchanges are added one at a time and kept as shapes (``PathNode``, ``OperationShape``,
/// ``ValueShape``), never as themselves, so memory follows the distinct paths and body shapes.
/// Each exchange is redacted with ``Redaction/default`` first: the draft's examples hold no
/// secret, and credentials become security schemes, never values.
///
/// ```swift
/// let draft = ContractDraft(basePath: "/v2")
/// for interaction in cassette.interactions { draft.add(interaction) }
/// let yaml = draft.yaml()
/// ```
package final class ContractDraft {
    /// The base path's segments, stripped from every request; requests outside it are counted.
    let basePath: [String]
    private let limits: DraftLimits
    let root = PathNode()
    private(set) var origins: Set<String> = []
    private(set) var hasOperations = false

    package private(set) var exchanges = 0
    /// Requests outside the base path, with up to three of their paths.
    package private(set) var outsideBasePath = 0
    private var outsideExamples: [String] = []
    /// Exchanges that ended in a transport error, kept for their requests only.
    package private(set) var transportErrors = 0
    /// Paths with more segments than ``PathNode/maximumSegments``.
    package private(set) var tooDeep = 0

    package init(basePath: String? = nil) {
        self.basePath = (basePath ?? "").split(separator: "/").map(String.init)
        limits = DraftLimits()
    }

    /// Adds one recorded exchange.
    package func add(_ interaction: Interaction) {
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
        let below = segments.dropFirst(basePath.count)
        guard below.count <= PathNode.maximumSegments else {
            tooDeep += 1
            return
        }
        if let scheme = request.url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = request.url.host
        {
            origins.insert("\(scheme)://\(host)" + (request.url.port.map { ":\($0)" } ?? ""))
        }
        let versions = below.prefix { PathShape.isVersionLike($0) }.count
        var node = root
        var previous: String?
        for (index, segment) in below.enumerated() {
            let position: SegmentPosition = index < versions ? .version : index == versions ? .first : .deeper
            let child = node.child(for: segment, position: position)
            if let previous { child.noteParent(previous) }
            previous = segment
            node = child
        }
        node.operation(request.method.rawValue).add(
            request, credentials: credentials, response: response, limits: limits)
        hasOperations = true
    }

    /// What the draft left out or only sampled, one line each, for the command's output.
    package var notes: [String] {
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
        return notes
    }
}
