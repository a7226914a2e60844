extension HAR {
    /// A loaded entry with `redaction`'s header, cookie, query and body rules applied, so a
    /// browser export saved again keeps none of the credentials it came with. (Entries this
    /// library recorded were redacted when recorded; redacting again changes nothing.)
    static func redact(_ entry: JSONValue, with redaction: Redaction) -> JSONValue {
        guard case .object(var fields) = entry else { return entry }
        if case .object(var request)? = fields["request"] {
            redactHeaders(&request, redaction, cookieHeader: "cookie")
            if case .string(let text)? = request["url"], let url = URL(string: text) {
                let redacted = redaction.redactedURL(url)
                if redacted != url {
                    request["url"] = .string(redacted.absoluteString)
                    request["queryString"] = .array(
                        (URLComponents(url: redacted, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
                            .object(["name": .string($0.name), "value": .string($0.value ?? "")])
                        })
                }
            }
            if case .object(var postData)? = request["postData"] {
                redactText(&postData, redaction)
                request["postData"] = .object(postData)
            }
            fields["request"] = .object(request)
        }
        if case .object(var response)? = fields["response"] {
            redactHeaders(&response, redaction, cookieHeader: "set-cookie")
            if case .object(var content)? = response["content"] {
                redactText(&content, redaction)
                response["content"] = .object(content)
            }
            fields["response"] = .object(response)
        }
        return .object(fields)
    }

    private static func redactHeaders(
        _ message: inout [String: JSONValue], _ redaction: Redaction, cookieHeader: String
    ) {
        if case .array(let headers)? = message["headers"] {
            message["headers"] = .array(
                headers.compactMap { header in
                    guard case .object(var field) = header, let name = field["name"]?.stringValue,
                        let replacement = redaction.replacement(forHeader: name)
                    else { return header }
                    guard case .replace(let value) = replacement else { return nil }
                    field["value"] = .string(
                        redaction.replaced(field["value"]?.stringValue ?? "", ofHeader: name, with: value))
                    return .object(field)
                })
        }
        guard let replacement = redaction.replacement(forHeader: cookieHeader),
            case .array(let cookies)? = message["cookies"]
        else {
            return
        }
        switch replacement {
        case .remove: message["cookies"] = []
        case .replace(let value):
            message["cookies"] = .array(
                cookies.map { cookie in
                    guard case .object(var fields) = cookie else { return cookie }
                    fields["value"] = .string(value)
                    return .object(fields)
                })
        }
    }

    /// Body keys in a `postData` or `content` text, read by its `mimeType`.
    private static func redactText(_ fields: inout [String: JSONValue], _ redaction: Redaction) {
        guard case .string(let text)? = fields["text"], fields["encoding"] == nil,
            fields["_encoding"] == nil
        else { return }
        let redacted = redaction.redact(body: Data(text.utf8), contentType: fields["mimeType"]?.stringValue)
        fields["text"] = .string(String(decoding: redacted, as: UTF8.self))
    }
}
