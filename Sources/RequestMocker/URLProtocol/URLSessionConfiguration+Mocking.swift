extension URLSessionConfiguration {
    /// A copy of `base` whose requests are answered by `registry`.
    ///
    /// ```swift
    /// let session = URLSession(configuration: .mocking(registry))
    /// ```
    ///
    /// The copy has no URL cache: a mocked answer is never stored in one (URL loading is told
    /// not to), and one stored by other sessions must not answer in the mock's place, so a
    /// lookup could only cost time, and FoundationNetworking's lists the cache's folder for
    /// every request (measured: about 55 µs of a mocked request's 135 µs).
    ///
    /// - Parameters:
    ///   - registry: the registry to answer from.
    ///   - base: the configuration to copy; `.ephemeral` by default, which keeps cookies from
    ///     `HTTPCookieStorage.shared` out of mocked requests. Its timeout and cookie settings
    ///     are read now (see ``insertMocking(_:)``): change them on `base`, not on the copy.
    public static func mocking(
        _ registry: MockRegistry, basedOn base: URLSessionConfiguration = .ephemeral
    ) -> URLSessionConfiguration {
        let configuration = (base.copy() as? URLSessionConfiguration) ?? base
        configuration.urlCache = nil
        configuration.insertMocking(registry)
        return configuration
    }

    /// Puts a protocol class of `registry` first in `protocolClasses`, replacing any other
    /// registry's class. Do this before creating the session: a session copies its configuration.
    ///
    /// The class knows this configuration's `timeoutIntervalForRequest` as it is now, so
    /// requests of its sessions time out as the platform's HTTP loader would time them out:
    /// after the request's `timeoutInterval` when it was set to something other than the 60 s
    /// default, and otherwise after the configuration's. It knows the cookie settings as they
    /// are now too (`httpCookieStorage`, `httpShouldSetCookies`, `httpCookieAcceptPolicy`),
    /// since a URL protocol can't see its session: mocked `Set-Cookie` fields are stored in
    /// that storage, and its cookies sent. Set these first, or call this again after changing
    /// them:
    ///
    /// ```swift
    /// let configuration = URLSessionConfiguration.ephemeral
    /// configuration.httpCookieStorage = appCookies
    /// configuration.insertMocking(registry)   // after the settings it reads
    /// let session = URLSession(configuration: configuration)
    /// ```
    public func insertMocking(_ registry: MockRegistry) {
        let others = (protocolClasses ?? []).filter { !($0 is MockURLProtocol.Type) }
        protocolClasses = [registry.protocolClass(for: self)] + others
    }
}
