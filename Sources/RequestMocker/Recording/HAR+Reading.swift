extension HAR {
    static func interaction(from entry: JSONValue, path: String) throws(FormatError) -> Interaction {
        let fields = try object(entry, path)
        let requestPath = path + ".request"
        let request = try object(fields["request"], requestPath)
        let method = try string(request, "method", requestPath)
        let urlText = try string(request, "url", requestPath)
        guard let url = URL(string: urlText), url.scheme != nil else {
            throw FormatError(path: requestPath + ".url", reason: "\"\(urlText)\" is not an absolute URL")
        }
        var requestHeaders = try headers(request["headers"], requestPath + ".headers")
        let posted = try postData(request["postData"], requestPath + ".postData")
        // Browsers' exports often list no headers: the body's media type is then postData's.
        if let posted, let mimeType = posted.mimeType, !requestHeaders.contains(.contentType) {
            requestHeaders.add(.contentType, mimeType)
        }
        let recordedRequest = MockRequest(
            method: HTTPMethod(rawValue: method), url: url, headers: requestHeaders, body: posted?.body)

        let responsePath = path + ".response"
        let response = try object(fields["response"], responsePath)
        let status = try integer(response, "status", responsePath)
        let result: Result<RecordedResponse, URLError>
        // Chrome writes `"_error": null` on every successful response.
        if let error = [response["_error"], fields["_error"]].compactMap({ $0 }).first(where: { $0 != .null }) {
            result = .failure(try urlError(error, path: responsePath + "._error"))
        } else if status == 0 {
            result = .failure(
                URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "the recording has status 0 and no response"]))
        } else {
            guard (100...999).contains(status) else {
                throw FormatError(
                    path: responsePath + ".status",
                    reason: "\(status) is not an HTTP status; use three digits from 100 to 999 (0 for a failed request)"
                )
            }
            var headers = try headers(response["headers"], responsePath + ".headers")
            let body = try content(response["content"], responsePath + ".content")
            // As for a request: a response without a Content-Type header has content's mimeType
            // (not browsers' "x-unknown" for none).
            if !body.isEmpty, !headers.contains(.contentType), case .object(let content)? = response["content"],
                let mimeType = try optionalString(content, "mimeType", responsePath + ".content"),
                mimeType.contains("/"), HTTPHeaders.isValidValue(mimeType)
            {
                headers.add(.contentType, mimeType)
            }
            let redirect = try optionalString(response, "redirectURL", responsePath) ?? ""
            if (300..<400).contains(status), !redirect.isEmpty, !headers.contains(.location) {
                headers.add(.location, redirect)
            }
            result = .success(
                RecordedResponse(
                    status: HTTPStatus(status),
                    httpVersion: normalizedVersion(try optionalString(response, "httpVersion", responsePath)),
                    headers: headers,
                    body: body
                ))
        }

        var startedAt = Date(timeIntervalSince1970: 0)
        if let text = try optionalString(fields, "startedDateTime", path) {
            guard let date = HARTimestamp.parse(text) else {
                throw FormatError(
                    path: path + ".startedDateTime",
                    reason: "\"\(text)\" is not an ISO 8601 date such as 2026-11-22T10:00:00.000Z")
            }
            startedAt = date
        }
        let milliseconds = try optionalNumber(fields, "time", path) ?? 0
        // Browsers write -1 for unknown; more than a year is not a real request.
        guard milliseconds.isFinite, milliseconds < 365 * 24 * 3600 * 1000 else {
            throw FormatError(path: path + ".time", reason: "\(milliseconds) is not a duration in milliseconds")
        }
        let duration = Duration.microseconds(Int64((max(0, milliseconds) * 1000).rounded()))
        var interaction = Interaction(
            request: recordedRequest, result: result, startedAt: startedAt, duration: duration)
        if let upstream = try optionalString(fields, "_upstream", path) {
            guard let url = URL(string: upstream), ["http", "https"].contains(url.scheme?.lowercased() ?? ""),
                url.host != nil
            else {
                throw FormatError(
                    path: path + "._upstream", reason: "\"\(upstream)\" is not an http or https URL with a host")
            }
            interaction.upstream = url
        }
        return interaction
    }

    private static func object(_ value: JSONValue?, _ path: String) throws(FormatError) -> [String: JSONValue] {
        guard let value else { throw FormatError(path: path, reason: "missing") }
        guard case .object(let fields) = value else { throw FormatError(path: path, reason: "expected an object") }
        return fields
    }

    private static func string(
        _ fields: [String: JSONValue], _ key: String, _ path: String
    ) throws(FormatError) -> String {
        guard let value = try optionalString(fields, key, path) else {
            throw FormatError(path: "\(path).\(key)", reason: "missing")
        }
        return value
    }

    private static func optionalString(
        _ fields: [String: JSONValue], _ key: String, _ path: String
    ) throws(FormatError) -> String? {
        switch fields[key] {
        case nil, .null?: return nil
        case .string(let value)?: return value
        default: throw FormatError(path: "\(path).\(key)", reason: "expected a string")
        }
    }

    private static func optionalNumber(
        _ fields: [String: JSONValue], _ key: String, _ path: String
    ) throws(FormatError) -> Double? {
        switch fields[key] {
        case nil, .null?: return nil
        case .int(let value)?: return Double(value)
        case .double(let value)?: return value
        default: throw FormatError(path: "\(path).\(key)", reason: "expected a number")
        }
    }

    private static func integer(_ fields: [String: JSONValue], _ key: String, _ path: String) throws(FormatError) -> Int
    {
        guard let number = try optionalNumber(fields, key, path) else {
            throw FormatError(path: "\(path).\(key)", reason: "missing")
        }
        guard let value = Int(exactly: number) else {
            throw FormatError(path: "\(path).\(key)", reason: "expected a whole number")
        }
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
            if name.hasPrefix(":") { continue }
            // Checked here, so no recording can write headers (or a second response) of its own
            // when it is played back through the server.
            guard HTTPHeaders.Name.isValid(name) else {
                throw FormatError(
                    path: elementPath + ".name",
                    reason:
                        "\(name.debugDescription) is not a header name; use letters, digits and !#$%&'*+-.^_`|~ only")
            }
            guard HTTPHeaders.isValidValue(value) else {
                throw FormatError(
                    path: elementPath + ".value",
                    reason: "the value holds a carriage return, line feed or NUL; remove it")
            }
            fields.append(HTTPHeaders.Field(name: HTTPHeaders.Name(name), value: value))
        }
        return HTTPHeaders(fields)
    }

    /// A request's body, and the media type `postData` gives it (for a request whose headers
    /// name none): its `text`, else its `params` as the body they were (URL-encoded fields, or
    /// `multipart/form-data` parts, files with their `fileName` and `contentType`).
    private static func postData(
        _ value: JSONValue?, _ path: String
    ) throws(FormatError) -> (body: Data, mimeType: String?)? {
        guard let value, value != .null else { return nil }
        let fields = try object(value, path)
        var mimeType = try optionalString(fields, "mimeType", path).flatMap { $0.isEmpty ? nil : $0 }
        if let mimeType, !HTTPHeaders.isValidValue(mimeType) {
            throw FormatError(path: path + ".mimeType", reason: "the value holds a carriage return, line feed or NUL")
        }
        if let text = try optionalString(fields, "text", path) {
            var encoding = try optionalString(fields, "_encoding", path)
            if encoding == nil { encoding = try optionalString(fields, "encoding", path) }
            return (try decode(text, encoding: encoding, path: path + ".text"), mimeType)
        }
        // Params make a body again only for a form: a URL-encoded one, or multipart parts.
        let essence = mimeType.map { MediaType($0).essence }
        guard case .array(let params)? = fields["params"],
            essence == nil || essence == "application/x-www-form-urlencoded" || essence == "multipart/form-data"
        else { return nil }
        var pairs: [String] = []
        var parts: [MultipartBody.Part] = []
        for (index, param) in params.enumerated() {
            let paramPath = "\(path).params[\(index)]"
            let field = try object(param, paramPath)
            let name = try string(field, "name", paramPath)
            // A param without a value is a bare field (`flag`), as ``FormFields`` keeps it apart
            // from an empty one (`flag=`).
            let value = try optionalString(field, "value", paramPath)
            pairs.append(value.map { "\(FormFields.encode(name))=\(FormFields.encode($0))" } ?? FormFields.encode(name))
            let contentType = try optionalString(field, "contentType", paramPath)
            if let contentType, !HTTPHeaders.isValidValue(contentType) {
                throw FormatError(
                    path: paramPath + ".contentType", reason: "the value holds a carriage return, line feed or NUL")
            }
            parts.append(
                MultipartBody.Part(
                    name: name, fileName: try optionalString(field, "fileName", paramPath), contentType: contentType,
                    body: Data((value ?? "").utf8)))
        }
        guard let type = mimeType, MediaType(type).essence == "multipart/form-data" else {
            return (Data(pairs.joined(separator: "&").utf8), mimeType ?? "application/x-www-form-urlencoded")
        }
        // The boundary the recording names, else one of ours, written into the media type.
        let boundary = MultipartBody.boundary(of: type) ?? "RequestMockerHARBoundary"
        if MultipartBody.boundary(of: type) == nil { mimeType = "multipart/form-data; boundary=\(boundary)" }
        return (MultipartBody(parts: parts).encoded(boundary: boundary), mimeType)
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
            throw FormatError(
                path: path, reason: "encoding \"\(encoding)\" is not supported; HAR bodies are text or base64")
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
        case "net::ERR_CONNECTION_RESET", "net::ERR_CONNECTION_CLOSED", "net::ERR_EMPTY_RESPONSE":
            .networkConnectionLost
        case "net::ERR_TIMED_OUT", "net::ERR_CONNECTION_TIMED_OUT": .timedOut
        case "net::ERR_INTERNET_DISCONNECTED": .notConnectedToInternet
        case "net::ERR_ABORTED": .cancelled
        case _ where text.hasPrefix("net::ERR_CERT_"): .serverCertificateUntrusted
        default: .unknown
        }
    }
}
