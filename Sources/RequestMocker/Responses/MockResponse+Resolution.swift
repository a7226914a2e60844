extension MockResponse {
    /// Who is being answered, and by which registry entry (named in error messages only, so the
    /// description isn't built for every request).
    package struct ResolutionContext: Sendable {
        let request: MockRequest
        let captures: Captures
        let entry: FilterIndex.Entry?
        /// Where a WebSocket connection's frames go, for a request that asks for one.
        var transcript: WebSocketTranscript?
        /// How the transport forwards (for ``MockResponse/forward(to:)``) and runs blocks.
        var forwarding = Forwarding(timeout: 60)

        var filterDescription: String { entry?.filter?.description ?? "the unmatched-request policy" }

        package init(
            request: MockRequest, captures: Captures, entry: FilterIndex.Entry?, transcript: WebSocketTranscript?,
            forwarding: Forwarding = Forwarding(timeout: 60)
        ) {
            self.request = request
            self.captures = captures
            self.entry = entry
            self.transcript = transcript
            self.forwarding = forwarding
        }
    }

    /// Block responses may return blocks; this bounds the chain so a block that returns itself
    /// fails instead of looping.
    static let maximumNesting = 16

    /// Takes this response's turn: a sequence hands out its next element, everything else is
    /// itself. `nil` means a used-up sequence, and the filter no longer matches.
    func claimed() -> MockResponse? {
        guard case .sequence(let sequence) = content else { return self }
        return sequence.next()?.claimed().map { overlaid(on: $0) }
    }

    package func resolve(_ context: ResolutionContext, nesting: Int = 0) -> PendingOutcome {
        switch content {
        case .body(let data, let contentType):
            if let prepared { return .ready(outcome(prepared, context)) }
            return .ready(outcome(body: .bytes(data), defaultContentType: contentType, context))
        case .file(let url, let contentType):
            // Only the size is read now: the delivery layer reads the bytes as it sends them.
            do {
                let length = try Self.readableFileLength(url)
                let body = ResponseBody.file(FileSlice(url: url, length: length))
                let type = contentType ?? Self.contentType(forExtension: url.pathExtension)
                return .ready(outcome(body: body, defaultContentType: type, context))
            } catch {
                return .ready(Outcome(.refusal(Refusal(error)), delay: extraDelay))
            }
        case .slice(let slice, let contentType):
            return .ready(outcome(body: .file(slice), defaultContentType: contentType, context))
        case .stream(let source, let contentType):
            let body = ResponseBody.stream(BodyStream(pieces: source.pieces(for: context.request, context.captures)))
            return .ready(outcome(body: body, defaultContentType: contentType, context))
        case .webSocket(let script):
            let transcript = context.transcript ?? WebSocketTranscript()
            switch WebSocketHandshake.answer(
                context.request, script: script, headers: headerOverlay, transcript: transcript)
            {
            case .upgrade(let upgrade): return .ready(Outcome(.webSocket(upgrade), delay: extraDelay))
            case .refusal(let response): return .ready(outcome(response, context))
            }
        case .unbuildable(let reason):
            let error = RequestMockerError.invalidResponse(
                filter: context.filterDescription, request: context.request.description, reason: reason)
            return .ready(Outcome(.refusal(Refusal(error)), delay: extraDelay))
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
        case .forward(let base):
            return forwarded(to: base, context)
        case .passThrough:
            return context.forwarding.passThrough(context.request, recording: nil).delayed(by: extraDelay)
        case .handler(.sync(let block)) where context.forwarding.runsBlocksOnTheirOwnThread:
            return .blocking {
                do {
                    return try resolveInner(block(context.request, context.captures), context, nesting: nesting)
                } catch {
                    return .ready(Outcome(error: Self.wrap(error, context), delay: extraDelay))
                }
            }
        case .handler(.sync(let block)):
            do {
                return try resolveInner(block(context.request, context.captures), context, nesting: nesting)
            } catch {
                return .ready(Outcome(error: Self.wrap(error, context), delay: extraDelay))
            }
        case .handler(.inline(let compute)):
            return resolveInner(compute(context.request, context.captures), context, nesting: nesting)
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

    /// The request sent on to `base` (see ``forward(to:)``).
    private func forwarded(to base: URL, _ context: ResolutionContext) -> PendingOutcome {
        let request = context.request
        guard let rebased = Forwarding.rebased(request, under: base) else {
            let error = RequestMockerError.invalidForward(base: base.absoluteString, request: request.description)
            return .ready(Outcome(.refusal(Refusal(error)), delay: extraDelay))
        }
        let forwarding = context.forwarding
        if forwarding.loopsBack(rebased.url) {
            return .ready(Outcome(.refusal(.forwardLoop(request, to: rebased.url)), delay: extraDelay))
        }
        let outgoing = forwarding.marked(rebased)
        let delay = extraDelay
        if let relayed = forwarding.relay?.relay(outgoing, timeout: forwarding.timeout, recording: false) {
            return relayed.delayed(by: delay)
        }
        return .pending {
            var outcome = await Forwarder.outcome(
                for: outgoing, timeout: forwarding.timeout, streams: forwarding.streamsBodies)
            outcome.delay = delay
            return outcome
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
        var parts = inner.parts
        if let statusOverride { parts.statusOverride = statusOverride }
        if let versionOverride { parts.versionOverride = versionOverride }
        for field in headerOverlay { parts.headerOverlay.replace(field.name, with: field.value) }
        if let limit = transfer.bytesPerSecond { parts.transfer.bytesPerSecond = limit }
        if let cut = transfer.truncatedAfter { parts.transfer.truncatedAfter = cut }
        var result = inner
        result.parts = parts
        return result.delayed(by: extraDelay)
    }

    private func outcome(body: ResponseBody, defaultContentType: String?, _ context: ResolutionContext) -> Outcome {
        let response = Self.finished(
            body: body, defaultContentType: defaultContentType, status: statusOverride, version: versionOverride,
            overlay: headerOverlay, transfer: transfer
        )
        return outcome(response, context)
    }

    /// The response, or a refusal when it could not be sent as HTTP (the same for both
    /// transports, though only the server would put it on a wire).
    private func outcome(_ response: ResolvedResponse, _ context: ResolutionContext) -> Outcome {
        guard let problem = response.wireProblem else { return Outcome(.response(response), delay: extraDelay) }
        let error = RequestMockerError.invalidResponse(
            filter: context.filterDescription, request: context.request.description, reason: problem)
        return Outcome(.refusal(Refusal(error)), delay: extraDelay)
    }

    /// Applies the defaults: status 200, `HTTP/1.1`, the default `Content-Type` unless the
    /// overlay sets one, the overlay's headers, and the real `Content-Length` (none for a body
    /// whose length isn't known, whatever the overlay says).
    static func finished(
        body: ResponseBody, defaultContentType: String?, status: HTTPStatus?, version: String?, overlay: HTTPHeaders,
        transfer: BodyTransfer
    ) -> ResolvedResponse {
        var headers = HTTPHeaders()
        if let defaultContentType, !overlay.contains(.contentType) {
            headers.add(.contentType, defaultContentType)
        }
        for field in overlay { headers.add(field.name, field.value) }
        if let length = body.count {
            headers.replace(.contentLength, with: String(length))
        } else {
            headers.remove(.contentLength)
        }
        return ResolvedResponse(
            status: status ?? .ok, httpVersion: version ?? "HTTP/1.1", headers: headers, body: body, transfer: transfer
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
        return RequestMockerError.blockFailed(
            filter: context.filterDescription, request: context.request.description, underlying: error)
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

    /// A block returned a sequence that had no response left.
    struct SequenceUsedUp: Error, CustomStringConvertible {
        var description: String { "the block returned a response sequence that was already used up" }
    }

    /// Blocks returned blocks too many times in a row.
    struct NestingTooDeep: Error, CustomStringConvertible {
        let limit: Int
        var description: String { "blocks returned blocks \(limit) times in a row; return a concrete response" }
    }
}
