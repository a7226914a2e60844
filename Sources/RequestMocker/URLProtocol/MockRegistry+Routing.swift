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
    /// `timeoutIntervalForRequest` as it is now; one per timeout, released with the registry.
    func protocolClass(for configuration: URLSessionConfiguration) -> AnyClass {
        let timeout = configuration.timeoutIntervalForRequest
        return state.withLock { state in
            if let route = state.sessionRoutes[timeout] { return route.protocolClass }
            let route = RouteTable.assign(self, sessionTimeout: timeout)
            state.sessionRoutes[timeout] = route
            return route.protocolClass
        }
    }
}
