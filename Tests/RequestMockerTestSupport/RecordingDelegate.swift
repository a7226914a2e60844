import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A data-task delegate that records every callback, for the delegate-based tests.
package final class RecordingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    // @unchecked Sendable: every stored property is guarded by `lock`.
    package typealias Outcome = (response: URLResponse?, data: Data, error: (any Error)?)
    private let lock = NSLock()
    private var responses: [URLResponse] = []
    private var chunks: [Data] = []
    private var arrivals: [ContinuousClock.Instant] = []
    private var continuation: CheckedContinuation<Outcome, Never>?
    private var result: Outcome?

    package func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { responses.append(response) }
        completionHandler(.allow)
    }

    package func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.withLock {
            chunks.append(data)
            arrivals.append(.now)
        }
    }

    package func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (continuation, value) = lock.withLock { () -> (CheckedContinuation<Outcome, Never>?, Outcome) in
            let value: Outcome = (responses.last, chunks.reduce(Data(), +), error)
            result = value
            defer { self.continuation = nil }
            return (self.continuation, value)
        }
        continuation?.resume(returning: value)
    }

    /// Waits for `didCompleteWithError` of `task`, at most `seconds`: past that (or when the
    /// waiting test is cancelled, by its time limit) the task is cancelled, which completes it
    /// through the session's own path, so the wait always ends. A task that still doesn't
    /// complete a minute after its cancel ends the wait with an outcome whose error is
    /// ``TimedOut``.
    package func completion(of task: URLSessionTask, within seconds: Double = 120) async -> Outcome {
        let giveUp: @Sendable () -> Void = { [weak self] in
            self?.finish(with: TimedOut(seconds: seconds + 60, waitingFor: "\(task) to complete after its cancel"))
        }
        let cancel: @Sendable () -> Void = {
            task.cancel()
            DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: giveUp)
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in
            if self?.hasCompleted == false { cancel() }
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let ready = lock.withLock { () -> Outcome? in
                    if let result { return result }
                    self.continuation = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            cancel()
        }
    }

    private var hasCompleted: Bool { lock.withLock { result != nil } }

    private func finish(with error: any Error) {
        let (continuation, value) = lock.withLock { () -> (CheckedContinuation<Outcome, Never>?, Outcome?) in
            guard result == nil else { return (nil, nil) }
            let value: Outcome = (responses.last, chunks.reduce(Data(), +), error)
            result = value
            defer { self.continuation = nil }
            return (self.continuation, value)
        }
        if let value { continuation?.resume(returning: value) }
    }

    package var responseCount: Int { lock.withLock { responses.count } }

    /// Each `didReceive(data)` call's bytes and when it came, in order.
    package var receivedPieces: [(data: Data, at: ContinuousClock.Instant)] {
        lock.withLock { Array(zip(chunks, arrivals)).map { (data: $0.0, at: $0.1) } }
    }
}
