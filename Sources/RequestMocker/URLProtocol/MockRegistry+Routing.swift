extension MockRegistry {
    /// This registry's own `URLProtocol` subclass, to put first in a configuration's
    /// `protocolClasses`; requests through it are answered by this registry only.
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.protocolClasses = [registry.protocolClass] + (configuration.protocolClasses ?? [])
    /// ```
    ///
    /// ``makeSession(configuration:delegate:delegateQueue:)`` and
    /// `URLSessionConfiguration.mocking(_:)` do this for you. For ``shared`` it is
    /// ``MockURLProtocol`` itself.
    public var protocolClass: AnyClass {
        state.withLock { state in
            if let route = state.route { return route.protocolClass }
            let route = RouteTable.assign(self)
            state.route = route
            return route.protocolClass
        }
    }

    /// A protocol class of this registry that holds requests to `configuration`'s
    /// `timeoutIntervalForRequest` and cookie settings as they are now; one per timeout and
    /// cookie storage in use, released with the registry.
    func protocolClass(for configuration: URLSessionConfiguration) -> AnyClass {
        let key = SessionRouteKey(configuration)
        let jar = CookieJar(configuration)
        return state.withLock { state in
            for route in state.sessionRoutes[key] ?? [] where jar.map({ RouteTable.take(route, for: $0) }) ?? true {
                return route.protocolClass
            }
            let route = RouteTable.assign(self, sessionTimeout: key.timeout, cookies: jar)
            state.sessionRoutes[key, default: []].append(route)
            return route.protocolClass
        }
    }
}

/// What a session route is kept for: the timeout and cookie flags (the storage itself is
/// matched by its slot, see ``RouteTable/take(_:for:)``).
struct SessionRouteKey: Hashable, Sendable {
    let timeout: TimeInterval
    let hasCookieStorage: Bool
    let acceptsCookies: Bool
    let sendsCookies: Bool

    init(_ configuration: URLSessionConfiguration) {
        timeout = configuration.timeoutIntervalForRequest
        hasCookieStorage = configuration.httpCookieStorage != nil
        acceptsCookies = configuration.httpCookieAcceptPolicy != .never
        sendsCookies = configuration.httpShouldSetCookies
    }
}
