/// One request's way through a registry for ``MockURLProtocol``: the registry's outcome,
/// carried as URL loading expects it, with redirects followed here (FoundationNetworking traps
/// when a protocol reports one).
///
/// A ready outcome without a wait is answered synchronously, inside `startLoading`; delays,
/// `async` blocks, forwarding, and answers that take time to make (synchronous blocks, a
/// contract's generated bodies, mock-data files not read yet) hand back the rest of the work as
/// an `async` closure, so that nothing slow runs on URL loading's queue.
struct Exchange: Sendable {
    enum Step: Sendable {
        case finished(Delivery)
        /// The rest of the work, as a task runs it; and, for an answer made on a thread of its
        /// own, how that thread may settle it without a task.
        case deferred(@Sendable () async -> Delivery, onThread: OnThread?)
    }

    /// An answer being made on a thread of its own, and what settles it there once made: the
    /// step that follows an outcome that needs no waiting (its delivery, or the next hop of a
    /// redirect), or `nil` for one that waits (a delay, a stall, an `async` block it returned),
    /// which a task then awaits. Settled on the thread, a synchronous block's answer takes no
    /// turn of Swift's cooperative pool, whose threads every test of a process shares.
    struct OnThread: Sendable {
        let making: Making
        let settle: @Sendable (Outcome) -> Step?
    }

    let registry: MockRegistry
    let forwarding: Forwarding
    /// Where the session keeps cookies, when its configuration is known: each response's
    /// `Set-Cookie` goes there, a redirect's included, and the request after a redirect carries
    /// the cookies stored for its URL.
    let cookies: CookieJar?
    /// Told each hop's journal entry as the registry writes it.
    let noteEntry: @Sendable (JournalEntry) -> Void

    init(
        registry: MockRegistry, timeout: TimeInterval, cookies: CookieJar? = nil,
        noteEntry: @escaping @Sendable (JournalEntry) -> Void = { _ in }
    ) {
        self.registry = registry
        var forwarding = Forwarding(timeout: timeout)
        // Asked on URL loading's one queue: what takes time is made elsewhere (see
        // `Forwarding.makesSlowAnswersElsewhere`).
        forwarding.runsBlocksOnTheirOwnThread = true
        forwarding.makesSlowAnswersElsewhere = true
        self.forwarding = forwarding
        self.cookies = cookies
        self.noteEntry = noteEntry
    }

    /// Where a request stands in a chain of redirects: the current request and the ones that
    /// led to it (none, for nearly every request, which then allocates no array).
    struct Hop: Sendable {
        var request: MockRequest
        var earlier: [MockRequest] = []
        /// Whether the filter that answered this hop follows its redirects (`nil`: as the
        /// registry says).
        var follows: Bool?

        var chain: [MockRequest] { earlier + [request] }

        var described: [String] { chain.map(\.description) }
    }

    func start(_ request: MockRequest) -> Step {
        advance(Hop(request: request))
    }

    private func advance(_ start: Hop) -> Step {
        var hop = start
        while true {
            let (pending, entry) = registry.answer(hop.request, forwarding: forwarding)
            noteEntry(entry)
            hop.follows = entry.filter?.followsRedirects
            guard case .ready(let outcome) = pending, outcome.wait == .zero, !outcome.isStall else {
                let current = hop
                let followed = LockedState<Step?>(nil)
                let making = Making(pending)
                let onThread =
                    making.isOnThread
                    ? OnThread(making: making) { outcome in settle(outcome, at: current, followed: followed) } : nil
                return .deferred({ await finish(making, at: current, followed: followed) }, onThread: onThread)
            }
            switch next(after: outcome, at: hop) {
            case .done(let delivery): return .finished(delivery)
            case .redirect(let nextHop): hop = nextHop
            }
        }
    }

    /// Waits for the outcome and then for its delay, then delivers it or follows its redirect.
    ///
    /// The work runs again when a suspended task resumes (a block's or a pass-through's work
    /// too), but the hop after a redirect is asked of the registry once (`followed` keeps it),
    /// so it is neither journaled twice nor takes a sequence's turn twice. A cancelled run
    /// (cancelled or suspended task) stops after its wait: it neither stores the answer's
    /// cookies nor asks for a next hop.
    private func finish(_ making: Making, at hop: Hop, followed: LockedState<Step?>) async -> Delivery {
        let outcome = await making.outcome
        if outcome.isStall {
            // Only the request's timeout (or cancelling it) ends a stall.
            try? await Task.sleep(for: MockResponse.longestDelay)
            return .failure(URLError(Task.isCancelled ? .cancelled : .timedOut))
        }
        if outcome.wait > .zero {
            do {
                try await Task.sleep(for: outcome.wait)
            } catch {
                return .failure(URLError(.cancelled))
            }
        }
        // A block that ignored the cancel returns here anyway; what it returned goes nowhere.
        guard !Task.isCancelled else { return .failure(URLError(.cancelled)) }
        switch followUp(outcome, at: hop, followed: followed) {
        case .finished(let delivery): return delivery
        case .deferred(let work, _): return await work()
        }
    }

