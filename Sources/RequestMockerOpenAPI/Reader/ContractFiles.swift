import Foundation
import RequestMocker

/// A value of a contract with where it came from: its file and its JSON pointer there.
struct Located: Sendable {
    let node: DocumentNode
    let source: DocumentSource
    /// The pointer as a fragment: `#/paths/~1pets/get`.
    let pointer: String

    /// The member `key` of this object, with its pointer.
    func member(_ key: String) -> Located? {
        node[key].map { Located(node: $0, source: source, pointer: pointer + "/" + Self.escaped(key)) }
    }

    /// This object's members in document order, each with its pointer.
    var members: [(key: String, value: Located)] {
        node.object?.members.map { member in
            (member.key, Located(node: member.value, source: source, pointer: pointer + "/" + Self.escaped(member.key)))
        } ?? []
    }

    /// A `{"$ref": reference}` written at `offset` of `source` (a discriminator's mapping, a
    /// schema asked for by its pointer), to resolve as any other.
    static func reference(_ reference: String, in source: DocumentSource, at offset: Int, pointer: String) -> Located {
        var holder = DocumentObject()
        _ = holder.append(.init(key: "$ref", keyOffset: offset, value: DocumentNode(.string(reference), at: offset)))
        return Located(node: DocumentNode(.object(holder), at: offset), source: source, pointer: pointer)
    }

    /// A problem with this value.
    func error(_ reason: String) -> OpenAPIContract.Error {
        OpenAPIContract.Error(source, at: node.offset, pointer: pointer, reason: reason)
    }

    /// Where the value is, as a notice names it: `openapi.yaml:12:9: #/paths/~1pets/get`.
    var place: String {
        let (line, column) = source.location(of: node.offset)
        return "\(source.url.lastPathComponent):\(line):\(column): \(pointer)"
    }

    /// Whether this is a reference and nothing else: an object whose one member is a string
    /// `$ref`. Common resolvers take such an object as a reference wherever it stands, even
    /// where the specification expects a map or a list (`properties: {$ref: …}`).
    var isBareReference: Bool {
        guard let object = node.object, object.members.count == 1 else { return false }
        return object["$ref"]?.string != nil
    }

    /// A JSON pointer step for `key` (RFC 6901: `~` as `~0`, `/` as `~1`).
    static func escaped(_ key: String) -> String {
        guard key.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return key }
        return key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }
}

/// The files of one contract: the entry file and every file its `$ref`s reach, each read once
/// (on first use, so a reference met while answering a request reads its file then), and the
/// resolution of `$ref`s between them.
///
/// References are followed one chain at a time and never recursively: a schema that refers to
/// itself (directly, or through other files) is a cycle in the model, not in this code.
final class ContractFiles: Sendable {
    /// The files read so far, by their standardized path.
    private let files = LockedState<[String: DocumentSource]>([:])
    /// What the readers took leniently, by what they assumed, in the order first met.
    private let leniencies = LockedState<[Leniency]>([])

    /// One liberty the readers took with a contract that breaks the specification but can
    /// still be served: what they assumed, what was wrong where first met, and the other places.
    private struct Leniency {
        let assumed: String
        let first: String
        var others: [String] = []
        /// Every place noted (its file and pointer), so two readers passing the same value count it once.
        var noted: Set<String> = []
    }

    /// How many places one leniency's notice names.
    private static let placesShown = 3

    /// How many `$ref`s in a row may lead to another `$ref` before the chain is refused.
    static let maximumChain = 64

    /// The files read so far, sorted by path.
    var urls: [URL] {
        files.withLock { $0.values.map(\.url) }.sorted { $0.path < $1.path }
    }

    /// Takes `source` as the file at its URL, as if read from there (a document made in memory).
    func add(_ source: DocumentSource) {
        files.withLock { $0[source.url.standardizedFileURL.path] = source }
    }

    /// Reads the file at `url`, or returns the one read before.
    func source(at url: URL) throws(OpenAPIContract.Error) -> DocumentSource {
        let key = url.standardizedFileURL.path
        if let known = files.withLock({ $0[key] }) { return known }
        let source = try Self.read(url.standardizedFileURL)
        return files.withLock { files in
            if let raced = files[key] { return raced }
            files[key] = source
            return source
        }
    }

