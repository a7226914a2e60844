/// Reading and writing HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the format
/// browsers' developer tools export, so a cassette opens there and a browser's export replays.
///
/// Reading is lenient where browsers differ (missing optional fields, extra `_` fields,
/// `pages`, HTTP/2 pseudo-headers, base64 bodies) and strict about what playback needs: a
/// wrong type or a missing `method`, `url` or `status` is an error naming the JSON path.
enum HAR {
    /// The version written into `log.version`.
    static let version = "1.2"

    /// A HAR document whose structure is wrong, with the JSON path that failed.
    struct FormatError: Error, Sendable {
        let path: String
        let reason: String
    }

    // MARK: Documents

    /// The log's fields other than `entries`, and the entries, from a file's bytes.
    static func document(from data: Data) throws(FormatError) -> (log: [String: JSONValue], entries: [JSONValue]) {
        let root: JSONValue
        do {
            root = try JSONValue(parsing: data)
        } catch {
            let location = JSONLocation(offset: error.offset, in: data)
            throw FormatError(path: location.path, reason: "\(error.reason) (line \(location.line), column \(location.column))")
        }
        guard case .object(let top) = root else { throw FormatError(path: "(root)", reason: "expected an object with a \"log\"") }
        guard case .object(var log)? = top["log"] else {
            throw FormatError(path: "log", reason: top["log"] == nil ? "missing; a HAR file is {\"log\": {\"entries\": [...]}}" : "expected an object")
        }
        guard case .array(let entries)? = log["entries"] else {
            throw FormatError(path: "log.entries", reason: log["entries"] == nil ? "missing" : "expected an array")
        }
        log["entries"] = nil
        return (log, entries)
    }

    /// A complete document: `log` with `entries`, pretty-printed with sorted keys and a final
    /// newline, so equal content gives equal bytes.
    static func data(log: [String: JSONValue], entries: [JSONValue]) throws -> Data {
        var fields = log
        fields["version"] = fields["version"] ?? .string(version)
        fields["creator"] = fields["creator"] ?? .object(["name": "RequestMocker", "version": .string(RequestMockerVersion.current)])
        fields["entries"] = .array(entries)
        var data = try JSONValue.object(["log": .object(fields)]).serialized(pretty: true)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    // MARK: Reading an entry

    static func interaction(from entry: JSONValue, path: String) throws(FormatError) -> Interaction {
        let fields = try object(entry, path)
        let requestPath = path + ".request"
        let request = try object(fields["request"], requestPath)
        let method = try string(request, "method", requestPath)
        let urlText = try string(request, "url", requestPath)
        guard let url = URL(string: urlText), url.scheme != nil else {
            throw FormatError(path: requestPath + ".url", reason: "\"\(urlText)\" is not an absolute URL")
        }
        let recordedRequest = MockRequest(
            method: HTTPMethod(rawValue: method),
            url: url,
            headers: try headers(request["headers"], requestPath + ".headers"),
            body: try postData(request["postData"], requestPath + ".postData")
        )

        let responsePath = path + ".response"
        let response = try object(fields["response"], responsePath)
        let status = try integer(response, "status", responsePath)
        let result: Result<RecordedResponse, URLError>
        // Chrome writes `"_error": null` on every successful response.
        if let error = [response["_error"], fields["_error"]].compactMap({ $0 }).first(where: { $0 != .null }) {
            result = .failure(try urlError(error, path: responsePath + "._error"))
        } else if status == 0 {
            result = .failure(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "the recording has status 0 and no response"]))
        } else {
            var headers = try headers(response["headers"], responsePath + ".headers")
            let redirect = try optionalString(response, "redirectURL", responsePath) ?? ""
            if (300..<400).contains(status), !redirect.isEmpty, !headers.contains(.location) {
                headers.add(.location, redirect)
            }
            result = .success(RecordedResponse(
                status: HTTPStatus(status),
                httpVersion: normalizedVersion(try optionalString(response, "httpVersion", responsePath)),
                headers: headers,
                body: try content(response["content"], responsePath + ".content")
            ))
        }

