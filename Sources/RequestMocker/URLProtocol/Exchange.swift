/// What a request finally gets: a response for a URL, or an error.
enum Delivery: Sendable {
    case response(ResolvedResponse, url: URL)
    case failure(any Error)
}

/// One request's way through a registry, redirects included, independent of how the answer is
/// delivered (URL protocol now, loopback server later).
///
/// Everything that can be decided at once is decided synchronously, so a plain stub is answered
/// inside `startLoading`; only delays, `async` blocks and pass-through need to wait, and they
/// hand back the rest of the work as an `async` closure.
struct Exchange: Sendable {
    enum Step: Sendable {
        case finished(Delivery)
        case deferred(@Sendable () async -> Delivery)
    }

    let registry: MockRegistry
    let followsRedirects: Bool
    /// The time the pass-through request may take.
    let timeout: TimeInterval

    init(registry: MockRegistry, timeout: TimeInterval) {
        self.registry = registry
        self.timeout = timeout
        followsRedirects = registry.followsRedirects
    }

    /// Where a request stands in a chain of redirects: the current request and the ones that
    /// led to it (none, for nearly every request, which then allocates no array).
    struct Hop: Sendable {
        var request: MockRequest
        var earlier: [MockRequest] = []

        var chain: [MockRequest] { earlier + [request] }

        var described: [String] { chain.map(\.description) }
    }

    func start(_ request: MockRequest) -> Step {
        advance(Hop(request: request))
    }

    private func advance(_ start: Hop) -> Step {
        var hop = start
        while true {
            switch registry.decide(hop.request) {
            case .fail(let error):
                return .finished(.failure(error))
            case .passThrough:
                let current = hop
                return .deferred { [timeout] in
                    let result = await PassThrough.forward(current.request, timeout: timeout)
                    return await finish(after: ResolvedOutcome(forwarded: result), at: current)
                }
            case .record(let ticket):
                let current = hop
                return .deferred { [timeout] in
                    await finish(after: await ticket.forwardAndRecord(current.request, timeout: timeout), at: current)
                }
            case .respond(.pending(let work)):
                let current = hop
                return .deferred {
                    let outcome = await work()
                    return await finish(after: outcome, at: current)
                }
            case .respond(.ready(let outcome)):
                if outcome.isStall || outcome.deliveryDelay > .zero {
                    let current = hop
                    return .deferred { await finish(after: outcome, at: current) }
                }
                switch next(after: outcome, at: hop) {
                case .done(let delivery): return .finished(delivery)
                case .redirect(let nextHop): hop = nextHop
                }
            }
        }
    }

    /// Waits out the outcome's delay, then delivers it or follows its redirect.
    private func finish(after outcome: ResolvedOutcome, at hop: Hop) async -> Delivery {
        if outcome.isStall {
            // Only the request's timeout (or cancelling it) ends a stall.
            try? await Task.sleep(for: MockResponse.longestDelay)
            return .failure(URLError(Task.isCancelled ? .cancelled : .timedOut))
        }
        if outcome.deliveryDelay > .zero {
            do {
                try await Task.sleep(for: outcome.deliveryDelay)
            } catch {
                return .failure(URLError(.cancelled))
            }
        }
        switch next(after: outcome, at: hop) {
        case .done(let delivery):
            return delivery
        case .redirect(let nextHop):
            switch advance(nextHop) {
            case .finished(let delivery): return delivery
            case .deferred(let work): return await work()
            }
        }
    }

    private enum Next {
        case done(Delivery)
        case redirect(Hop)
    }

    static let redirectStatuses: Set<Int> = [301, 302, 303, 307, 308]

    private func next(after outcome: ResolvedOutcome, at hop: Hop) -> Next {
        let response: ResolvedResponse
        switch outcome.result {
        case .failure(let fault as ConnectionFault): return .done(.failure(fault.urlError(for: hop.request.url)))
        case .failure(let error): return .done(.failure(error))
        case .success(let success): response = success
        }
        guard followsRedirects, Self.redirectStatuses.contains(response.status) else {
            return .done(.response(response, url: hop.request.url))
        }
        let location = response.headers["Location"]
        guard let location, let url = URL(string: location, relativeTo: hop.request.url)?.absoluteURL,
              let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            return .done(.failure(RequestMockerError.invalidRedirect(location: location, request: hop.request.description)))
        }
        let request = Self.redirected(hop.request, to: url, status: response.status)
        let isLoop = hop.chain.contains { $0.method == request.method && $0.url == request.url }
        let nextHop = Hop(request: request, earlier: hop.chain)
        guard nextHop.chain.count <= MockRegistry.maximumRedirects + 1 else {
            return .done(.failure(RequestMockerError.tooManyRedirects(limit: MockRegistry.maximumRedirects, chain: nextHop.described)))
        }
        guard !isLoop else {
            return .done(.failure(RequestMockerError.redirectLoop(nextHop.described)))
        }
        return .redirect(nextHop)
    }

    /// The request a client makes after a redirect: 301, 302 and 303 become a `GET` without a
    /// body (a `HEAD` stays a `HEAD`); 307 and 308 keep the method and the body.
    static func redirected(_ request: MockRequest, to url: URL, status: Int) -> MockRequest {
        guard status != 307, status != 308 else {
            return MockRequest(method: request.method, url: url, headers: request.headers, body: request.body)
        }
        var headers = request.headers
        for name in ["Content-Type", "Content-Length", "Content-Encoding", "Transfer-Encoding"] {
            headers.remove(name)
        }
        let method: HTTPMethod = request.method == .head ? .head : .get
        return MockRequest(method: method, url: url, headers: headers, body: nil)
    }
}

extension ResolvedOutcome {
    /// The delay, plus the time a throttled body takes, since a URL protocol hands the body
    /// over in one piece.
    var deliveryDelay: Duration {
        guard case .success(let response) = result else { return delay }
        return delay + response.transfer.duration(of: response.body.count)
    }

    var isStall: Bool {
        guard case .failure(let fault as ConnectionFault) = result else { return false }
        return fault.kind == .stall
    }
}
