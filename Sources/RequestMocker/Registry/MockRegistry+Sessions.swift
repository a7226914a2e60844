extension MockRegistry {
    /// A new session whose requests this registry answers.
    ///
    /// ```swift
    /// let registry = MockRegistry()
    /// let session = registry.makeSession()
    /// ```
    ///
    /// The session keeps the registry alive, so a helper may return the session alone; the
    /// registry goes when the session does (once it is invalidated and released), with no
    /// cycle between them. It keeps it through the session's delegate queue, or, when you give
    /// a queue, through its delegate; when you give both, keep the registry yourself (a request
    /// to a released registry fails with ``RequestMockerError/registryReleased(request:)``).
    ///
    /// - Parameters:
    ///   - configuration: the configuration to copy; `.ephemeral` by default.
    ///   - delegate: the session delegate, if any.
    ///   - delegateQueue: the queue for delegate calls and completion handlers; a serial one of
    ///     the session's own by default.
    public func makeSession(
        configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        var queue = delegateQueue
        var sessionDelegate = delegate
        if queue == nil {
            queue = RegistryKeepingQueue(keeping: self)
        } else if sessionDelegate == nil {
            sessionDelegate = RegistryKeepingDelegate(keeping: self)
        }
        return URLSession(
            configuration: .mocking(self, basedOn: configuration), delegate: sessionDelegate, delegateQueue: queue)
    }

    /// A session whose requests this registry answers, made on first use and kept for the
    /// registry's lifetime (it is invalidated when the registry goes away). Hand it to the code
    /// under test.
    ///
    /// ```swift
    /// let registry = MockRegistry()
    /// registry.register(.get("/users/7"), respond: .json(["id": 7]))
    /// let client = UsersClient(session: registry.session)
    /// ```
    ///
    /// It is an `.ephemeral` session with no delegate; for another configuration or a
    /// delegate, use ``makeSession(configuration:delegate:delegateQueue:)``.
    public var session: URLSession {
        if let existing = state.withLock({ $0.session }) { return existing }
        // Made outside the lock: making a session takes FoundationNetworking's locks, and
        // `protocolClass` takes this registry's.
        // Not through `makeSession()`: this session must not keep the registry that keeps it.
        let made = URLSession(configuration: .mocking(self))
        let (kept, isMade) = state.withLock { state in
            if let raced = state.session { return (raced, false) }
            state.session = made
            return (made, true)
        }
        if !isMade { made.invalidateAndCancel() }
        return kept
    }
}

/// A session's serial delegate queue that holds its registry, so the registry lives as long as
/// the session (a `URLSession` holds its queue until it goes).
private final class RegistryKeepingQueue: OperationQueue, @unchecked Sendable {
    // @unchecked Sendable: `registry` is a constant reference to a Sendable value.
    let registry: MockRegistry

    init(keeping registry: MockRegistry) {
        self.registry = registry
        super.init()
        maxConcurrentOperationCount = 1
    }
}

/// A session delegate that does nothing but hold its registry (a `URLSession` holds its
/// delegate until it is invalidated).
private final class RegistryKeepingDelegate: NSObject, URLSessionDelegate, @unchecked Sendable {
    // @unchecked Sendable: `registry` is a constant reference to a Sendable value.
    let registry: MockRegistry

    init(keeping registry: MockRegistry) {
        self.registry = registry
    }
}