    /// The step after an outcome that needs no waiting, decided on the thread that made it
    /// (see ``OnThread``), or `nil` when it waits: then the task's run settles it.
    private func settle(_ outcome: Outcome, at hop: Hop, followed: LockedState<Step?>) -> Step? {
        guard outcome.wait == .zero, !outcome.isStall else { return nil }
        return followUp(outcome, at: hop, followed: followed)
    }

    /// The delivery an outcome makes, or the next hop of the redirect it is.
    private func followUp(_ outcome: Outcome, at hop: Hop, followed: LockedState<Step?>) -> Step {
        switch next(after: outcome, at: hop) {
        case .done(let delivery):
            return .finished(delivery)
        case .redirect(let nextHop):
            // Decided under the memo's lock, so a cancelled run still inside `advance`, the run
            // that resumed the task and the thread that settles can't ask the registry twice.
            // (Nothing else takes this lock, and `advance` takes none that is held while this
            // one is taken.)
            return followed.withLock { known -> Step in
                if let known { return known }
                let step = advance(nextHop)
                known = step
                return step
            }
        }
    }

    /// An outcome being waited for: blocking work (a synchronous block, an answer made off URL
    /// loading's queue) is started on a thread of its own as soon as the request is decided, not
    /// when a task of Swift's cooperative pool gets to it, so that it is made even while the pool
    /// is busy (and a reader waiting for a journal entry's answer never waits on the pool). It
    /// runs once, however often the task is suspended and resumed: every run awaits the same
    /// result. A block that returns a block is run on to the end on the same thread. What that
    /// work hands on (an `async` block it returned) runs again on each run, as an `async`
    /// block's work does.
    struct Making: Sendable {
        private let pending: PendingOutcome
        private let made: MadeOnce?

        init(_ pending: PendingOutcome) {
            self.pending = pending
            guard case .blocking(let work) = pending else {
                made = nil
                return
            }
            let made = MadeOnce()
            OwnThread.start {
                var next = work()
                while case .blocking(let more) = next { next = more() }
                made.set(next)
            }
            self.made = made
        }

        var outcome: Outcome {
            get async {
                guard let made else { return await pending.value }
                return await made.value.value
            }
        }

        /// Whether the work runs on a thread of its own (blocking work), where ``whenMade(_:)``
        /// may settle it.
        var isOnThread: Bool { made != nil }

        /// Calls `action` with what the work made, on its thread once it is made (at once, here,
        /// if it is made already). Nothing happens for work that isn't made on a thread.
        func whenMade(_ action: @escaping @Sendable (PendingOutcome) -> Void) {
            made?.whenMade(action)
        }
    }

    /// What blocking work made, once it is made; awaited by every run of the task.
    final class MadeOnce: Sendable {
        private struct State {
            var made: PendingOutcome?
            var waiting: [CheckedContinuation<PendingOutcome, Never>] = []
            var actions: [@Sendable (PendingOutcome) -> Void] = []
        }
        private let state = LockedState(State())

        func set(_ made: PendingOutcome) {
            let (waiting, actions) = state.withLock { state in
                state.made = made
                defer {
                    state.waiting = []
                    state.actions = []
                }
                return (state.waiting, state.actions)
            }
            for continuation in waiting { continuation.resume(returning: made) }
            for action in actions { action(made) }
        }

        func whenMade(_ action: @escaping @Sendable (PendingOutcome) -> Void) {
            let made = state.withLock { state in
                if state.made == nil { state.actions.append(action) }
                return state.made
            }
            if let made { action(made) }
        }

        var value: PendingOutcome {
            get async {
                await withCheckedContinuation { continuation in
                    let made = state.withLock { state in
                        if state.made == nil { state.waiting.append(continuation) }
                        return state.made
                    }
                    if let made { continuation.resume(returning: made) }
                }
            }
        }
    }

    private enum Next {
        case done(Delivery)
        case redirect(Hop)
    }

