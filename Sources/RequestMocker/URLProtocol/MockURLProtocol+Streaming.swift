// Streamed responses (`MockResponse.stream`, `.events`) through the URL protocol: piece by piece
// where the platform hands every piece to the caller, and whole, after the last pause, where it
// would keep only the last one.

extension MockURLProtocol {
    /// Delivers a streamed response: the head now and each piece when its pause has passed, when
    /// the task keeps every piece (``keepsEveryPiece``); otherwise the whole body once it has
    /// all arrived, as one piece.
    func deliverStreamed(_ resolved: ResolvedResponse, pieces: TimedPieces, url: URL) {
        guard let client else { return }
        guard keepsEveryPiece else {
            guard let generation = delivery.beginWaiting() else { return }
            let delivery = delivery
            return run(
                {
                    var whole = Data()
                    do {
                        for try await piece in pieces {
                            whole.append(piece)
                            guard whole.count <= BodyStream.maximumBuffered else {
                                throw BodyStream.Overflow(whole: true)
                            }
                            delivery.noteActivity()
                        }
                    } catch {
                        return .failure(streamError(error))
                    }
                    return .response(resolved.replacingBody(with: .bytes(whole)), url: url)
                }, generation: generation)
        }
        guard let response = Self.urlResponse(resolved, url: url) else {
            return fail(client, URLError(.badServerResponse))
        }
        guard let generation = delivery.beginStreaming() else { return }
        client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        let delivery = delivery
        // One wake for the pump and the timer: each delivers on the task's own thread (its queue
        // on Linux, its client thread on Apple platforms), so their deliveries never overlap.
        let wake = makeWake()
        let pumping = Task {
            let ending = await pump(pieces, into: delivery, generation: generation, wake: wake)
            if delivery.end(ending, generation: generation) { wake() }
        }
        delivery.track(generation: generation, work: nil, tasks: [pumping, timer(for: generation, wake: wake)])
    }

    /// Hands the caller the pieces that arrived, and ends the body when it ended.
    func deliver(_ pieces: [Data], ending: DeliveryMachine.StreamEnding?) {
        guard let client else { return }
        for piece in pieces { client.urlProtocol(self, didLoad: piece) }
        switch ending {
        case .complete: finish(client)
        case .failed(let error): fail(client, error)
        case nil: break
        }
    }

}

/// Moves a stream's pieces into the delivery state as they fall due, waking the task for them;
/// returns how the stream ended.
private func pump(
    _ pieces: TimedPieces, into delivery: DeliveryState, generation: Int, wake: @Sendable () -> Void
) async -> DeliveryMachine.StreamEnding {
    do {
        for try await piece in pieces {
            if delivery.append(piece, generation: generation) { wake() }
        }
        return .complete
    } catch {
        return .failed(streamError(error))
    }
}

/// What a caller sees when a stream's source failed: a `URLError` passes unchanged (a computed
/// stream simulating the network), a cancelled one is `cancelled`, and anything else is the body
/// breaking off.
private func streamError(_ error: any Error) -> any Error {
    if error is URLError || error is RequestMockerError { return error }
    if let overflow = error as? BodyStream.Overflow { return RequestMockerError.bodyBrokeOff(reason: "\(overflow)") }
    if error is CancellationError { return URLError(.cancelled) }
    return RequestMockerError.bodyBrokeOff(reason: "the stream's source failed: \(error)")
}

extension ResolvedResponse {
    /// The same response with another body, sent whole (the `Content-Length` is not added: a
    /// streamed response had none).
    func replacingBody(with body: ResponseBody) -> ResolvedResponse {
        ResolvedResponse(status: status, httpVersion: httpVersion, headers: headers, body: body)
    }
}
