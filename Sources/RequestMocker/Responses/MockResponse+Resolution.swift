/// A response with everything decided: what the delivery layer writes.
package struct ResolvedResponse: Sendable {
    package let status: Int
    package let httpVersion: String
    package let headers: HTTPHeaders
    package let body: ResponseBody
    /// How the body goes onto the wire (the server honours it byte by byte; the URL protocol
    /// turns it into a delay and an error).
    package let transfer: BodyTransfer
    /// `headers` as `HTTPURLResponse` takes them, built once.
    let headerDictionary: [String: String]

    init(status: Int, httpVersion: String, headers: HTTPHeaders, body: ResponseBody, transfer: BodyTransfer = .whole) {
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        self.transfer = transfer
        headerDictionary = headers.dictionary
    }

    package init(status: Int, httpVersion: String, headers: HTTPHeaders, body: Data) {
        self.init(status: status, httpVersion: httpVersion, headers: headers, body: .bytes(body))
    }
}

/// A response body: bytes in memory, or a file read as it is sent, so the server can stream a
/// large file in constant memory.
package enum ResponseBody: Sendable {
    case bytes(Data)
    /// A file of `length` bytes (its size when the response was resolved).
    case file(URL, length: Int)

    package var count: Int {
        switch self {
        case .bytes(let data): data.count
        case .file(_, let length): length
        }
    }

    /// The whole body in memory.
    ///
    /// - Throws: ``RequestMockerError/fileNotReadable(path:reason:)`` when the file can't be read.
    package func data() throws(RequestMockerError) -> Data {
        switch self {
        case .bytes(let data):
            return data
        case .file(let url, _):
            do {
                return try Data(contentsOf: url)
            } catch {
                throw .fileNotReadable(path: url.path, reason: (error as NSError).localizedDescription)
            }
        }
    }
}

/// Whether a body is sent at full speed and in full (see ``MockResponse/throttled(bytesPerSecond:)``
/// and ``MockResponse/truncated(afterBytes:)``).
package struct BodyTransfer: Hashable, Sendable {
    /// The most body bytes sent per second; `nil` for no limit.
    package var bytesPerSecond: Int?
    /// How many body bytes are sent before the connection closes; `nil` for all of them.
    package var truncatedAfter: Int?

    static let whole = BodyTransfer()

    /// How long `count` bytes take at the limit.
    package func duration(of count: Int) -> Duration {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return .zero }
        let sent = min(count, truncatedAfter ?? count)
        return .milliseconds(Int64(sent) * 1000 / Int64(bytesPerSecond))
    }
}

/// Who is being answered, and by which filter (named in error messages only, so the
/// description isn't built for every request).
struct ResolutionContext: Sendable {
    let request: MockRequest
    let captures: Captures
    let filter: RequestFilter?

    var filterDescription: String { filter?.description ?? "the unmatched-request policy" }
}

extension MockResponse {
    /// Block responses may return blocks; this bounds the chain so a block that returns itself
    /// fails instead of looping.
    static let maximumNesting = 16

    /// Takes this response's turn: a sequence hands out its next element, everything else is
    /// itself. `nil` means a used-up sequence, and the filter no longer matches.
    func claimed() -> MockResponse? {
        guard case .sequence(let sequence) = content else { return self }
        return sequence.next()?.claimed().map { overlaid(on: $0) }
    }

    func resolve(_ context: ResolutionContext, nesting: Int = 0) -> PendingOutcome {
        switch content {
        case .body(let data, let contentType):
            if let prepared { return .ready(Outcome(.response(prepared), delay: extraDelay)) }
            return .ready(outcome(body: .bytes(data), defaultContentType: contentType))
        case .file(let url, let contentType):
            // Only the size is read now: the delivery layer reads the bytes as it sends them.
            do {
                let length = try Self.readableFileLength(url)
                let body = ResponseBody.file(url, length: length)
                return .ready(outcome(body: body, defaultContentType: contentType ?? Self.contentType(forExtension: url.pathExtension)))
            } catch {
                return .ready(Outcome(.refusal(Refusal(error)), delay: extraDelay))
            }
        case .fault(let fault):
            return .ready(Outcome(.fault(fault), delay: extraDelay))
        case .failure(let error):
            return .ready(Outcome(error: error, delay: extraDelay))
        case .sequence:
            guard let next = claimed() else {
                let error = RequestMockerError.blockFailed(
                    filter: context.filterDescription,
                    request: context.request.description,
                    underlying: SequenceUsedUp()
                )
                return .ready(Outcome(.refusal(Refusal(error)), delay: extraDelay))
            }
            return next.resolve(context, nesting: nesting)
        case .handler(.sync(let block)):
            do {
                return try resolveInner(block(context.request, context.captures), context, nesting: nesting)
            } catch {
                return .ready(Outcome(error: Self.wrap(error, context), delay: extraDelay))
            }
        case .handler(.async(let block)):
            return .pending {
                do {
                    let inner = try await block(context.request, context.captures)
                    return await resolveInner(inner, context, nesting: nesting).value
                } catch {
                    return Outcome(error: Self.wrap(error, context), delay: extraDelay)
                }
            }
        }
    }