    /// Whether a client follows this status to the `Location` it is given (301, 302, 303, 307,
    /// 308). A switch, not a set: it is asked of every response.
    static func isFollowedRedirect(_ status: HTTPStatus) -> Bool {
        switch status {
        case .movedPermanently, .found, .seeOther, .temporaryRedirect, .permanentRedirect: true
        default: false
        }
    }

    /// The outcome as URL loading delivers it (see ``Outcome``), or the redirect
    /// to follow.
    private func next(after outcome: Outcome, at hop: Hop) -> Next {
        let response: ResolvedResponse
        switch outcome.result {
        case .fault(let fault): return .done(.failure(fault.urlError(for: hop.request.url)))
        case .error(let error): return .done(.failure(error))
        case .refusal(let refusal): return .done(.failure(refusal.error))
        case .webSocket:
            return .done(.failure(RequestMockerError.webSocketNeedsServer(request: hop.request.description)))
        case .response(let resolved): response = resolved
        }
        cookies?.store(response.headers, from: hop.request.url)
        // The registry's setting is read only for a redirect: it takes the registry's lock.
        guard Self.isFollowedRedirect(response.status), hop.follows ?? registry.followsRedirects else {
            return .done(.response(response, url: hop.request.url))
        }
        let location = response.headers[.location]
        guard let location, let url = URL(string: location, relativeTo: hop.request.url)?.absoluteURL,
            let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host != nil
        else {
            return .done(
                .failure(RequestMockerError.invalidRedirect(location: location, request: hop.request.description)))
        }
        var request = Self.redirected(hop.request, to: url, status: response.status)
        // As the platform's loader prepares the next request: the stored cookies for its URL
        // replace the field.
        if let cookie = cookies?.field(for: url) { request = request.replacing(.cookie, with: cookie) }
        let isLoop = hop.chain.contains { $0.method == request.method && $0.url == request.url }
        let nextHop = Hop(request: request, earlier: hop.chain)
        guard nextHop.chain.count <= MockRegistry.maximumRedirects + 1 else {
            return .done(
                .failure(
                    RequestMockerError.tooManyRedirects(limit: MockRegistry.maximumRedirects, chain: nextHop.described))
            )
        }
        guard !isLoop else {
            return .done(.failure(RequestMockerError.redirectLoop(nextHop.described)))
        }
        return .redirect(nextHop)
    }

    /// The request URL loading makes after a redirect: the method and body as the platform's
    /// own HTTP loader changes them (``URLLoadingRules/redirect(_:status:)``), `Host` and
    /// `Content-Length` for the new URL and body, and, on a hop to another origin (scheme, host
    /// or port), without `Authorization`, `Proxy-Authorization` and `Cookie`, as curl and
    /// browsers do. (FoundationNetworking 6.3.1 sends those on to any host: measured, and left
    /// behind here on purpose.)
    static func redirected(_ request: MockRequest, to url: URL, status: HTTPStatus) -> MockRequest {
        let rule = URLLoadingRules.redirect(request.method, status: status)
        var dropped: [HTTPHeaders.Name] = [.host] + HTTPHeaders.Name.framing
        if !rule.keepsBody { dropped += [.contentEncoding] }
        if rule.dropsBodyFields { dropped += [.contentType, "Content-Language", .contentLocation] }
        if !Self.sameOrigin(request.url, url) { dropped += [.authorization, "Proxy-Authorization", .cookie] }
        let body = rule.keepsBody ? request.body : nil
        let headers = MockRequest.withWireFields(
            request.headers.removing(dropped), method: rule.method, url: url, body: body, bodyHidden: false)
        return MockRequest(method: rule.method, url: url, headers: headers, body: body)
    }

    /// Whether two URLs share scheme, host and port (the port a scheme implies counts).
    static func sameOrigin(_ a: URL, _ b: URL) -> Bool {
        func origin(_ url: URL) -> (String, String, Int?) {
            (url.scheme?.lowercased() ?? "", url.host?.lowercased() ?? "", url.port ?? MockRequest.defaultPort(of: url))
        }
        return origin(a) == origin(b)
    }
}

extension Outcome {
    /// How long the URL protocol waits before it delivers: the delay, plus the time a
    /// throttled body takes, since a URL protocol hands the body over in one piece.
    var wait: Duration {
        guard case .response(let response) = result else { return delay }
        return delay + response.transfer.duration(of: response.body.count ?? 0)
    }

    var isStall: Bool {
        if case .fault(let fault) = result { fault.kind == .stall } else { false }
    }
}
