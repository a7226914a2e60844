import Testing

/// Hands out turns at ``MockRegistry/shared`` one at a time, first come first served.
enum SharedRegistryTurn {
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