    /// Resolves what a block returned and lays this response's modifiers over it.
    private func resolveInner(_ inner: MockResponse, _ context: ResolutionContext, nesting: Int) -> PendingOutcome {
        guard nesting < Self.maximumNesting else {
            let error = RequestMockerError.blockFailed(
                filter: context.filterDescription,
                request: context.request.description,
                underlying: NestingTooDeep(limit: Self.maximumNesting)
            )
            return .ready(Outcome(.refusal(Refusal(error)), delay: extraDelay))
        }
        return overlaid(on: inner).resolve(context, nesting: nesting + 1)
    }

    /// `inner` with this response's status, version, headers and delay on top.
    private func overlaid(on inner: MockResponse) -> MockResponse {
        var result = inner
        if let statusOverride { result.statusOverride = statusOverride }
        if let versionOverride { result.versionOverride = versionOverride }
        for field in headerOverlay { result.headerOverlay.replace(field.name, with: field.value) }
        if let limit = transfer.bytesPerSecond { result.transfer.bytesPerSecond = limit }
        if let cut = transfer.truncatedAfter { result.transfer.truncatedAfter = cut }
        return result.delayed(by: extraDelay)
    }

    private func outcome(body: ResponseBody, defaultContentType: String?) -> Outcome {
        let response = Self.finished(
            body: body, defaultContentType: defaultContentType, status: statusOverride, version: versionOverride,
            overlay: headerOverlay, transfer: transfer
        )
        return Outcome(.response(response), delay: extraDelay)
    }

    /// Applies the defaults: status 200, `HTTP/1.1`, the default `Content-Type` unless the
    /// overlay sets one, the overlay's headers, and the real `Content-Length`.
    static func finished(
        body: ResponseBody, defaultContentType: String?, status: Int?, version: String?, overlay: HTTPHeaders, transfer: BodyTransfer
    ) -> ResolvedResponse {
        var headers = HTTPHeaders()
        if let defaultContentType, !overlay.contains("Content-Type") {
            headers.add("Content-Type", defaultContentType)
        }
        for field in overlay { headers.add(field.name, field.value) }
        headers.replace("Content-Length", with: String(body.count))
        return ResolvedResponse(
            status: status ?? 200, httpVersion: version ?? "HTTP/1.1", headers: headers, body: body, transfer: transfer
        )
    }

    /// The size of a regular file that can be opened for reading.
    private static func readableFileLength(_ url: URL) throws(RequestMockerError) -> Int {
        let path = url.path
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw .fileNotReadable(path: path, reason: (error as NSError).localizedDescription)
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .fileNotReadable(path: path, reason: "it is not a regular file")
        }
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw .fileNotReadable(path: path, reason: "it is not readable (check its permissions)")
        }
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    /// URLErrors pass unchanged (blocks use them to simulate the network); our own errors are
    /// already descriptive; anything else gets the filter and request named.
    private static func wrap(_ error: any Error, _ context: ResolutionContext) -> any Error {
        if error is URLError || error is RequestMockerError { return error }
        return RequestMockerError.blockFailed(filter: context.filterDescription, request: context.request.description, underlying: error)
    }

    static func contentType(forExtension pathExtension: String) -> String {
        switch pathExtension.lowercased() {
        case "json": "application/json"
        case "html", "htm": "text/html; charset=utf-8"
        case "txt": "text/plain; charset=utf-8"
        case "xml": "application/xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "pdf": "application/pdf"
        default: "application/octet-stream"
        }
    }
}

/// A block returned a sequence that had no response left.
struct SequenceUsedUp: Error, CustomStringConvertible {
    var description: String { "the block returned a response sequence that was already used up" }
}

/// Blocks returned blocks too many times in a row.
struct NestingTooDeep: Error, CustomStringConvertible {
    let limit: Int
    var description: String { "blocks returned blocks \(limit) times in a row; return a concrete response" }
}
