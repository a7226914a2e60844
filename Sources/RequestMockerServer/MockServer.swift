import Foundation
import RequestMocker

/// A real HTTP/1.1 server on loopback that answers from a ``MockRegistry``, for clients that
/// don't use `URLSession`: other processes, `curl`, AsyncHTTPClient, an app pointed at a local
/// backend that isn't built yet.
///
/// Everything a registry does through ``MockURLProtocol`` it does here too: filters, mock-data
/// folders, cassettes, the journal and the unmatched policy. What the URL protocol can only
/// imitate happens for real on the wire: delays, bandwidth limits
/// (``MockResponse/throttled(bytesPerSecond:)``), bodies cut short
/// (``MockResponse/truncated(afterBytes:)``) and ``ConnectionFault``s.
///
/// ```swift
/// let registry = MockRegistry()
/// registry.register(.get("/users/<id>"), respond: .json(["id": 7, "name": "Ada"]))
/// let server = MockServer(registry: registry)
/// let baseURL = try server.start()              // http://127.0.0.1:<free port>
/// defer { server.stop() }
/// // curl \(baseURL)/users/7   ->   {"id":7,"name":"Ada"}
/// ```
///
/// ## How it answers
/// - A request no source answers gets `404` with the unmatched-request report as its
///   `text/plain` body (under ``UnmatchedRequestPolicy/fail``); a mistake in the mocks
///   (an unreadable file, an invalid pattern, a block that threw) gets `500` with the reason.
/// - A response that is an error resets the connection; ``MockResponse/fault(_:)`` picks
///   another way to break it.
/// - Redirects are sent to the client as they are (a real server doesn't follow them).
/// - The status line carries the response's HTTP version when it is `HTTP/1.0` or `HTTP/1.1`
///   (anything else is written as `HTTP/1.1`); after an `HTTP/1.0` response the connection
///   closes. `Content-Length` frames every body; `Transfer-Encoding` and `Connection` from a
///   response are not sent.
/// - Pass-through and recording forward to the host in the request's `Host` header; a request
///   whose host is this server itself gets `502` instead of looping.
///
/// ## Limits
/// Each connection has its own thread, so a slow or broken client only blocks itself. Request
/// lines over ``Configuration/maximumRequestLineLength`` get `414`, heads over
/// ``Configuration/maximumHeaderSize`` `431`, bodies over ``Configuration/maximumBodySize``
/// `413`, malformed requests `400`; clients that stall mid-request get `408` after
/// ``Configuration/requestTimeout``, and idle keep-alive connections close after
/// ``Configuration/idleTimeout``.
///
/// A running server keeps itself alive: call ``stop()`` when done (not from inside a response
/// block, which runs on one of the server's own threads).
public final class MockServer: Sendable {
    /// Where the server listens and how much it accepts.
    public struct Configuration: Sendable {
        /// The address to bind: `127.0.0.1` unless another is asked for explicitly
        /// (`"::1"`, `"0.0.0.0"` to be reachable from other machines).
        public var host = "127.0.0.1"
        /// The port; 0 (the default) lets the system pick a free one, reported by ``MockServer/baseURL``.
        public var port: UInt16 = 0
        /// The longest request line; longer gets `414 URI Too Long`.
        public var maximumRequestLineLength = 8 * 1024
        /// The largest request head (request line and header fields); larger gets
        /// `431 Request Header Fields Too Large`.
        public var maximumHeaderSize = 64 * 1024
        /// The largest request body; larger gets `413 Content Too Large`.
        public var maximumBodySize = 16 * 1024 * 1024
        /// How long a kept-alive connection may wait for its next request. When the server is full,
        /// the connection that has waited longest is closed to make room for a new one.
        public var idleTimeout: Duration = .seconds(30)
        /// How long a request's head (request line and header fields) may take to arrive once its
        /// first byte did; slower gets `408`, so clients that trickle heads can't hold slots.
        public var requestHeadTimeout: Duration = .seconds(10)
        /// How long a whole request, body included, may take to arrive once its first byte did;
        /// slower gets `408`.
        public var requestTimeout: Duration = .seconds(30)
        /// How long the answer may take to be ready (an `async` or slow block, a forward): past
        /// it the client gets `504` and the connection closes. A client that leaves meanwhile
        /// frees its connection at once. Delays set on a response are not counted.
        public var responseTimeout: Duration = .seconds(60)
        /// How long a write may wait for a client that doesn't read.
        public var sendTimeout: Duration = .seconds(30)
        /// Connections served at once. When all are taken, a new connection closes the one that
        /// has been idle longest (or, failing that, the one that has spent longest sending a
        /// head); when every one is busy answering, it is answered `503` and closed.
        public var maximumConnections = 1024
        /// The timeout for pass-through and recording requests to the real server.
        public var forwardingTimeout: TimeInterval = 60
        /// Where requests the registry passes through or records go: `nil` sends each to its
        /// own URL (the `Host` it names, or an absolute target, as to a proxy); a URL sends it
        /// there instead, with its path and query appended to the URL's path and `Host`
        /// rewritten. The body is relayed as it arrives. Set it with the registry's
        /// ``UnmatchedRequestPolicy/passThrough`` to stand in front of a development server:
        ///
        /// ```swift
        /// let registry = MockRegistry(unmatchedPolicy: .passThrough)
        /// registry.register(.get("/users/<id>"), respond: .json(["id": 7]))
        /// var configuration = MockServer.Configuration()
        /// configuration.upstream = URL(string: "http://localhost:3000/api")
        /// let server = MockServer(registry: registry, configuration: configuration)
        /// ```
        public var upstream: URL?
        /// Whether, without an ``upstream``, what the registry passes through goes to the
        /// network: to the `Host` the request names, or its absolute target, as a proxy sends it.
        /// `false` answers it `502` with ``RequestMockerError/passThroughNeedsUpstream(request:)``,
        /// so nothing leaves the machine; `request-mocker serve` sets that without `--upstream`.
        ///
        /// ```swift
        /// var configuration = MockServer.Configuration()
        /// configuration.passesThroughToTheNetwork = false
        /// ```
        public var passesThroughToTheNetwork = true
        /// The admin API under `/__admin/`, and the dashboard page at `/__admin/` (see
        /// ``MockServer/Admin``): `nil`, the default, turns both off, and `/__admin/` paths go to
        /// the registry like any other.
        public var admin: Admin?

