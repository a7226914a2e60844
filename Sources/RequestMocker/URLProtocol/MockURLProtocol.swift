/// The `URLProtocol` that answers requests from a ``MockRegistry``.
///
/// Put a registry's class first in a session configuration's `protocolClasses` (FoundationNetworking
/// asks the classes in order, and its own HTTP class claims every http(s) URL):
///
/// ```swift
/// let registry = MockRegistry()
/// registry.register(.get("/ping"), respond: .string("pong"))
/// let configuration = URLSessionConfiguration.ephemeral
/// configuration.protocolClasses = [registry.protocolClass] + (configuration.protocolClasses ?? [])
/// let session = URLSession(configuration: configuration)   // or: registry.makeSession()
/// ```
///
/// `MockURLProtocol` itself serves ``MockRegistry/shared``, for code that registers filters
/// globally: `MockURLProtocol.register(...)` plus `[MockURLProtocol.self]` in
/// `protocolClasses`, or ``registerGlobally()``.
///
/// ## Delivery
/// A ready answer (a fixed body, a file already read, a contract's answer made before, a
/// remembering contract's answer, whose resources change in the order requests arrive) is
/// delivered inside `startLoading`. Everything that takes time is made elsewhere: delays, `async`
/// blocks and pass-through, and also synchronous blocks, a contract's generated bodies and
/// mock-data files not read yet, each on a thread of its own. FoundationNetworking calls
/// `startLoading` for every session in the process on one queue, so an answer made there would
/// hold up every other session's requests. On Linux, calling the URL-loading client from any
/// other thread races FoundationNetworking's task registry and crashes under load, so once the
/// answer is made the task is resumed; FoundationNetworking answers that by calling
/// `startLoading` again on the task's own queue, where the answer is delivered. The request is
/// decided, and journaled, when it arrives, and once: a suspended and resumed task gets the
/// answer already being made.
///
/// ## Limits on Linux
/// - Redirects are followed by the library (FoundationNetworking traps when a protocol reports
///   one); the caller sees the final response and URL.
/// - Download tasks fail with ``RequestMockerError/downloadTaskUnsupported(request:)``.
/// - Upload-task bodies are invisible to URL protocols (see ``MockRequest``).
/// - A `401` with a `Basic` challenge in `WWW-Authenticate` would hang the task (fixed in
///   swift-corelibs-foundation after Swift 6.3.1), so that header is delivered as
///   `X-RequestMocker-WWW-Authenticate`.
/// - Timeouts are enforced here, because FoundationNetworking enforces none for custom
///   protocols: the request's `timeoutInterval`, or else the session configuration's
///   `timeoutIntervalForRequest` (see ``URLSessionConfiguration/insertMocking(_:)``). They end
///   delays, blocks and forwarding; a synchronous block that timed out runs on to its end on its
///   own thread, and what it returns goes nowhere.
public class MockURLProtocol: URLProtocol {
    let delivery = DeliveryState()

    /// The registry this class answers from (`nil` when it was released), and the session
    /// configuration it was made for, if any.
    class var destination: RouteTable.Destination { RouteTable.Destination(registry: .shared, sessionTimeout: nil) }

    override public class func canInit(with request: URLRequest) -> Bool {
        // Asked of every request before it starts: the scheme is read off the URL's text, which
        // costs less than `URL.scheme`. Another scheme (`myapp:`) is claimed while a filter of
        // the registry names it.
        guard let url = request.url else { return false }
        if !url.absoluteString.hasHTTPScheme {
            guard let scheme = url.scheme?.lowercased(), let registry = destination.registry,
                registry.namesScheme(scheme)
            else { return false }
        }
        if routesToShared { MockRegistry.noteIfStray(request) }
        return true
    }

    /// Whether this class serves ``MockRegistry/shared`` (every registry's own class overrides it).
    class var routesToShared: Bool { true }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest {
        request
    }

    override public func startLoading() {
        switch delivery.start() {
        case .none:
            return
        case .deliver(let answer):
            deliver(answer)
        case .begin(let generation):
            begin(MockRequest(request, isUploadTask: task is URLSessionUploadTask), generation: generation)
        case .rerun(let generation, let work):
            run(work, generation: generation)
        case .stream(let pieces, let ending):
            deliver(pieces, ending: ending)
        }
    }

    override public func stopLoading() {
        delivery.stop()
        // A stop is also how a task is suspended; only a cancelled task's answer is abandoned.
        if task?.state == .canceling { delivery.completeEntry(.cancelled) }
    }

    /// Fails the request, and records how its answer ended.
    func fail(_ client: any URLProtocolClient, _ error: any Error) {
        client.urlProtocol(self, didFailWithError: error)
        delivery.completeEntry(.failed((error as? URLError)?.reason ?? "\(error)"))
    }

    /// Ends the response, and records that it was delivered.
    func finish(_ client: any URLProtocolClient) {
        client.urlProtocolDidFinishLoading(self)
        delivery.completeEntry(.delivered)
    }

