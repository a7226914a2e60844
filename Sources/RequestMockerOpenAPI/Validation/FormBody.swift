import Foundation
import RequestMocker

/// A form body (`application/x-www-form-urlencoded`) or a `multipart/form-data` body as the
/// object its schema describes. On the wire every field is text: each is converted by its
/// property's schema and its `encoding` (style, explode, content type), as OpenAPI's encoding
/// rules say, so `flag=true` is the Boolean `true` for a `boolean` property and `tag=a&tag=b`
/// the list `["a", "b"]` for an array. Validation checks the object; a stateful create stores it.
///
/// - A form's field is read as a query parameter of its encoding's style would be (`form` and
///   exploded by default): a list from repeated fields, or from one field split at `,`, ` ` or
///   `|` when not exploded; an object from `name[key]` fields (`deepObject`) or `k,v,…`.
/// - A multipart part with a file name, or whose property is binary, stays text; one whose
///   `Content-Type` (or encoding's) is JSON, or whose property is an object, is read as JSON;
///   any other is converted as a form's field is. Repeated parts make a list, as does one part
///   holding a JSON array for a list property.
/// - A field the schema doesn't declare is converted by `additionalProperties`, else kept as text.
enum FormBody {
    /// The object, and its numbers no `Int` or `Double` holds exactly, by pointer.
    struct Read {
        var object: DocumentNode
        var exactNumbers: [String: ExactNumber]
        /// The members that came as files (multipart parts with a file name).
        var files: Set<String> = []
        /// What couldn't be read as the schema says, beside what could: a field declared JSON that
        /// isn't, parts past the bound.
        var problems: [RequestViolation] = []

        /// The object without its files: what a stateful create keeps (a file's bytes are no
        /// member of an item).
        var storable: DocumentNode {
            files.isEmpty
                ? object
                : .map(
                    (object.object?.members ?? []).filter { !files.contains($0.key) }.map {
                        ($0.key, $0.value)
                    })
        }
    }

    /// The body as an object: its media type's essence decides how it is read. `nil` when the
    /// body is neither kind of form; a violation when it can't be read.
    static func read(
        _ body: Data, contentType: String, media: OperationPlan.Media
    ) -> Result<Read, RequestViolation>? {
        guard let schema = media.schema else { return nil }
        switch MediaType(contentType).essence {
        case "application/x-www-form-urlencoded":
            let fields = FormFields.pairs(String(decoding: body, as: UTF8.self)).map { ($0.name, $0.value ?? "") }
            return .success(fieldsObject(fields, schema: schema, encoding: media.encoding))
        case "multipart/form-data":
            guard let boundary = MultipartBody.boundary(of: contentType),
                let parts = MultipartBody(body, boundary: boundary)
            else {
                return .failure(
                    RequestViolation(
                        location: "body", name: nil, pointer: "", keyword: "multipart",
                        message: "the multipart/form-data body has no boundary in its Content-Type, "
                            + "or no part that starts with it"))
            }
            return partsObject(parts.parts, schema: schema, encoding: media.encoding).map { read in
                var read = read
                if let problem = parts.problem {
                    read.problems.append(
                        RequestViolation(
                            location: "body", name: nil, pointer: "", keyword: "multipart",
                            message: "the multipart/form-data body can't be read whole: \(problem)"))
                }
                return read
            }
        default:
            return nil
        }
    }

    // MARK: Forms

    private static func fieldsObject(
        _ fields: [(name: String, value: String)], schema: Schema, encoding: [String: OperationPlan.Encoding]
    ) -> Read {
        let lookup = schema.lookup
        var exact: [String: ExactNumber] = [:]
        var members: [(String, DocumentNode)] = []
        var problems: [RequestViolation] = []
        var taken: Set<String> = []
        func add(_ name: String, _ value: DocumentNode) {
            if taken.insert(name).inserted { members.append((name, value)) }
        }
        func scalar(_ text: String, _ schema: Schema?, _ pointer: String) -> DocumentNode {
            let (value, number) = ParameterText.read(text, schema)
            if let number { exact[pointer] = number }
            return node(value)
        }
        // The fields by name, in the order of their first appearance, in one pass.
        var grouped: [(name: String, values: [String])] = []
        var positions: [String: Int] = [:]
        for (name, value) in fields {
            if let position = positions[name] {
                grouped[position].values.append(value)
            } else {
                positions[name] = grouped.count
                grouped.append((name, [value]))
            }
        }
        let deepPrefixes = encoding.filter { $0.value.style == "deepObject" }.map { $0.key + "[" }
        for (name, values) in grouped
        where !deepPrefixes.contains(where: { name.hasPrefix($0) && name.hasSuffix("]") }) {
            let property = lookup.property(name)
            let pointer = "/" + Located.escaped(name)
            let style = encoding[name]?.style ?? "form"
            let explode = encoding[name]?.explode ?? (style == "form")
            let types = property?.lookup.types ?? []
            if let type = encoding[name]?.contentType, MediaType(type).isJSON {
                do {
                    add(name, try DocumentNode.parseJSON([UInt8](values[0].utf8)))
                } catch {
                    problems.append(
                        RequestViolation(
                            location: "body", name: nil, pointer: pointer, keyword: "json",
                            message: "the field \"\(name)\" is not JSON: \(error)"))
                    add(name, .text(values[0]))
                }
            } else if types.contains("array") {
                var items =
                    explode
                    ? values
                    : values[0].components(separatedBy: RequestValidator.separator(style: style, explode: false))
                if !explode, values[0].isEmpty { items = [] }
                let itemSchema = property?.lookup.items
                add(name, .list(items.enumerated().map { scalar($1, itemSchema, pointer + "/\($0)") }))
            } else if types.contains("object"), !explode || style != "form" {
                // `k,v,k2,v2`; `deepObject` fields are gathered below.
                guard style != "deepObject" else { continue }
                let pieces = values[0].components(separatedBy: ",")
                var object: [(String, DocumentNode)] = []
                var index = 0
                while index + 1 < pieces.count {
                    let key = pieces[index]
                    object.append(
                        (
                            key,
                            scalar(
                                pieces[index + 1], property?.lookup.property(key), pointer + "/" + Located.escaped(key))
                        ))
                    index += 2
                }
                add(name, .map(object))
            } else if values.count > 1 {
                add(name, .list(values.enumerated().map { scalar($1, property, pointer + "/\($0)") }))
            } else {
                add(name, scalar(values[0], property, pointer))
            }
        }
        // `deepObject` properties: `filter[color]=red`.
        for (name, style) in encoding where style.style == "deepObject" {
            let prefix = name + "["
            let object = fields.compactMap { field -> (String, DocumentNode)? in
                guard field.name.hasPrefix(prefix), field.name.hasSuffix("]") else { return nil }
                let key = String(field.name.dropFirst(prefix.count).dropLast())
                let property = lookup.property(name)?.lookup.property(key)
                return (key, scalar(field.value, property, "/" + Located.escaped(name) + "/" + Located.escaped(key)))
            }
            if !object.isEmpty { add(name, .map(object)) }
        }
        return Read(object: .map(members), exactNumbers: exact, problems: problems)
    }