        /// The defaults: loopback, any free port.
        public init() {}

        /// The defaults, on another port or address.
        public init(host: String = "127.0.0.1", port: UInt16 = 0) {
            self.host = host
            self.port = port
        }
    }

    /// The admin API's settings: a test in another process (an XCUITest, through
    /// `MockServerClient`) adds and removes stubs and reads the journal over HTTP.
    ///
    /// ```swift
    /// var configuration = MockServer.Configuration()
    /// configuration.admin = MockServer.Admin()   // loopback: no token needed
    /// let server = MockServer(registry: registry, configuration: configuration)
    /// let client = MockServerClient(baseURL: try server.start())
    /// ```
    ///
    /// On an address other than loopback the API needs a token, sent by clients as
    /// `Authorization: Bearer TOKEN`; without one, ``start()`` throws
    /// ``MockServerError/adminNeedsToken(host:)``. A web page the developer visits can't use it:
    /// calls must name a loopback host or the server's address (or carry the token), come from
    /// no page but the dashboard, and, to change anything, be sent as `application/json` (or with
    /// the token).
    ///
    /// The dashboard (`GET /__admin/` in a browser) shows each exchange as it ends, with its
    /// details, and steers the server: "mock this", stubs turned off and on, scenarios.
    public struct Admin: Sendable {
        /// The bearer token every admin call must carry, or `nil` for none (loopback only).
        public var token: String?
        /// The mock-data folder the dashboard's "mock this" writes a file into, under the
        /// request's mock-data name; `nil` offers a stub only.
        public var mockDataFolder: URL?

