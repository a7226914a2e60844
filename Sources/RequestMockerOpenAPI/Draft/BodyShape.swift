import Foundation
import RequestMocker

/// The bodies of one message kind, by media type (its essence, lower case) in the order seen.
struct MediaBodies {
    private(set) var types: [String] = []
    private(set) var bodies: [String: BodyShape] = [:]

    mutating func add(_ data: Data, contentType: String?, limits: DraftLimits) {
        let type = contentType.map { MediaType($0).essence } ?? "application/octet-stream"
        let body: BodyShape
        if let known = bodies[type] {
            body = known
        } else {
            body = BodyShape(mediaType: type)
            types.append(type)
            bodies[type] = body
        }
        body.add(data, contentType: contentType, limits: limits)
    }

    mutating func absorb(_ other: MediaBodies) {
        for type in other.types {
            guard let theirs = other.bodies[type] else { continue }
            if let mine = bodies[type] {
                mine.absorb(theirs)
            } else {
                types.append(type)
                bodies[type] = theirs.copy()
            }
        }
    }
}

/// The bodies of one media type: their shape (JSON, or a form's fields), and one example.
final class BodyShape {
    enum Kind {
        case json, form, multipart, text, other
    }

    let mediaType: String
    let kind: Kind
    private(set) var count = 0
    let shape = ValueShape()
    /// The first body, as it is written in the draft (JSON and forms as values, text as text).
    private(set) var example: DocumentNode?
    /// Bodies of a JSON type that weren't JSON: the schema then says nothing.
    private(set) var unreadable = 0
    /// Bodies past ``DraftLimits/sampledBodySize`` that were counted but not read.
    private(set) var skipped = 0
    private var readLarge = false
    /// The multipart fields that came as files: `type: string, format: binary` in the schema.
    private(set) var files: Set<String> = []

    init(mediaType: String) {
        self.mediaType = mediaType
        let media = MediaType(mediaType)
        kind =
            media.isJSON
            ? .json
            : mediaType == "application/x-www-form-urlencoded"
                ? .form
                : mediaType == "multipart/form-data" ? .multipart : media.type == "text" ? .text : .other
    }

    /// - Parameter contentType: the whole `Content-Type`, whose `boundary` a multipart body needs.
    func add(_ data: Data, contentType: String? = nil, limits: DraftLimits) {
        count += 1
        if data.count > limits.sampledBodySize {
            // One large body per media type is read; the others are counted.
            guard !readLarge else {
                skipped += 1
                return
            }
            readLarge = true
        }
        switch kind {
        case .json:
            guard let node = try? DocumentNode.parseJSON(Array(data)) else {
                unreadable += 1
                return
            }
            shape.add(node)
            if example == nil, data.count <= limits.exampleSize, !Self.nests(node, deeperThan: ValueShape.maximumDepth)
            {
                example = node
            }
        case .form:
            // A name sent more than once is a list, as the request validator reads a form.
            var fields = GroupedTexts(ignoresCase: false)
            for (name, value) in FormFields.pairs(String(decoding: data, as: UTF8.self)) {
                fields.add(name, value ?? "")
            }
            let node = DocumentNode.map(
                fields.groups.map { name, texts in
                    (name, texts.count == 1 ? .text(texts[0]) : .list(texts.map(DocumentNode.text)))
                })
            shape.add(node)
            if example == nil, data.count <= limits.exampleSize { example = node }
        case .multipart:
            // Text fields as a form's; files named, their bytes left out (no example then).
            guard let boundary = contentType.flatMap(MultipartBody.boundary(of:)),
                let parts = MultipartBody(data, boundary: boundary)?.parts
            else {
                unreadable += 1
                return
            }
            var fields = GroupedTexts(ignoresCase: false)
            var sentFiles = false
            for part in parts {
                if part.fileName != nil {
                    files.insert(part.name)
                    sentFiles = true
                }
                fields.add(part.name, part.fileName != nil ? "" : String(decoding: part.body, as: UTF8.self))
            }
            let node = DocumentNode.map(
                fields.groups.map { name, texts in
                    (name, texts.count == 1 ? .text(texts[0]) : .list(texts.map(DocumentNode.text)))
                })
            shape.add(node)
            if example == nil, !sentFiles, data.count <= limits.exampleSize { example = node }
        case .text:
            if example == nil, data.count <= limits.exampleSize, let text = String(data: data, encoding: .utf8) {
                example = .text(text)
            }
        case .other:
            break
        }
    }

    /// Whether `node` holds arrays or objects more than `limit` levels deep (an example that
    /// deep would pass the nesting our YAML reader allows).
    static func nests(_ node: DocumentNode, deeperThan limit: Int) -> Bool {
        var pending = [(node, 0)]
        while let (next, depth) = pending.popLast() {
            switch next.value {
            case .array(let elements):
                guard depth < limit else { return true }
                pending += elements.map { ($0, depth + 1) }
            case .object(let object):
                guard depth < limit else { return true }
                pending += object.members.map { ($0.value, depth + 1) }
            default: continue
            }
        }
        return false
    }

    func absorb(_ other: BodyShape) {
        count += other.count
        files.formUnion(other.files)
        shape.absorb(other.shape)
        if example == nil { example = other.example }
        unreadable += other.unreadable
        skipped += other.skipped
        readLarge = readLarge || other.readLarge
    }

    func copy() -> BodyShape {
        let copy = BodyShape(mediaType: mediaType)
        copy.absorb(self)
        return copy
    }

    /// The media type object: its schema and example.
    var node: DocumentNode {
        var members: [(String, DocumentNode)] = []
        switch kind {
        case .json, .form:
            // Past 1 MiB only one body was read: the schema claims nothing the others could break.
            if unreadable == 0 { members.append(("schema", shape.schema(loose: skipped > 0).node)) }
        case .multipart:
            guard unreadable == 0 else { break }
            let binary = DocumentNode.map([("type", .text("string")), ("format", .text("binary"))])
            let schema = shape.schema(loose: skipped > 0).node.replacingMembers { key, value in
                key == "properties"
                    ? value.replacingMembers { name, property in
                        guard files.contains(name) else { return property }
                        // A file sent more than once is a list of files.
                        return property["type"]?.string == "array"
                            ? property.replacingMembers { $0 == "items" ? binary : $1 } : binary
                    } : value
            }
            members.append(("schema", schema))
        case .text:
            members.append(("schema", .map([("type", .text("string"))])))
        case .other:
            break
        }
        if unreadable == 0, let example { members.append(("example", example)) }
        return .map(members)
    }
}
