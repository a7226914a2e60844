/// A media type as a `Content-Type` header, an `Accept` range or a contract's `content` key writes
/// it (`application/json; charset=utf-8`, `image/*`): the one reading of them that negotiation,
/// request validation, `check` and sample requests share.
struct MediaType: Equatable {
    /// Lower case; `*` for a wildcard.
    let type: String
    /// Lower case, without parameters; `*` for a wildcard, `""` when the text has no `/`.
    let subtype: String

    init(_ text: String) {
        let essence = text.split(separator: ";").first.map(String.init) ?? ""
        let parts = essence.trimmingCharacters(in: .whitespaces).lowercased().split(separator: "/", maxSplits: 1)
        type = parts.first.map(String.init) ?? ""
        subtype = parts.count == 2 ? String(parts[1]) : ""
    }

    /// `type/subtype`, lower case, without parameters.
    var essence: String { subtype.isEmpty ? type : type + "/" + subtype }

    /// Whether it is JSON (`application/json`, `application/problem+json`).
    var isJSON: Bool { type == "application" && (subtype == "json" || subtype.hasSuffix("+json")) }

    /// Whether a body declared as this (`application/json`, `image/*`, `*/*`) takes one sent
    /// as `contentType`.
    func accepts(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let sent = MediaType(contentType)
        if type == "*" && subtype == "*" || self == sent { return true }
        return subtype == "*" && type == sent.type
    }
}