        /// Admin settings, with the token clients must send, if any, and the folder "mock this"
        /// writes into.
        public init(token: String? = nil, mockDataFolder: URL? = nil) {
            self.token = token
            self.mockDataFolder = mockDataFolder
        }
    }

    /// The registry every request is answered from.
    public let registry: MockRegistry
    /// The stubs added through the admin API, and a stubs file's.
    package let stubStore: StubStore
    /// The exchanges the dashboard shows, kept when the admin API is on.
    package let dashboard: DashboardFeed?
    /// Carries what is forwarded to a plain-HTTP upstream, over kept connections.
    private let relay: PlainHTTPRelay?
    /// The settings this server was created with.
    public let configuration: Configuration
    let onRequest: (@Sendable (ServedRequest) -> Void)?

    private enum Phase: Sendable {
        case idle
        case running(SocketPool, URL)
        case stopped
    }

    private let phase = LockedState(Phase.idle)

    /// Marks requests this server forwards (pass-through, recording), to recognise them if
    /// they come back.
    static let forwardedByHeader: HTTPHeaders.Name = "X-RequestMocker-Forwarded-By"
    let identity = UUID().uuidString

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// - Parameters:
    ///   - registry: where answers come from; a new, empty registry by default.
    ///   - configuration: address, port and limits.
    ///   - onRequest: called once per request when it is done, on the connection's thread; keep
    ///     it quick. The `request-mocker` command prints ``ServedRequest/description``.
    public init(
        registry: MockRegistry = MockRegistry(),
        configuration: Configuration = Configuration(),
        onRequest: (@Sendable (ServedRequest) -> Void)? = nil
    ) {
        self.registry = registry
        self.configuration = configuration
        self.onRequest = onRequest
        stubStore = StubStore(registry: registry)
        dashboard = configuration.admin == nil ? nil : DashboardFeed()
        relay = configuration.upstream.flatMap(PlainHTTPRelay.init(upstream:))
    }

