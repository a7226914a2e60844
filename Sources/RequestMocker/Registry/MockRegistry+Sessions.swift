extension MockRegistry {
    /// A new session whose requests this registry answers.
    ///
    /// ```swift
    /// let registry = MockRegistry()
    /// let session = registry.makeSession()
    /// ```
    ///
    /// - Parameters:
    ///   - configuration: the configuration to copy; `.ephemeral` by default.
    ///   - delegate: the session delegate, if any.
    ///   - delegateQueue: the queue for delegate calls and completion handlers.
    public func makeSession(
        configuration: URLSessionConfiguration = .ephemeral,
        delegate: (any URLSessionDelegate)? = nil,
        delegateQueue: OperationQueue? = nil
    ) -> URLSession {
        URLSession(
            configuration: .mocking(self, basedOn: configuration), delegate: delegate, delegateQueue: delegateQueue)
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
        let made = makeSession()
        let (kept, isMade) = state.withLock { state in
            if let raced = state.session { return (raced, false) }
            state.session = made
            return (made, true)
        }
        if !isMade { made.invalidateAndCancel() }
        return kept
    }
}