    // MARK: Multipart

    private static func partsObject(
        _ parts: [MultipartBody.Part], schema: Schema, encoding: [String: OperationPlan.Encoding]
    ) -> Result<Read, RequestViolation> {
        let lookup = schema.lookup
        var exact: [String: ExactNumber] = [:]
        var members: [(String, DocumentNode)] = []
        var files: Set<String> = []
        var done: Set<String> = []
        for part in parts where done.insert(part.name).inserted {
            let property = lookup.property(part.name)
            let pointer = "/" + Located.escaped(part.name)
            let named = parts.filter { $0.name == part.name }
            let isList = property?.lookup.types?.contains("array") == true
            // A list is one part per item; one part holding a JSON array is read as the list too.
            if isList, named.count == 1, part.fileName == nil, part.body.first == UInt8(ascii: "["),
                let list = try? DocumentNode.parseJSON([UInt8](part.body)), case .array = list.value
            {
                members.append((part.name, list))
                continue
            }
            let itemSchema = isList ? property?.lookup.items : property
            var values: [DocumentNode] = []
            for (index, each) in named.enumerated() {
                let at = isList || named.count > 1 ? pointer + "/\(index)" : pointer
                switch value(of: each, itemSchema, contentType: encoding[part.name]?.contentType, at: at) {
                case .success(let (node, number)):
                    if let number { exact[at] = number }
                    values.append(node)
                case .failure(let violation): return .failure(violation)
                }
            }
            members.append((part.name, isList || values.count > 1 ? .list(values) : values[0]))
            // A file that stayed bytes (not one read as JSON) is no member of a stored item.
            if part.fileName != nil, values.contains(where: { $0.string != nil }) { files.insert(part.name) }
        }
        return .success(Read(object: .map(members), exactNumbers: exact, files: files))
    }

    /// One part's value: text for a file or a binary property, JSON where its media type or its
    /// property's type says so, else its text converted by its schema.
    private static func value(
        of part: MultipartBody.Part, _ schema: Schema?, contentType: String?, at pointer: String
    ) -> Result<(DocumentNode, ExactNumber?), RequestViolation> {
        let text = String(decoding: part.body, as: UTF8.self)
        let lookup = schema?.lookup
        let types = lookup?.types ?? []
        let isBinary = ["binary", "byte"].contains(lookup?.format ?? "")
        let declaredJSON = (part.contentType ?? contentType).map { MediaType($0).isJSON } ?? false
        // A part whose media type is JSON is JSON, a file too (a browser's Blob of JSON), as is a
        // structured property's part (OpenAPI's default for objects and arrays) unless the
        // property may be text; a binary property's part, or any other file, stays as it came.
        let structured = !types.isDisjoint(with: ["object", "array"]) && !types.contains("string")
        if !isBinary, declaredJSON || structured {
            do {
                return .success((try DocumentNode.parseJSON([UInt8](part.body)), nil))
            } catch {
                return .failure(
                    RequestViolation(
                        location: "body", name: nil, pointer: pointer, keyword: "json",
                        message: "the part \"\(part.name)\" is not JSON: \(error)"))
            }
        }
        if part.fileName != nil || isBinary { return .success((.text(text), nil)) }
        let (value, number) = ParameterText.read(text, schema)
        return .success((node(value), number))
    }

    /// A scalar read from text as a document value.
    private static func node(_ value: JSONValue) -> DocumentNode {
        switch value {
        case .null: DocumentNode(.null, at: 0)
        case .bool(let bool): DocumentNode(.bool(bool), at: 0)
        case .int(let int): DocumentNode(.int(int), at: 0)
        case .double(let double): DocumentNode(.double(double), at: 0)
        case .string(let string): .text(string)
        // Text is read into scalars only.
        case .array, .object: .text(value.description)
        }
    }
}
