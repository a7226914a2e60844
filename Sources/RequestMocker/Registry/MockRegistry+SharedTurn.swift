extension MockRegistry {
    /// Runs `body` in its turn at ``shared``: turns are handed out one at a time, first come
    /// first served, to every test in the process that uses the shared registry (the
    /// `.mockingShared` trait, and the package's own tests of it).
    package static func withSharedTurn<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await SharedTurns.take(body)
    }
}

/// The queue behind ``MockRegistry/withSharedTurn(_:)``.
private enum SharedTurns {
    private struct Queue: Sendable {
        var busy = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private static let queue = LockedState(Queue())

    static func take<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        await withCheckedContinuation { continuation in
            let now = queue.withLock { queue -> Bool in
                if queue.busy {
                    queue.waiting.append(continuation)
                    return false
                }
                queue.busy = true
                return true
            }
            if now { continuation.resume() }
        }
        defer {
            let next = queue.withLock { queue -> CheckedContinuation<Void, Never>? in
                if queue.waiting.isEmpty {
                    queue.busy = false
                    return nil
                }
                return queue.waiting.removeFirst()
            }
            next?.resume()
        }
        return try await body()
    }
}
