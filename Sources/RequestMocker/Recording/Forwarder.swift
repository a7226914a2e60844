import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Sends a request to the real network: for pass-through, recording, ``MockResponse/forward(to:)``
/// and a server's upstream.
///
/// The inner session keeps nothing (see `configuration`) and has none of RequestMocker's
/// classes, so the forwarded request can't come back to us. It does not follow redirects: the 3xx is the
/// answer. `MockURLProtocol` follows it through the registry like any answer, so every hop is
/// matched (and recorded) on its own; the loopback server hands it to its client, which follows
/// it. (FoundationNetworking drops a refused redirect's body.)
enum Forwarder {
    private static let transfers = Transfers()
    private static let session = URLSession(configuration: configuration, delegate: transfers, delegateQueue: nil)

    /// Ephemeral, and keeping nothing between requests: no cookies (a forwarded request
    /// carries its client's own `Cookie` field, and the answer's `Set-Cookie` goes back to the
    /// client's jar), no cache, no credentials. One session serves every registry, server and
    /// test of the process, so anything it kept would reach the next one's requests.
    private static var configuration: URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.urlCache = nil
        configuration.urlCredentialStorage = nil
        return configuration
    }

    /// The largest body a streamed exchange keeps for its recording (a whole body is held by
    /// whoever receives it anyway).
    static let maximumRecordedBody = 64 * 1024 * 1024

    /// Keeps a forwarded exchange (a recording), once its body is complete or with the transport
    /// error; what it throws fails the request. A cancelled request is not kept.
    typealias Keeper = @Sendable (Result<RecordedResponse, URLError>) throws -> Void

    /// What forwarding `request` delivers: the response as received (its body decoded, if the
    /// server encoded it), or `502` with the transport error, which the URL protocol delivers
    /// as it is.
    ///
    /// - Parameters:
    ///   - streams: hand the body on as it arrives (the server relays it); otherwise the outcome
    ///     waits for the whole body (the URL protocol delivers it at once).
    ///   - keeper: records the exchange.
    static func outcome(
        for request: MockRequest, timeout: TimeInterval, streams: Bool, keeper: Keeper? = nil
    ) async -> Outcome {
        // A streamed exchange is kept as its body ends, before the client has all of it; a whole
        // one here, where a caller that gave up meanwhile (its timeout fired) is seen.
        let transfer = Transfer(streams: streams, keeper: streams ? keeper : nil)
        switch await transfer.run(urlRequest(for: request, timeout: timeout), in: session, registry: transfers) {
        case .streaming(let response):
            return Outcome(.response(response))
        case .whole(let result):
            // (A streamed exchange that ended before its head was kept already.)
            if !streams, let keeper, !Task.isCancelled, result.failureCode != .cancelled {
                do {
                    try keeper(result)
                } catch {
                    return Outcome(error: error)
                }
            }
            switch result {
            case .success(let response): return Outcome(.response(response.playable))
            case .failure(let error): return failed(request, error)
            }
        case .failed(let error):
            return Outcome(error: error)
        }
    }

    /// `502` with the transport error.
    private static func failed(_ request: MockRequest, _ error: URLError) -> Outcome {
        Outcome(.refusal(.forwardFailed(request, error: error, reason: error.reason)))
    }

    private static func urlRequest(for request: MockRequest, timeout: TimeInterval) -> URLRequest {
        var forwarded = URLRequest(url: request.url)
        // Set as a property, in whole seconds: FoundationNetworking's HTTP loader ignores the
        // timeout given to `URLRequest(url:timeoutInterval:)` (the session's applies), and a
        // property of 0.5 s was seen to time out at once.
        forwarded.timeoutInterval = max(timeout.rounded(.up), 1)
        forwarded.httpMethod = request.method.rawValue
        // The session frames the body and manages its own connection.
        for field in request.headers.endToEnd().removing([.contentLength, .expect]) {
            forwarded.addValue(field.value, forHTTPHeaderField: field.name.rawValue)
        }
        forwarded.httpBody = request.body
        return forwarded
    }
}

/// The session's delegate: hands each task's events to its ``Transfer``.
private final class Transfers: NSObject, URLSessionDataDelegate, Sendable {
    private let running = LockedState<[Int: Transfer]>([:])

    func add(_ transfer: Transfer, for task: URLSessionTask) {
        running.withLock { $0[task.taskIdentifier] = transfer }
    }

