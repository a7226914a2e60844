import Foundation
import RequestMocker

/// What a contract's resources hold, checked against the contract and ready to go into a store:
/// the `--data` file, the Swift seed, `PUT /__admin/resources` and the `--state` file all arrive
/// in one format, an object keyed by the concrete paths of collections (each an array of items)
/// and of singletons (each an object), without the base path:
///
/// ```json
/// {"/pets": [{"id": 1, "name": "Rex"}], "/users/7/posts": [], "/users/7/settings": {"theme": "dark"}}
/// ```
package struct ResourceContents: Sendable {
    /// Each collection's items, in order, with their ids as paths carry them.
    package var collections: [(path: String, items: [(id: String, item: DocumentNode)])] = []
    package var singletons: [(path: String, value: DocumentNode)] = []

    package init() {}
    /// The paths, with what each holds (`"/pets": 2 items`), for messages.
    package var summary: String {
        let parts =
            collections.map { "\($0.path): \($0.items.count) item\($0.items.count == 1 ? "" : "s")" }
            + singletons.map { "\($0.path): a singleton" }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}

extension ResourceMap {
    /// Where the data being checked came from, so a mistake names the place: a file (with line
    /// and column) or a value given in Swift or through the admin API (with the pointer alone).
    package struct DataOrigin: Sendable {
        /// The file's path, or words for a value ("the seed", "PUT /__admin/resources").
        let name: String
        let source: DocumentSource?

        package static func file(_ source: DocumentSource) -> DataOrigin {
            DataOrigin(name: source.url.path, source: source)
        }

        package static func value(_ name: String) -> DataOrigin { DataOrigin(name: name, source: nil) }
    }

    /// Reads the data file at `url`, JSON or YAML, at most ``ResourceStore/maximumBytes`` twice over.
    package static func dataSource(at url: URL) throws(RequestMockerError) -> DocumentSource {
        let limit = 2 * ResourceStore.maximumBytes
        let bytes: [UInt8]
        do {
            let read = try FileSystem.read(url.path, upTo: min(limit + 1, Self.size(of: url) + 1))
            bytes = [UInt8](read.data)
        } catch {
            throw .invalidResources(
                source: url.path, line: nil, column: nil, pointer: "#", reason: "the file can't be read: \(error)")
        }
        guard bytes.count <= limit else {
            throw .invalidResources(
                source: url.path, line: nil, column: nil, pointer: "#",
                reason: "the file is larger than \(limit / (1024 * 1024)) MiB; the resources hold at most "
                    + "\(ResourceStore.maximumBytes / (1024 * 1024)) MiB")
        }
        do {
            let isJSON = DocumentSyntax(of: bytes) == .json
            let root = isJSON ? try DocumentNode.parseJSON(bytes) : try YAMLReader.parse(bytes)
            return DocumentSource(url: url, bytes: bytes, root: root)
        } catch {
            let (line, column) = DocumentSource.location(of: error.offset, in: bytes)
            throw .invalidResources(
                source: url.path, line: line, column: column, pointer: "#" + error.pointer, reason: error.reason)
        }
    }

    private static func size(of url: URL) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber)?.intValue ?? 0
    }

    /// Checks `root` as the resources' contents: every key a concrete path of one of the map's
    /// collections or singletons, every item an object with an id of the collection's kind, no id
    /// twice, every item valid under the item schema and every singleton under its read's
    /// response schema, within the store's bounds.
    package func contents(
        of root: DocumentNode, in contract: OpenAPIContract, from origin: DataOrigin,
        maximumItems: Int = ResourceStore.maximumItems, maximumBytes: Int = ResourceStore.maximumBytes
    ) throws(RequestMockerError) -> ResourceContents {
        func failure(_ node: DocumentNode, _ pointer: [String], _ reason: String) -> RequestMockerError {
            let position = origin.source?.location(of: node.offset)
            let escaped = pointer.map {
                $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
            }
            return .invalidResources(
                source: origin.name, line: position?.line, column: position?.column,
                pointer: "#" + escaped.map { "/" + $0 }.joined(), reason: reason)
        }
        guard case .object(let members) = root.value else {
            throw failure(
                root, [],
                "the resources are an object keyed by paths: {\"/pets\": [{...}], \"/users/1/settings\": {...}}")
        }
        var contents = ResourceContents()
        var bytes = 0
        var keys: Set<String> = []
        for member in members.members {
            let key = member.key
            let value = member.value
            guard keys.insert(Self.storeKey(key)).inserted else {
                throw failure(value, [key], "\(Self.storeKey(key)) is given twice (a trailing slash doesn't count)")
            }
            if let collection = collection(at: key) {
                guard case .array(let elements) = value.value else {
                    throw failure(value, [key], "\(collection.path) is a collection: give its items as an array")
                }
                guard elements.count <= maximumItems else {
                    throw failure(
                        value, [key], "a collection holds at most \(maximumItems) items; this has \(elements.count)")
                }
                var items: [(id: String, item: DocumentNode)] = []
                var seen: Set<String> = []
                for (index, item) in elements.enumerated() {
                    let pointer = [key, String(index)]
                    guard case .object = item.value else {
                        throw failure(item, pointer, "an item is an object; this is \(item.kind)")
                    }
                    guard let id = item[collection.idProperty] else {
                        throw failure(item, pointer, "the item has no \"\(collection.idProperty)\", its id; add one")
                    }
                    switch (collection.idKind, id.value) {
                    case (.integer, .int), (.uuid, .string), (.string, .string): break
                    default:
                        throw failure(
                            id, pointer + [collection.idProperty],
                            "the id is \(id.kind); \(collection.path)'s ids are "
                                + (collection.idKind == .integer ? "integers" : "strings"))
                    }
                    let text = ResourceResponder.text(id)
                    guard seen.insert(text).inserted else {
                        throw failure(id, pointer + [collection.idProperty], "the id \(text) is given twice in \(key)")
                    }
                    if let (steps, problem) = Self.firstViolation(of: item, against: collection.itemSchema) {
                        throw failure(
                            Self.node(at: steps, in: item), pointer + steps,
                            "the item breaks the contract's item schema: \(problem); make it fit")
                    }
                    bytes += item.jsonBytes.count
                    items.append((text, item))
                }
                contents.collections.append((Self.storeKey(key), items))
            } else if let singleton = singleton(at: key) {
                guard case .object = value.value else {
                    throw failure(value, [key], "\(singleton.path) is a singleton: give its value as an object")
                }
                if let index = singleton.operations[.read], let schema = Self.readSchema(of: index, in: contract),
                    let (steps, problem) = Self.firstViolation(of: value, against: schema)
                {
                    throw failure(
                        Self.node(at: steps, in: value), [key] + steps,
                        "the value breaks the contract's schema: \(problem); make it fit")
                }
                bytes += value.jsonBytes.count
                contents.singletons.append((Self.storeKey(key), value))
            } else {
                let known = (collections.map(\.path) + singletons.map(\.path)).joined(separator: ", ")
                throw failure(
                    value, [key],
                    "\(key.debugDescription) is no resource of the contract; the resources are "
                        + (known.isEmpty ? "none" : known) + " (with parent ids filled in, without the base path)")
            }
        }
        guard bytes <= maximumBytes else {
            throw failure(
                root, [],
                "the resources hold at most \(maximumBytes / (1024 * 1024)) MiB of items; these are \(bytes) bytes")
        }
        return contents
    }

    /// The collection whose path template `path` fills in.
    func collection(at path: String) -> Collection? {
        collections.first { Self.fills(path, $0.path) }
    }

    func singleton(at path: String) -> Singleton? {
        singletons.first { Self.fills(path, $0.path) }
    }

    /// Whether the concrete `path` is `template` with its parameters filled in (each by one
    /// non-empty segment); trailing slashes don't count.
    static func fills(_ path: String, _ template: String) -> Bool {
        guard path.hasPrefix("/"), !path.contains("?"), !path.contains("#") else { return false }
        let given = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        let wanted = template.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        func trimmed(_ segments: ArraySlice<Substring>) -> [Substring] {
            var segments = Array(segments)
            while segments.last == "" { segments.removeLast() }
            return segments
        }
        let (concrete, pattern) = (trimmed(given), trimmed(wanted))
        guard concrete.count == pattern.count else { return false }
        return zip(concrete, pattern).allSatisfy { value, part in
            if part.hasPrefix("{"), part.hasSuffix("}"),
                part.dropFirst().dropLast().allSatisfy({ $0 != "{" && $0 != "}" })
            {
                return !value.isEmpty
            }
            return value == part
        }
    }

    /// The store's key for a concrete path: without a trailing slash.
    static func storeKey(_ path: String) -> String {
        ResourceMapReader.normalized(path) ?? path
    }

    /// The JSON schema of the read operation's lowest 2xx answer.
    static func readSchema(of index: Int, in contract: OpenAPIContract) -> Schema? {
        successMedia(of: index, in: contract)?.schema
    }

    /// The first thing `value` breaks in `schema`: where (the steps of its JSON pointer) and
    /// what (`expected string, got 5`).
    private static func firstViolation(
        of value: DocumentNode, against schema: Schema
    ) -> (steps: [String], problem: String)? {
        guard
            let violation = SchemaValidator.violations(of: value.jsonValue, against: schema, direction: .response).first
        else { return nil }
        let steps = violation.pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
        return (steps, violation.message)
    }

    /// The value at `steps` below `node`, or the deepest one on the way that is there (a missing
    /// member is reported at its object).
    private static func node(at steps: [String], in node: DocumentNode) -> DocumentNode {
        node.deepest(at: steps).node
    }
}