    private func begin(_ request: MockRequest, generation: Int) {
        if Self.failsDownloadTasks, task is URLSessionDownloadTask {
            return finishNow(.failure(RequestMockerError.downloadTaskUnsupported(request: request.description)))
        }
        let destination = Self.destination
        guard let registry = destination.registry else {
            return finishNow(.failure(RequestMockerError.registryReleased(request: request.description)))
        }
        var request = request
        let cookies = URLLoadingRules.handlesCookies(self.request) ? destination.cookies : nil
        // The stored cookies, as the platform's HTTP loader adds them (FoundationNetworking has
        // added them to the task's request already, when the session made the task).
        if !URLLoadingRules.requestCarriesStoredCookies, let cookie = cookies?.field(for: request.url),
            !request.headers.contains(.cookie)
        {
            request = request.adding(.cookie, cookie)
        }
        let delivery = delivery
        let exchange = Exchange(
            registry: registry, timeout: timeout(in: destination), cookies: cookies,
            noteEntry: { delivery.noteEntry($0, in: registry) })
        switch exchange.start(request) {
        case .finished(let answer):
            finishNow(answer)
        case .deferred(let work, let onThread):
            run(work, generation: generation, onThread: onThread)
        }
    }

    /// Runs deferred work off this thread, racing the request's timeout, and brings the answer
    /// back through the platform's wake.
    func run(_ work: @escaping DeferredWork, generation: Int, onThread: Exchange.OnThread? = nil) {
        let delivery = delivery
        let wake = makeWake()
        let timer = timer(for: generation, wake: wake)
        guard let onThread else {
            let worker = Self.worker(work, generation: generation, delivery: delivery, wake: wake)
            delivery.track(generation: generation, work: work, tasks: [worker, timer])
            return
        }
        delivery.track(generation: generation, work: work, tasks: [timer])
        Self.settle(onThread, work: work, generation: generation, delivery: delivery, wake: wake)
    }

    /// A task that runs `work` and offers its answer.
    private static func worker(
        _ work: @escaping DeferredWork, generation: Int, delivery: DeliveryState, wake: @escaping @Sendable () -> Void
    ) -> Task<Void, Never> {
        Task {
            let answer = await work()
            if delivery.complete(generation: generation, with: answer) { wake() }
        }
    }

    /// Settles an answer made on a thread of its own there, once it is made: its delivery, or
    /// the next hop of its redirect, made the same way (at most the redirect limit deep). What
    /// must wait (a delay, a stall, an `async` block) goes to a task. A task that was stopped
    /// meanwhile takes no next hop: its restart runs `work` again, which awaits the same answer.
    private static func settle(
        _ onThread: Exchange.OnThread, work: @escaping DeferredWork, generation: Int, delivery: DeliveryState,
        wake: @escaping @Sendable () -> Void
    ) {
        onThread.making.whenMade { made in
            guard delivery.isWaiting(generation: generation) else { return }
            guard case .ready(let outcome) = made, let step = onThread.settle(outcome) else {
                delivery.add(
                    worker(work, generation: generation, delivery: delivery, wake: wake), generation: generation)
                return
            }
            switch step {
            case .finished(let answer):
                if delivery.complete(generation: generation, with: answer) { wake() }
            case .deferred(let next, let nextOnThread?):
                settle(nextOnThread, work: next, generation: generation, delivery: delivery, wake: wake)
            case .deferred(let next, nil):
                delivery.add(
                    worker(next, generation: generation, delivery: delivery, wake: wake), generation: generation)
            }
        }
    }

    /// Fails the given generation once it goes the request's timeout without progress: the
    /// whole wait for an answer, and then each gap between a streamed body's pieces.
    func timer(for generation: Int, wake: @escaping @Sendable () -> Void) -> Task<Void, Never> {
        let delivery = delivery
        let url = request.url
        let timeout = Duration.seconds(timeout(in: Self.destination))
        return Task {
            // Counted from when this task first runs, not from when it was made: when the
            // process's tasks are all busy, the work this times waits for them too.
            delivery.noteActivity()
            while true {
                let expiry = delivery.expire(generation: generation, timeout: timeout, error: timedOutError(url))
                switch expiry {
                case .wait(let left):
                    guard (try? await Task.sleep(for: left)) != nil else { return }
                case .expired(let wakes):
                    if wakes { wake() }
                    return
                case .over:
                    return
                }
            }
        }
    }

    /// This request's timeout (see ``effectiveTimeout(_:session:)``).
    func timeout(in destination: RouteTable.Destination) -> TimeInterval {
        Self.effectiveTimeout(request.timeoutInterval, session: destination.sessionTimeout)
    }

    /// Delivers an answer that became ready, if it still may be (Apple platforms' wake).
    func deliverReady() {
        switch delivery.takeReady() {
        case .deliver(let answer): deliver(answer)
        case .stream(let pieces, let ending): deliver(pieces, ending: ending)
        case .begin, .rerun, .none: break
        }
    }

    private func finishNow(_ answer: Delivery) {
        delivery.finishNow()
        deliver(answer)
    }

