import RequestMocker

/// One schema of a draft as it is written: its keywords in the order people write them.
struct DraftSchema {
    enum Literal {
        case string(String)
        case null
    }

    var types: [String] = []
    var format: String?
    var enumeration: [Literal] = []
    var constant: String?
    var properties: [(name: String, schema: DocumentNode)] = []
    var required: [String] = []
    var additionalProperties: DocumentNode?
    var items: DocumentNode?
    var oneOf: [DocumentNode] = []

    init() {}

    init(constant: String) {
        types = ["string"]
        self.constant = constant
    }

    /// The schema as a document node.
    var node: DocumentNode {
        var members: [(String, DocumentNode)] = []
        if types.count == 1 {
            members.append(("type", .text(types[0])))
        } else if types.count > 1 {
            members.append(("type", .list(types.map(DocumentNode.text))))
        }
        if let format { members.append(("format", .text(format))) }
        if let constant { members.append(("const", .text(constant))) }
        if !enumeration.isEmpty {
            members.append(
                (
                    "enum",
                    .list(
                        enumeration.map {
                            switch $0 {
                            case .string(let text): .text(text)
                            case .null: DocumentNode(.null, at: 0)
                            }
                        })
                ))
        }
        if !properties.isEmpty { members.append(("properties", .map(properties))) }
        if !required.isEmpty { members.append(("required", .list(required.map(DocumentNode.text)))) }
        if let additionalProperties { members.append(("additionalProperties", additionalProperties)) }
        if let items { members.append(("items", items)) }
        if !oneOf.isEmpty { members.append(("oneOf", .list(oneOf))) }
        return .map(members)
    }
}

extension DocumentNode {
    /// A value made here rather than read from a file (its offset is 0).
    static func text(_ text: String) -> DocumentNode { DocumentNode(.string(text), at: 0) }
    static func list(_ elements: [DocumentNode]) -> DocumentNode { DocumentNode(.array(elements), at: 0) }
    static func map(_ members: [(String, DocumentNode)]) -> DocumentNode {
        var object = DocumentObject()
        for (key, value) in members { _ = object.append(.init(key: key, keyOffset: 0, value: value)) }
        return DocumentNode(.object(object), at: 0)
    }
}