    private static func read(_ url: URL) throws(OpenAPIContract.Error) -> DocumentSource {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let missing = !FileManager.default.fileExists(atPath: url.path)
            let reason =
                missing ? "no such file; check the path" : "the file can't be read: \(error.localizedDescription)"
            throw OpenAPIContract.Error(file: url, reason: reason, isFileMissing: missing)
        }
        let bytes = [UInt8](data)
        let isJSON = DocumentSyntax(of: bytes) == .json
        do {
            let root = isJSON ? try DocumentNode.parseJSON(bytes) : try YAMLReader.parse(bytes)
            return DocumentSource(url: url, bytes: bytes, root: root)
        } catch {
            let (line, column) = DocumentSource.location(of: error.offset, in: bytes)
            var reason = (isJSON ? "invalid JSON: " : "invalid YAML: ") + error.reason
            if let earlier = error.earlierOffset {
                let first = DocumentSource.location(of: earlier, in: bytes)
                reason += " (first at line \(first.line), column \(first.column))"
                if isJSON { reason += "; remove one of them" }
            }
            throw OpenAPIContract.Error(
                file: url, line: line, column: column, pointer: "#" + error.pointer, reason: reason)
        }
    }

    /// Notes that the value at `value` breaks the specification in the way `problem` says, and
    /// that the readers went on assuming `assumed`. Notices group places by what was assumed.
    func note(_ value: Located, _ problem: String, assumed: String) {
        let key = value.source.url.path + value.pointer
        leniencies.withLock { leniencies in
            guard let index = leniencies.firstIndex(where: { $0.assumed == assumed }) else {
                leniencies.append(Leniency(assumed: assumed, first: "\(value.place): \(problem)", noted: [key]))
                return
            }
            guard leniencies[index].noted.insert(key).inserted else { return }
            if leniencies[index].others.count < Self.placesShown - 1 { leniencies[index].others.append(value.place) }
        }
    }

    /// One notice per leniency: where it was first met and what was wrong there, what was
    /// assumed, then the other places.
    var leniencyNotices: [String] {
        leniencies.withLock { leniencies in
            leniencies.map { leniency in
                let more = leniency.noted.count - 1 - leniency.others.count
                let others = leniency.others + (more > 0 ? ["\(more) more"] : [])
                return "\(leniency.first) — \(leniency.assumed)"
                    + (others.isEmpty ? "" : " (also at \(others.joined(separator: ", ")))")
            }
        }
    }

    /// The map or list `value` holds, following a `$ref` that stands where the specification
    /// wants the map or list itself (a `$ref` object as `properties`, `parameters`,
    /// `responses`, `headers`): the common resolvers follow it, so vendors publish it.
    func container(_ value: Located?) throws(OpenAPIContract.Error) -> Located? {
        guard let value, value.isBareReference else { return value }
        let resolved = try resolve(value)
        note(
            value, "a $ref stands where the specification wants the map or list itself",
            assumed: "read as what the $ref names, as common $ref resolvers do")
        return resolved
    }

    /// The members of the map `value` holds (through ``container(_:)``), each with its pointer;
    /// a value that isn't a map is noted and read as an empty one, which loses only what it
    /// would have declared.
    func members(of value: Located?, _ what: String) throws(OpenAPIContract.Error) -> [(key: String, value: Located)] {
        guard let map = try container(value) else { return [] }
        guard map.node.object != nil else {
            note(map, "\"\(what)\" is \(map.node.kind), not a map", assumed: Self.wrongContainer)
            return []
        }
        return map.members
    }

    /// What a map or list of the wrong kind is read as.
    private static let wrongContainer = "a map or list that is something else is read as empty"

    /// The elements of the list `value` holds (through ``container(_:)``), each with its pointer;
    /// a value that isn't a list is noted and read as an empty one.
    func elements(of value: Located?, _ what: String) throws(OpenAPIContract.Error) -> [Located] {
        guard let list = try container(value) else { return [] }
        guard case .array(let elements) = list.node.value else {
            note(list, "\"\(what)\" is \(list.node.kind), not a list", assumed: Self.wrongContainer)
            return []
        }
        return elements.indices.map {
            Located(node: elements[$0], source: list.source, pointer: list.pointer + "/\($0)")
        }
    }

    /// `value` itself, or the value its `$ref` (and theirs, in a chain) refers to.
    ///
    /// A `$ref` whose value isn't a string (a property literally named `$ref`) is not a
    /// reference. `http(s)` references are refused: the mock never touches the network.
    /// With `stop`, the chain ends at the first value after `value` that `stop` accepts (a schema
    /// whose `$ref` has keywords beside it is a schema of its own, not a way to another).
    func resolve(_ value: Located, stoppingAt stop: ((Located) -> Bool)? = nil) throws(OpenAPIContract.Error) -> Located
    {
        var current = value
        var seen: [String] = []
        while let reference = current.node["$ref"]?.string {
            if !seen.isEmpty, let stop, stop(current) { break }
            let place = current.source.url.lastPathComponent + current.pointer
            if seen.contains(place) {
                throw value.error(
                    "the $ref chain \((seen + [place]).joined(separator: " → ")) comes back to itself and never "
                        + "reaches a value; point one of them at a value")
            }
            guard seen.count < Self.maximumChain else {
                throw value.error("more than \(Self.maximumChain) $refs in a row; point it at the value directly")
            }
            seen.append(place)
            current = try target(of: reference, from: current)
        }
        return current
    }

    /// The value `reference` (a `$ref`'s text) names, from the value that holds it.
    private func target(of reference: String, from holder: Located) throws(OpenAPIContract.Error) -> Located {
        let lowered = reference.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            throw holder.error(
                "the $ref \"\(reference)\" is on the network, and the mock never touches the network; "
                    + "download it and refer to it by path")
        }
        let hash = reference.firstIndex(of: "#") ?? reference.endIndex
        let path = String(reference[..<hash])
        let fragment = hash < reference.endIndex ? String(reference[reference.index(after: hash)...]) : ""
        var source = holder.source
        if !path.isEmpty {
            if lowered.contains(":"), !lowered.hasPrefix("file:") {
                throw holder.error(
                    "the $ref \"\(reference)\" names a scheme other than a file; refer to a file by path")
            }
            let decoded = (path.hasPrefix("file:") ? URL(string: path)?.path : path.removingPercentEncoding) ?? path
            let folder = holder.source.url.deletingLastPathComponent()
            let url = decoded.hasPrefix("/") ? URL(fileURLWithPath: decoded) : folder.appendingPathComponent(decoded)
            do {
                source = try self.source(at: url)
            } catch  where error.isFileMissing {
                throw holder.error(
                    "the $ref \"\(reference)\" names a file that isn't there: \(url.standardizedFileURL.path) "
                        + "(a relative "
                        + "$ref is resolved against the folder of the file it is in)")
            } catch {
                throw holder.error("the $ref \"\(reference)\" can't be followed: \(error)")
            }
        }
        let pointer = fragment.removingPercentEncoding ?? fragment
        guard pointer.isEmpty || pointer.hasPrefix("/") else {
            throw holder.error(
                "the $ref \"\(reference)\" names an anchor (#\(fragment)), which isn't read; "
                    + "use a JSON pointer (#/…)")
        }
        var node = source.root
        for step in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = step.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch node.value {
            case .object(let object) where object[key] != nil:
                node = object[key] ?? node
            case .array(let elements) where Int(key).map(elements.indices.contains) == true:
                node = elements[Int(key) ?? 0]
            default:
                throw holder.error(
                    "the $ref \"\(reference)\" names nothing: \(source.url.lastPathComponent) has no \"\(key)\" "
                        + "at \(Self.prefix(of: pointer, before: step)); check the spelling")
            }
        }
        return Located(node: node, source: source, pointer: "#" + pointer)
    }

    /// The part of `pointer` before `step`, for messages.
    private static func prefix(of pointer: String, before step: Substring) -> String {
        let end = step.startIndex > pointer.startIndex ? pointer.index(before: step.startIndex) : step.startIndex
        let prefix = String(pointer[..<end])
        return prefix.isEmpty ? "the top" : "#" + prefix
    }
}