    var isHead: Bool {
        request.httpMethod.map { HTTPMethod(rawValue: $0) } == .head
    }

    /// Hands the answer to the client, on the thread `startLoading` runs on.
    private func deliver(_ answer: Delivery) {
        guard let client else { return }
        switch answer {
        case .failure(let error):
            fail(client, error)
        case .response(let resolved, let url):
            // What goes without a body (a HEAD, a 204, a 304) is never read, so a stream never starts.
            let sendsBody = !isHead && !resolved.status.forbidsBody
            if case .stream(let stream) = resolved.body, let pieces = stream.pieces, sendsBody {
                return deliverStreamed(resolved, pieces: pieces, url: url)
            }
            let body: Data
            do {
                body = sendsBody ? try resolved.body.data() : Data()
            } catch {
                fail(client, error)
                return
            }
            guard let response = Self.urlResponse(resolved, url: url) else {
                fail(client, URLError(.badServerResponse))
                return
            }
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if let cut = resolved.transfer.truncatedAfter, cut < body.count {
                if cut > 0 { client.urlProtocol(self, didLoad: body.prefix(cut)) }
                let info: [String: any Sendable] = [
                    NSLocalizedDescriptionKey:
                        "the body was cut short after \(cut) of \(body.count) bytes "
                        + "(RequestMocker truncated(afterBytes:))",
                    NSURLErrorFailingURLErrorKey: url,
                ]
                fail(client, URLError(ConnectionFault.truncatedBodyErrorCode, userInfo: info))
                return
            }
            if !body.isEmpty {
                client.urlProtocol(self, didLoad: body)
            }
            finish(client)
        }
    }

    /// The response as URL loading hands it over.
    static func urlResponse(_ resolved: ResolvedResponse, url: URL) -> HTTPURLResponse? {
        HTTPURLResponse(
            url: url, statusCode: resolved.status.code, httpVersion: resolved.httpVersion,
            headerFields: platformHeaders(of: resolved))
    }

    /// The timeout the platform's HTTP loader would apply: the request's `timeoutInterval` when
    /// it was set (FoundationNetworking's own test is whether it was ever assigned, which a
    /// protocol can't see, so a value other than the 60 s default stands for "set"), and
    /// otherwise the session configuration's `timeoutIntervalForRequest`, when the protocol class
    /// knows it. Kept in the range a timer can take; 0 or less means 60 seconds.
    static func effectiveTimeout(_ interval: TimeInterval, session: TimeInterval?) -> TimeInterval {
        let chosen = interval == 60 ? session ?? interval : interval
        guard chosen > 0, chosen.isFinite else { return 60 }
        return min(chosen, 365 * 24 * 3600)
    }

    // MARK: Registering globally (into MockRegistry.shared)

    /// Adds a filter to ``MockRegistry/shared``.
    ///
    /// ```swift
    /// MockURLProtocol.register(RequestFilter(host: "example.com", path: "/user/<id>", method: .get,
    ///                                        response: .json(["id": 1])))
    /// ```
    @discardableResult
    public static func register(_ filter: RequestFilter) -> FilterHandle {
        MockRegistry.shared.register(filter)
    }

    /// Adds filters to ``MockRegistry/shared``, in order.
    @discardableResult
    public static func register(_ filters: [RequestFilter]) -> [FilterHandle] {
        filters.map { MockRegistry.shared.register($0) }
    }

    /// Removes every filter from ``MockRegistry/shared``.
    public static func removeAll() {
        MockRegistry.shared.removeAll()
    }

    /// Registers `MockURLProtocol` with `URLProtocol.registerClass`, for `URLSession.shared`.
    ///
    /// On Linux this reaches **only** `URLSession.shared`, and only when it runs before the
    /// process creates its first `URLSession` (FoundationNetworking snapshots the list then).
    /// Sessions you create yourself need `protocolClasses` (see
    /// ``MockRegistry/makeSession(configuration:delegate:delegateQueue:)``).
    public static func registerGlobally() {
        _ = URLProtocol.registerClass(MockURLProtocol.self)
    }

    /// Undoes ``registerGlobally()``.
    public static func unregisterGlobally() {
        URLProtocol.unregisterClass(MockURLProtocol.self)
    }
}

/// What URL loading reports when a request went its timeout without progress.
private func timedOutError(_ url: URL?) -> URLError {
    var info: [String: any Sendable] = [NSLocalizedDescriptionKey: "The request timed out."]
    if let url { info[NSURLErrorFailingURLErrorKey] = url }
    return URLError(.timedOut, userInfo: info)
}

extension String {
    /// Whether the string starts with `http:` or `https:`, in any letter case.
    fileprivate var hasHTTPScheme: Bool {
        var bytes = utf8.makeIterator()
        for expected in "http".utf8 {
            guard let byte = bytes.next(), byte | 0x20 == expected else { return false }
        }
        switch bytes.next() {
        case UInt8(ascii: ":"): return true
        case let byte? where byte | 0x20 == UInt8(ascii: "s"): return bytes.next() == UInt8(ascii: ":")
        default: return false
        }
    }
}