    private func transfer(for task: URLSessionTask) -> Transfer? {
        running.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        transfer(for: dataTask)?.received(response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.received(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = running.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.completed(response: task.response, error: error)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }
}

/// One forwarded request, from sending it to its body's end. Events arrive on the session's
/// delegate queue, one at a time.
private final class Transfer: Sendable {
    /// What the caller gets.
    enum Received: Sendable {
        /// The head is in; the body follows in the response's stream.
        case streaming(ResolvedResponse)
        /// The whole response, or the transport error (the only answer when not streaming; when
        /// streaming, the exchange ended before its head).
        case whole(Result<RecordedResponse, URLError>)
        /// The keeper failed.
        case failed(any Error)
    }

    private struct State: Sendable {
        /// The caller, until the head (or, when not streaming, the whole response) is in.
        var waiter: CheckedContinuation<Received, Never>?
        var head: (status: HTTPStatus, headers: HTTPHeaders)?
        var stream: BodyStream?
        /// The body so far, when it is delivered whole or kept.
        var kept = Data()
        /// The caller gave up (FoundationNetworking may still complete the task normally).
        var cancelled = false
        /// A streamed body to record grew past ``Forwarder/maximumRecordedBody``.
        var tooLargeToKeep = false
    }

    private let streams: Bool
    private let keeper: Forwarder.Keeper?
    private let state = LockedState(State())

    init(streams: Bool, keeper: Forwarder.Keeper?) {
        self.streams = streams
        self.keeper = keeper
    }

    private var keepsBody: Bool { !streams || keeper != nil }

    func run(_ request: URLRequest, in session: URLSession, registry: Transfers) async -> Received {
        let task = session.dataTask(with: request)
        self.task.withLock { $0 = task }
        registry.add(self, for: task)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.waiter = continuation }
                task.resume()
            }
        } onCancel: {
            cancel()
        }
    }

    /// - Parameter announcesLength: whether the body's announced length can be trusted (not for
    ///   a refused redirect, whose body FoundationNetworking drops).
    func received(_ response: URLResponse, announcesLength: Bool = true) {
        guard let http = response as? HTTPURLResponse else { return }
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        // Sorted by name: the dictionary has no order, and recordings should diff cleanly. What
        // described the upstream's connection doesn't describe ours.
        let headers = HTTPHeaders(fields).endToEnd()
        let status = HTTPStatus(http.statusCode)
        guard streams else {
            state.withLock { $0.head = (status, headers) }
            return
        }
        // The announced length holds only when no content coding is undone on the way.
        let length =
            !announcesLength || headers.contains(.contentEncoding) || http.expectedContentLength < 0
            ? nil : Int(exactly: http.expectedContentLength)
        let stream = BodyStream(expectedLength: length) { [weak self] in self?.cancel() }
        let waiter = state.withLock { state in
            state.head = (status, headers)
            state.stream = stream
            defer { state.waiter = nil }
            return state.waiter
        }
        let delivered = headers.delivered(bodyLength: length)
        waiter?.resume(
            returning: .streaming(
                ResolvedResponse(status: status, httpVersion: "HTTP/1.1", headers: delivered, body: .stream(stream))))
    }

    func received(_ data: Data) {
        let stream = state.withLock { state in
            if streams, keeper != nil, state.kept.count + data.count > Forwarder.maximumRecordedBody {
                // Relayed on, but no longer kept: memory stays bounded.
                state.tooLargeToKeep = true
                state.kept = Data()
            } else if keepsBody, !state.tooLargeToKeep {
                state.kept.append(data)
            }
            return state.stream
        }
        stream?.append(data)
    }

    private let task = LockedState<URLSessionTask?>(nil)

    private func cancel() {
        state.withLock { $0.cancelled = true }
        task.withLock { $0 }?.cancel()
    }

    func completed(response: URLResponse?, error: (any Error)?) {
        // A refused redirect ends without a `didReceive` of its response.
        if error == nil, state.withLock({ $0.head == nil }), let response { received(response, announcesLength: false) }
        let (waiter, head, stream, kept, cancelled, tooLarge) = state.withLock { state in
            defer { state.waiter = nil }
            return (state.waiter, state.head, state.stream, state.kept, state.cancelled, state.tooLargeToKeep)
        }
        if tooLarge {
            let limit = Forwarder.maximumRecordedBody / (1024 * 1024)
            stream?.finish(
                RequestMockerError.bodyBrokeOff(reason: "the body is over \(limit) MiB, too large to record"))
            return
        }
        let failure = error.map {
            $0 as? URLError ?? URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: "\($0)"])
        }
        let result: Swift.Result<RecordedResponse, URLError>
        if let failure {
            result = .failure(failure)
        } else if let head {
            result = .success(RecordedResponse(status: head.status, headers: head.headers, body: kept))
        } else {
            result = .failure(URLError(.badServerResponse))
        }
        // A request the caller cancelled, or that the timeout gave up on, says nothing about the
        // server: relay it, but don't keep it.
        if let keeper, !cancelled, failure?.code != .cancelled {
            do {
                try keeper(result)
            } catch {
                waiter?.resume(returning: .failed(error))
                stream?.finish(error)
                return
            }
        }
        if let stream {
            stream.finish(failure)
        } else {
            waiter?.resume(returning: .whole(result))
        }
    }
}

extension Result where Failure == URLError {
    var failureCode: URLError.Code? {
        if case .failure(let error) = self { error.code } else { nil }
    }
}
