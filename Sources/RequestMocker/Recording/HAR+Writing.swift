extension HAR {
    static func entry(from interaction: Interaction) -> JSONValue {
        let milliseconds = milliseconds(interaction.duration)
        var entry: [String: JSONValue] = [
            "startedDateTime": .string(HARTimestamp.format(interaction.startedAt)),
            "time": milliseconds,
            "request": request(interaction.request),
            "response": response(interaction.result),
            "cache": .object([:]),
            "timings": .object([
                "blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": milliseconds, "receive": 0,
            ]),
        ]
        // Where a server sent it, its credentials hidden (HAR allows fields that start with `_`).
        if let upstream = interaction.upstream {
            entry["_upstream"] = .string(Redaction.hidingSecrets(upstream).absoluteString)
        }
        return .object(entry)
    }

    private static func milliseconds(_ duration: Duration) -> JSONValue {
        let (seconds, attoseconds) = duration.components
        let value = ((Double(seconds) * 1000 + Double(attoseconds) / 1e15) * 1000).rounded() / 1000
        return value == value.rounded() && abs(value) < 1e15 ? .int(Int(value)) : .double(value)
    }

    private static func request(_ request: MockRequest) -> JSONValue {
        var fields: [String: JSONValue] = [
            "method": .string(request.method.rawValue),
            "url": .string(request.url.absoluteString),
            "httpVersion": "HTTP/1.1",
            "cookies": .array(requestCookies(request.headers)),
            "headers": headerList(request.headers),
            "queryString": .array(
                request.queryItems.map { .object(["name": .string($0.name), "value": .string($0.value ?? "")]) }),
            "headersSize": -1,
            "bodySize": .int(request.body?.count ?? 0),
        ]
        if let body = request.body {
            var postData: [String: JSONValue] = [
                "mimeType": .string(request.headers[.contentType] ?? "application/octet-stream")
            ]
            if let text = String(data: body, encoding: .utf8) {
                postData["text"] = .string(text)
            } else {
                // HAR 1.2's postData has no encoding field; ours says how to read the text.
                postData["text"] = .string(body.base64EncodedString())
                postData["_encoding"] = "base64"
            }
            fields["postData"] = .object(postData)
        }
        return .object(fields)
    }

    private static func response(_ result: Result<RecordedResponse, URLError>) -> JSONValue {
        switch result {
        case .failure(let error):
            return .object([
                "status": 0, "statusText": "", "httpVersion": "", "cookies": [], "headers": [],
                "content": .object(["size": 0, "mimeType": "x-unknown"]),
                "redirectURL": "", "headersSize": -1, "bodySize": -1,
                "_error": .object([
                    "domain": .string(NSURLErrorDomain),
                    "code": .int(error.code.rawValue),
                    "message": .string(error.localizedDescription),
                ]),
            ])
        case .success(let response):
            var content: [String: JSONValue] = [
                "size": .int(response.body.count),
                "mimeType": .string(response.headers[.contentType] ?? "x-unknown"),
            ]
            if let text = String(data: response.body, encoding: .utf8) {
                if !text.isEmpty { content["text"] = .string(text) }
            } else {
                content["text"] = .string(response.body.base64EncodedString())
                content["encoding"] = "base64"
            }
            let compressed = response.headers.contains(.contentEncoding)
            return .object([
                "status": .int(response.status.code),
                "statusText": .string(response.status.reasonPhrase),
                "httpVersion": .string(response.httpVersion),
                "cookies": .array(response.headers.values(for: .setCookie).compactMap(responseCookie)),
                "headers": headerList(response.headers),
                "content": .object(content),
                "redirectURL": .string(response.headers[.location] ?? ""),
                "headersSize": -1,
                "bodySize": compressed ? -1 : .int(response.body.count),
            ])
        }
    }

    private static func headerList(_ headers: HTTPHeaders) -> JSONValue {
        .array(headers.map { .object(["name": .string($0.name.rawValue), "value": .string($0.value)]) })
    }

    /// `Cookie: a=1; b=2` as HAR's cookie list (empty once redacted).
    private static func requestCookies(_ headers: HTTPHeaders) -> [JSONValue] {
        headers.values(for: .cookie).flatMap { $0.split(separator: ";") }.compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            return .object([
                "name": .string(parts[0].trimmingCharacters(in: .whitespaces)), "value": .string(String(parts[1])),
            ])
        }
    }

    /// One `Set-Cookie` value as a HAR cookie, or `nil` when it has no `name=value`.
    private static func responseCookie(_ header: String) -> JSONValue? {
        let attributes = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = attributes.first, let equals = first.firstIndex(of: "="), equals != first.startIndex else {
            return nil
        }
        var cookie: [String: JSONValue] = [
            "name": .string(String(first[..<equals])),
            "value": .string(String(first[first.index(after: equals)...])),
        ]
        for attribute in attributes.dropFirst() {
            let parts = attribute.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = parts.first else { continue }
            switch name.lowercased() {
            case "path" where parts.count == 2: cookie["path"] = .string(parts[1])
            case "domain" where parts.count == 2: cookie["domain"] = .string(parts[1])
            case "expires" where parts.count == 2: cookie["expires"] = .string(parts[1])
            case "httponly": cookie["httpOnly"] = true
            case "secure": cookie["secure"] = true
            default: continue
            }
        }
        return .object(cookie)
    }
}
