import Foundation
import RequestMocker

/// The bytes of bodies being copied aside for checks, across every connection: at most
/// ``limit`` at once.
final class KeptBytes: Sendable {
    let limit: Int
    private let held = LockedState(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Whether `count` more may be kept; if so, they are counted.
    func take(_ count: Int) -> Bool {
        held.withLock { held in
            guard held + count <= limit else { return false }
            held += count
            return true
        }
    }

    func give(_ count: Int) {
        held.withLock { $0 -= count }
    }
}

/// A relayed body on its way to the client, copied aside for `serve --upstream-first`'s check. A
/// JSON body is kept up to ``UpstreamFirst/maximumCheckedBody`` (and while the bodies kept on
/// every connection stay within their ``KeptBytes``) and submitted when it ends; any other is
/// submitted at its first piece, since only its presence and media type are checked (an event
/// stream may never end). The first of these submits the exchange, once: the end, a failure, the
/// client leaving, the copy outgrowing a bound, or the body dropped unread.
final class CheckedBody: Sendable {
    private struct State: Sendable {
        var kept = Data()
        var submitted = false
    }

    private let state = LockedState(State())
    private let keepsWhole: Bool
    private let budget: KeptBytes
    /// Takes the body to check (empty to check the status and headers only) and why it isn't the
    /// whole body, when it isn't.
    private let submit: @Sendable (_ body: Data, _ unchecked: String?) -> Void

    init(
        keepsWhole: Bool, budget: KeptBytes, submit: @escaping @Sendable (_ body: Data, _ unchecked: String?) -> Void
    ) {
        self.keepsWhole = keepsWhole
        self.budget = budget
        self.submit = submit
    }

    /// `stream`, each piece passed on as it comes and seen on the way.
    func relay(_ stream: BodyStream) -> BodyStream {
        BodyStream(
            expectedLength: stream.expectedLength,
            pull: { wait in
                let next = stream.next(waitingAtMost: wait)
                switch next {
                case .bytes(let piece): self.received(piece)
                case .end: self.finish(nil)
                case .failed(let error): self.finish("it broke off: \(error.localizedDescription)")
                case .pending: break
                }
                return next
            },
            onCancel: {
                stream.cancel()
                self.finish("the client left before its end")
            })
    }

    private func received(_ piece: Data) {
        let ready = state.withLock { state -> (Data, String?)? in
            guard !state.submitted else { return nil }
            guard keepsWhole else {
                state.submitted = true
                return (piece, nil)
            }
            let mebibytes = { (bytes: Int) in "\(bytes / 1024 / 1024) MiB" }
            var full: String?
            if state.kept.count + piece.count > UpstreamFirst.maximumCheckedBody {
                full = "it is larger than \(mebibytes(UpstreamFirst.maximumCheckedBody))"
            } else if !budget.take(piece.count) {
                full = "more than \(mebibytes(budget.limit)) of bodies were being read for checks at once"
            }
            if let full {
                state.submitted = true
                budget.give(state.kept.count)
                state.kept = Data()
                return (Data(), full)
            }
            state.kept.append(piece)
            return nil
        }
        if let (body, unchecked) = ready { submit(body, unchecked) }
    }

    /// Submits what was kept: the whole body when `reason` is `nil`, else the status and headers.
    private func finish(_ reason: String?) {
        let kept = state.withLock { state -> Data? in
            guard !state.submitted else { return nil }
            state.submitted = true
            budget.give(state.kept.count)
            defer { state.kept = Data() }
            return state.kept
        }
        guard let kept else { return }
        submit(reason == nil ? kept : Data(), reason)
    }

    deinit {
        finish("the body was not read to its end")
    }
}

/// A recording of `serve --upstream-first`, held until it is known whether the upstream's answer
/// goes to the client: kept when it does; dropped when a mock answers instead (the client never
/// saw the upstream's `404`, and a folder recorded into would otherwise answer it next time).
final class HeldRecording: RecordingTarget {
    private let target: any RecordingTarget
    private struct State: Sendable {
        var keeps: Bool?
        var held: (@Sendable () throws(RequestMockerError) -> Void)?
    }

    private let state = LockedState(State())

    init(_ target: any RecordingTarget) {
        self.target = target
    }

    var destination: URL { target.destination }

    func store(
        _ result: Result<RecordedResponse, URLError>, request: MockRequest, upstream: URL?, startedAt: Date,
        duration: Duration
    ) throws(RequestMockerError) -> URL? {
        let target = target
        let write: @Sendable () throws(RequestMockerError) -> Void = {
            _ = try target.store(
                result, request: request, upstream: upstream, startedAt: startedAt, duration: duration)
        }
        let keeps = state.withLock { state -> Bool? in
            if state.keeps == nil { state.held = write }
            return state.keeps
        }
        if keeps == true { try write() }
        return nil
    }

    /// Writes the recording (now, or when it comes).
    func keep() throws(RequestMockerError) {
        let held = state.withLock { state in
            state.keeps = true
            defer { state.held = nil }
            return state.held
        }
        try held?()
    }

    /// Drops the recording (now, or when it comes).
    func drop() {
        state.withLock { state in
            state.keeps = false
            state.held = nil
        }
    }
}
