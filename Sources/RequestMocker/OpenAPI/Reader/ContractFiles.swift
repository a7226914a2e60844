import Foundation

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
        // JSON by its content (a `{` or `[` first), whatever the extension; YAML otherwise.
        let first = bytes.drop { [0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }.first
        let isJSON = first == UInt8(ascii: "{") || first == UInt8(ascii: "[")
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

    /// `value` itself, or the value its `$ref` (and theirs, in a chain) refers to.
    ///
    /// A `$ref` whose value isn't a string (a property literally named `$ref`) is not a
    /// reference. `http(s)` references are refused: the mock never touches the network.
    func resolve(_ value: Located) throws(OpenAPIContract.Error) -> Located {
        var current = value
        var seen: [String] = []
        while let reference = current.node["$ref"]?.string {
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