    /// Binds and starts listening; returns once connections are accepted.
    ///
    /// - Returns: the base URL, such as `http://127.0.0.1:50412`.
    /// - Throws: ``MockServerError/cannotListen(host:port:reason:)`` when the address can't be
    ///   bound, ``MockServerError/alreadyStarted`` on a second call.
    @discardableResult
    public func start() throws(MockServerError) -> URL {
        if let admin = configuration.admin, admin.token?.isEmpty ?? true, !Self.isLoopback(configuration.host) {
            throw .adminNeedsToken(host: configuration.host)
        }
        let pool: SocketPool
        do {
            pool = try SocketPool(name: "MockServer")
        } catch {
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: error.description)
        }
        let claimed = phase.withLock { phase -> Bool in
            guard case .idle = phase else { return false }
            phase = .running(pool, URL(fileURLWithPath: "/"))
            return true
        }
        guard claimed else { throw .alreadyStarted }
        let address: (host: String, port: UInt16)
        do {
            address = try pool.listen(
                host: configuration.host,
                port: configuration.port,
                maximumConnections: configuration.maximumConnections,
                overflow: { socket in
                    try? socket.write(
                        ResponseHead.plain(
                            status: .serviceUnavailable, message: "the server is at its limit of connections",
                            closing: true))
                    // Briefly: this runs on the accept thread.
                    socket.shutdownWrite()
                    socket.drain(for: .milliseconds(50))
                },
                handler: { [self] connection in
                    var handler = HTTPConnection(connection: connection, server: self)
                    handler.run()
                }
            )
        } catch {
            phase.withLock { $0 = .stopped }
            pool.stop()
            throw .cannotListen(host: configuration.host, port: configuration.port, reason: error.description)
        }
        let host = address.host.bracketedIfIPv6
        let url = URL(string: "http://\(host):\(address.port)") ?? URL(fileURLWithPath: "/")
        // A `stop()` that came in meanwhile wins.
        let running = phase.withLock { phase -> Bool in
            guard case .running = phase else { return false }
            phase = .running(pool, url)
            return true
        }
        guard running else {
            pool.stop()
            throw .cannotListen(
                host: configuration.host, port: configuration.port, reason: "the server was stopped while starting")
        }
        return url
    }

    /// `http://<address>:<port>` while running; `nil` before ``start()`` and after ``stop()``.
    public var baseURL: URL? {
        phase.withLock { phase in
            if case .running(_, let url) = phase { url } else { nil }
        }
    }

    /// The port while running.
    public var port: UInt16? {
        baseURL?.port.map { UInt16($0) }
    }

    /// How many connections are open right now.
    public var connectionCount: Int {
        phase.withLock { phase in
            if case .running(let pool, _) = phase { pool.connectionCount } else { 0 }
        }
    }

    /// For tests: how many connections would give way to a new one now, by what they are doing.
    package var connectionsGivingWay: (idle: Int, readingHead: Int) {
        phase.withLock { phase in
            if case .running(let pool, _) = phase { pool.givingWay } else { (0, 0) }
        }
    }

    /// Closes the listener and every connection (responses in progress are cut off) and
    /// returns when all of the server's threads have ended. Safe to call more than once.
    public func stop() {
        let pool = phase.withLock { phase -> SocketPool? in
            defer { phase = .stopped }
            if case .running(let pool, _) = phase { return pool }
            return nil
        }
        relay?.stop()
        pool?.stop()
        relay?.closeIdle()
    }

    /// The most synchronous blocks (`register(_:respond:)` with a throwing, non-`async` block) a
    /// server runs at once, each on a thread of its own; a request that would start another gets
    /// `503`. A block that never returns keeps its place, so make slow blocks `async`.
    ///
    /// ```swift
    /// print(MockServer.maximumRunningBlocks)  // 64
    /// ```
    public static var maximumRunningBlocks: Int { SocketPool.maximumBlockThreads }

    /// How this server forwards: marked with its identity, and never to itself.
    var forwarding: Forwarding {
        var forwarding = Forwarding(
            timeout: configuration.forwardingTimeout,
            mark: HTTPHeaders.Field(name: Self.forwardedByHeader, value: identity),
            loopsBack: { [weak self] url in self?.isSelf(url) ?? false }
        )
        forwarding.runsBlocksOnTheirOwnThread = true
        forwarding.streamsBodies = true
        forwarding.upstream = configuration.upstream
        forwarding.reachesTheNetwork = configuration.passesThroughToTheNetwork
        forwarding.relay = relay
        return forwarding
    }

    /// Whether `host` (a name or an address, IPv6 in brackets or not) is one only this machine
    /// reaches: `localhost`, `::1`, or an IPv4 address in 127.0.0.0/8.
    package static func isLoopback(_ host: String) -> Bool {
        var bare = Substring(host.lowercased())
        if bare.hasPrefix("["), bare.hasSuffix("]") { bare = bare.dropFirst().dropLast() }
        if bare == "localhost" || bare == "::1" || bare == "0:0:0:0:0:0:0:1" { return true }
        let octets = bare.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets.first == "127"
            && octets.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && UInt8($0) != nil }
    }

    /// Whether `url` points at this server itself (a pass-through there would loop).
    func isSelf(_ url: URL) -> Bool {
        guard let base = baseURL, let port = url.port ?? (url.scheme == "http" ? 80 : nil), port == base.port else {
            return false
        }
        let host = url.host?.lowercased() ?? ""
        let loopback: Set<String> = ["localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0"]
        return host == base.host?.lowercased() || loopback.contains(host)
    }
}
