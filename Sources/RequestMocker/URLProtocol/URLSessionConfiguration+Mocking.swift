extension URLSessionConfiguration {
    /// A copy of `base` whose requests are answered by `registry`.
    ///
    /// ```swift
    /// let session = URLSession(configuration: .mocking(registry))
    /// ```
    ///
    /// - Parameters:
    ///   - registry: the registry to answer from.
    ///   - base: the configuration to copy; `.ephemeral` by default, which keeps cookies from
    ///     `HTTPCookieStorage.shared` out of mocked requests.
    public static func mocking(
        _ registry: MockRegistry, basedOn base: URLSessionConfiguration = .ephemeral
    ) -> URLSessionConfiguration {
        let configuration = (base.copy() as? URLSessionConfiguration) ?? base
        configuration.insertMocking(registry)
        return configuration
    }

    /// Puts a protocol class of `registry` first in `protocolClasses`, replacing any other
    /// registry's class. Do this before creating the session: a session copies its configuration.
    ///
    /// The class knows this configuration's `timeoutIntervalForRequest` as it is now (set it
    /// first), so requests of its sessions time out as the platform's HTTP loader would time
    /// them out: after the request's `timeoutInterval` when it was set to something other than
    /// the 60 s default, and otherwise after the configuration's.
    public func insertMocking(_ registry: MockRegistry) {
        let others = (protocolClasses ?? []).filter { !($0 is MockURLProtocol.Type) }
        protocolClasses = [registry.protocolClass(for: self)] + others
    }
}
