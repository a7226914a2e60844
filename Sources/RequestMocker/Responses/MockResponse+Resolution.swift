/// A response with everything decided: what the delivery layer writes.
struct ResolvedResponse: Sendable {
    let status: Int
    let httpVersion: String
    let headers: HTTPHeaders
    let body: Data
    /// `headers` as `HTTPURLResponse` takes them, built once.
    let headerDictionary: [String: String]

    init(status: Int, httpVersion: String, headers: HTTPHeaders, body: Data) {
        self.status = status
        self.httpVersion = httpVersion
        self.headers = headers
        self.body = body
        headerDictionary = headers.dictionary
    }
}

/// The end of resolving a ``MockResponse``: a response or an error, and how long to wait first.
struct ResolvedOutcome: Sendable {
    var result: Result<ResolvedResponse, any Error>
    var delay: Duration
}

/// Whether a response could be resolved on the spot or needs to await a block.
enum Resolution: Sendable {
    case ready(ResolvedOutcome)
    case pending(@Sendable () async -> ResolvedOutcome)
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

    func resolve(_ context: ResolutionContext, nesting: Int = 0) -> Resolution {
        switch content {
        case .body(let data, let contentType):
            if let prepared { return .ready(ResolvedOutcome(result: .success(prepared), delay: extraDelay)) }
            return .ready(outcome(body: data, defaultContentType: contentType))
        case .file(let url, let contentType):
            do {
                let data = try Data(contentsOf: url)
                return .ready(outcome(body: data, defaultContentType: contentType ?? Self.contentType(forExtension: url.pathExtension)))
            } catch {
                let reason = (error as NSError).localizedDescription
                return .ready(ResolvedOutcome(result: .failure(RequestMockerError.fileNotReadable(path: url.path, reason: reason)), delay: extraDelay))
            }
        case .failure(let error):
            return .ready(ResolvedOutcome(result: .failure(error), delay: extraDelay))
        case .sequence:
            guard let next = claimed() else {
                let error = RequestMockerError.blockFailed(
                    filter: context.filterDescription,
                    request: context.request.description,
                    underlying: SequenceUsedUp()
                )
                return .ready(ResolvedOutcome(result: .failure(error), delay: extraDelay))
            }
            return next.resolve(context, nesting: nesting)
        case .handler(.sync(let block)):
            do {
                return try resolveInner(block(context.request, context.captures), context, nesting: nesting)
            } catch {
                return .ready(ResolvedOutcome(result: .failure(Self.wrap(error, context)), delay: extraDelay))
            }
        case .handler(.async(let block)):
            return .pending {
                do {
                    let inner = try await block(context.request, context.captures)
                    switch resolveInner(inner, context, nesting: nesting) {
                    case .ready(let outcome): return outcome
                    case .pending(let next): return await next()
                    }
                } catch {
                    return ResolvedOutcome(result: .failure(Self.wrap(error, context)), delay: extraDelay)
                }
            }
        }
    }

    /// Resolves what a block returned and lays this response's modifiers over it.
    private func resolveInner(_ inner: MockResponse, _ context: ResolutionContext, nesting: Int) -> Resolution {
        guard nesting < Self.maximumNesting else {
            let error = RequestMockerError.blockFailed(
                filter: context.filterDescription,
                request: context.request.description,
                underlying: NestingTooDeep(limit: Self.maximumNesting)
            )
            return .ready(ResolvedOutcome(result: .failure(error), delay: extraDelay))
        }
        return overlaid(on: inner).resolve(context, nesting: nesting + 1)
    }

    /// `inner` with this response's status, version, headers and delay on top.
    private func overlaid(on inner: MockResponse) -> MockResponse {
        var result = inner
        if let statusOverride { result.statusOverride = statusOverride }
        if let versionOverride { result.versionOverride = versionOverride }
        for field in headerOverlay { result.headerOverlay.replace(field.name, with: field.value) }
        return result.delayed(by: extraDelay)
    }

    private func outcome(body: Data, defaultContentType: String?) -> ResolvedOutcome {
        let response = Self.finished(body: body, defaultContentType: defaultContentType, status: statusOverride, version: versionOverride, overlay: headerOverlay)
        return ResolvedOutcome(result: .success(response), delay: extraDelay)
    }

    /// Applies the defaults: status 200, `HTTP/1.1`, the default `Content-Type` unless the
    /// overlay sets one, the overlay's headers, and the real `Content-Length`.
    static func finished(body: Data, defaultContentType: String?, status: Int?, version: String?, overlay: HTTPHeaders) -> ResolvedResponse {
        var headers = HTTPHeaders()
        if let defaultContentType, !overlay.contains("Content-Type") {
            headers.add("Content-Type", defaultContentType)
        }
        for field in overlay { headers.add(field.name, field.value) }
        headers.replace("Content-Length", with: String(body.count))
        return ResolvedResponse(status: status ?? 200, httpVersion: version ?? "HTTP/1.1", headers: headers, body: body)
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