        var startedAt = Date(timeIntervalSince1970: 0)
        if let text = try optionalString(fields, "startedDateTime", path) {
            guard let date = HARTimestamp.parse(text) else {
                throw FormatError(path: path + ".startedDateTime", reason: "\"\(text)\" is not an ISO 8601 date such as 2026-11-22T10:00:00.000Z")
            }
            startedAt = date
        }
        let milliseconds = try optionalNumber(fields, "time", path) ?? 0
        // Browsers write -1 for unknown; more than a year is not a real request.
        guard milliseconds.isFinite, milliseconds < 365 * 24 * 3600 * 1000 else {
            throw FormatError(path: path + ".time", reason: "\(milliseconds) is not a duration in milliseconds")
        }
        let duration = Duration.microseconds(Int64((max(0, milliseconds) * 1000).rounded()))
        return Interaction(request: recordedRequest, result: result, startedAt: startedAt, duration: duration)
    }

    private static func object(_ value: JSONValue?, _ path: String) throws(FormatError) -> [String: JSONValue] {
        guard let value else { throw FormatError(path: path, reason: "missing") }
        guard case .object(let fields) = value else { throw FormatError(path: path, reason: "expected an object") }
        return fields
    }

    private static func string(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(FormatError) -> String {
        guard let value = try optionalString(fields, key, path) else { throw FormatError(path: "\(path).\(key)", reason: "missing") }
        return value
    }

    private static func optionalString(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(FormatError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw FormatError(path: "\(path).\(key)", reason: "expected a string")
        }
    }

    private static func optionalNumber(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(FormatError) -> Double? {
        switch fields[key] {
        case nil, .null?: return nil
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        default: throw FormatError(path: "\(path).\(key)", reason: "expected a number")
        }
    }

    private static func integer(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(FormatError) -> Int {
        guard let number = try optionalNumber(fields, key, path) else { throw FormatError(path: "\(path).\(key)", reason: "missing") }
        guard let value = Int(exactly: number) else { throw FormatError(path: "\(path).\(key)", reason: "expected a whole number") }
        return value
    }

    /// `[{"name": …, "value": …}]`; HTTP/2 pseudo-headers (`:authority`) are dropped.
    private static func headers(_ value: JSONValue?, _ path: String) throws(FormatError) -> HTTPHeaders {
        guard let value, value != .null else { return HTTPHeaders() }
        guard case .array(let elements) = value else { throw FormatError(path: path, reason: "expected an array") }
        var fields: [HTTPHeaders.Field] = []
        fields.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            let header = try object(element, elementPath)
            let name = try string(header, "name", elementPath)
            let value = try optionalString(header, "value", elementPath) ?? ""
            if !name.hasPrefix(":") { fields.append(HTTPHeaders.Field(name: HTTPHeaders.Name(name), value: value)) }
        }
        return HTTPHeaders(fields)
    }

    private static func postData(_ value: JSONValue?, _ path: String) throws(FormatError) -> Data? {
        guard let value, value != .null else { return nil }
        let fields = try object(value, path)
        if let text = try optionalString(fields, "text", path) {
            var encoding = try optionalString(fields, "_encoding", path)
            if encoding == nil { encoding = try optionalString(fields, "encoding", path) }
            return try decode(text, encoding: encoding, path: path + ".text")
        }
        // Form fields without text can be rebuilt only for URL-encoded forms: a multipart
        // body's boundary and parts are not in the HAR.
        let mimeType = try optionalString(fields, "mimeType", path)?.lowercased() ?? ""
        guard case .array(let params)? = fields["params"], mimeType.isEmpty || mimeType.contains("x-www-form-urlencoded") else { return nil }
        var pairs: [String] = []
        for (index, param) in params.enumerated() {
            let paramPath = "\(path).params[\(index)]"
            let field = try object(param, paramPath)
            let name = try string(field, "name", paramPath)
            pairs.append("\(FormFields.encode(name))=\(FormFields.encode(try optionalString(field, "value", paramPath) ?? ""))")
        }
        return Data(pairs.joined(separator: "&").utf8)
    }

    private static func content(_ value: JSONValue?, _ path: String) throws(FormatError) -> Data {
        guard let value, value != .null else { return Data() }
        let fields = try object(value, path)
        guard let text = try optionalString(fields, "text", path) else { return Data() }
        return try decode(text, encoding: optionalString(fields, "encoding", path), path: path + ".text")
    }

    private static func decode(_ text: String, encoding: String?, path: String) throws(FormatError) -> Data {
        guard let encoding, !encoding.isEmpty else { return Data(text.utf8) }
        guard encoding.lowercased() == "base64" else {
            throw FormatError(path: path, reason: "encoding \"\(encoding)\" is not supported; HAR bodies are text or base64")
        }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw FormatError(path: path, reason: "not valid base64")
        }
        return data
    }

    /// `HTTP/1.1` stays; browsers' `h2`, `h3` and `http/2.0` become `HTTP/2`, `HTTP/3`; an
    /// absent or unknown version is `HTTP/1.1`.
    private static func normalizedVersion(_ version: String?) -> String {
        switch version?.lowercased() {
        case "h2", "http/2", "http/2.0": "HTTP/2"
        case "h3", "http/3", "http/3.0": "HTTP/3"
        case "http/1.0": "HTTP/1.0"
        default: "HTTP/1.1"
        }
    }

    /// Our `{"code", "domain", "message"}`, or a browser's `net::ERR_…` string.
    private static func urlError(_ value: JSONValue, path: String) throws(FormatError) -> URLError {
        switch value {
        case .string(let text):
            return URLError(chromeErrorCode(text), userInfo: [NSLocalizedDescriptionKey: text])
        case .object(let fields):
            let code = try integer(fields, "code", path)
            let message = try optionalString(fields, "message", path) ?? "recorded error \(code)"
            // Optional on Linux, not on Apple platforms.
            let errorCode: URLError.Code? = URLError.Code(rawValue: code)
            return URLError(errorCode ?? .unknown, userInfo: [NSLocalizedDescriptionKey: message])
        default:
            throw FormatError(path: path, reason: "expected a string or an object with a \"code\"")
        }
    }

    private static func chromeErrorCode(_ text: String) -> URLError.Code {
        switch text {
        case "net::ERR_NAME_NOT_RESOLVED": .cannotFindHost
        case "net::ERR_CONNECTION_REFUSED": .cannotConnectToHost
        case "net::ERR_CONNECTION_RESET", "net::ERR_CONNECTION_CLOSED", "net::ERR_EMPTY_RESPONSE": .networkConnectionLost
        case "net::ERR_TIMED_OUT", "net::ERR_CONNECTION_TIMED_OUT": .timedOut
        case "net::ERR_INTERNET_DISCONNECTED": .notConnectedToInternet
        case "net::ERR_ABORTED": .cancelled
        case _ where text.hasPrefix("net::ERR_CERT_"): .serverCertificateUntrusted
        default: .unknown
        }
    }

    // MARK: Writing an entry

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
                    request["queryString"] = .array((URLComponents(url: redacted, resolvingAgainstBaseURL: false)?.queryItems ?? []).map {
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

    private static func redactHeaders(_ message: inout [String: JSONValue], _ redaction: Redaction, cookieHeader: String) {
        if case .array(let headers)? = message["headers"] {
            message["headers"] = .array(headers.compactMap { header in
                guard case .object(var field) = header, let name = field["name"]?.stringValue,
                      let replacement = redaction.headers[name.lowercased()] else { return header }
                guard case .replace(let value) = replacement else { return nil }
                field["value"] = .string(value)
                return .object(field)
            })
        }
        guard let replacement = redaction.headers[cookieHeader], case .array(let cookies)? = message["cookies"] else { return }
        switch replacement {
        case .remove: message["cookies"] = []
        case .replace(let value):
            message["cookies"] = .array(cookies.map { cookie in
                guard case .object(var fields) = cookie else { return cookie }
                fields["value"] = .string(value)
                return .object(fields)
            })
        }
    }

    /// Body keys in a `postData` or `content` text, read by its `mimeType`.
    private static func redactText(_ fields: inout [String: JSONValue], _ redaction: Redaction) {
        guard !redaction.bodyKeys.isEmpty, case .string(let text)? = fields["text"], fields["encoding"] == nil, fields["_encoding"] == nil else { return }
        let redacted = redaction.redact(body: Data(text.utf8), contentType: fields["mimeType"]?.stringValue)
        fields["text"] = .string(String(decoding: redacted, as: UTF8.self))
    }

    static func entry(from interaction: Interaction) -> JSONValue {
        let milliseconds = milliseconds(interaction.duration)
        return .object([
            "startedDateTime": .string(HARTimestamp.format(interaction.startedAt)),
            "time": milliseconds,
            "request": request(interaction.request),
            "response": response(interaction.result),
            "cache": .object([:]),
            "timings": .object([
                "blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": milliseconds, "receive": 0,
            ]),
        ])
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
            "queryString": .array(request.queryItems.map { .object(["name": .string($0.name), "value": .string($0.value ?? "")]) }),
            "headersSize": -1,
            "bodySize": .int(request.body?.count ?? 0),
        ]
        if let body = request.body {
            var postData: [String: JSONValue] = ["mimeType": .string(request.headers[.contentType] ?? "application/octet-stream")]
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
            return .object(["name": .string(parts[0].trimmingCharacters(in: .whitespaces)), "value": .string(String(parts[1]))])
        }
    }

    /// One `Set-Cookie` value as a HAR cookie, or `nil` when it has no `name=value`.
    private static func responseCookie(_ header: String) -> JSONValue? {
        let attributes = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let first = attributes.first, let equals = first.firstIndex(of: "="), equals != first.startIndex else { return nil }
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

/// Where a byte offset of a JSON document is: line and column (from 1), and the path of the
/// value being read there (`log.entries[3].request`), found by re-reading the text before it.
struct JSONLocation {
    let line: Int
    let column: Int
    let path: String

    init(offset: Int, in data: Data) {
        enum Frame {
            case object(key: String?, expectingKey: Bool)
            case array(index: Int)
        }
        let bytes = [UInt8](data.prefix(max(0, offset)))
        var stack: [Frame] = []
        var line = 1, lineStart = 0
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                lineStart = index + 1
            case UInt8(ascii: "{"):
                stack.append(.object(key: nil, expectingKey: true))
            case UInt8(ascii: "["):
                stack.append(.array(index: 0))
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                _ = stack.popLast()
            case UInt8(ascii: ","):
                switch stack.last {
                case .object(let key, _)?: stack[stack.count - 1] = .object(key: key, expectingKey: true)
                case .array(let position)?: stack[stack.count - 1] = .array(index: position + 1)
                case nil: break
                }
            case UInt8(ascii: "\""):
                var end = index + 1
                while end < bytes.count, bytes[end] != UInt8(ascii: "\"") {
                    end += bytes[end] == UInt8(ascii: "\\") ? 2 : 1
                }
                if case .object(_, true)? = stack.last {
                    let key = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
                    stack[stack.count - 1] = .object(key: key, expectingKey: false)
                }
                index = end
            default:
                break
            }
            index += 1
        }
        self.line = line
        column = bytes.count - lineStart + 1
        var path = ""
        for frame in stack {
            switch frame {
            case .object(let key?, false): path += path.isEmpty ? key : ".\(key)"
            case .array(let position): path += "[\(position)]"
            default: continue
            }
        }
        self.path = path.isEmpty ? "(root)" : path
    }
}

/// The library's version, written into HAR files' `creator`.
package enum RequestMockerVersion {
    package static let current = "0.1.0"
}
