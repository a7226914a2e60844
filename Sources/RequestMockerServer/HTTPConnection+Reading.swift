import Foundation
import RequestMocker

/// Reading: a request's head and body as they arrive, within their deadlines.
extension HTTPConnection {
    enum Incoming {
        case request(RequestHead, body: Data?)
        case refused(Rejection)
        /// Closed by the client, idle for too long, or stopped: nothing to answer.
        case ended
    }

    mutating func readRequest() -> Incoming {
        let configuration = server.configuration
        var scanned = 0
        // The request's first byte, which starts its deadlines.
        var began: ContinuousClock.Instant?
        // Told to the pool only when reading has to wait, so a request already here costs no lock.
        var toldPhase = false
        let idleDeadline = clock.now + configuration.idleTimeout
        var head: RequestHead
        while true {
            // Line breaks between requests (some clients send one after a body) are not the
            // start of a request, so they don't start its deadline.
            while start < buffer.count, buffer[start] == .cr || buffer[start] == .lf { start += 1 }
            do {
                if let (parsed, end) = try parser.parse(buffer, from: start, scanned: &scanned) {
                    head = parsed
                    start = end
                    break
                }
            } catch {
                return .refused(error)
            }
            if began == nil, buffer.count > start {
                began = clock.now
                connection.setPhase(.readingHead(since: clock.now))
                toldPhase = true
            } else if !toldPhase {
                connection.setPhase(.idle(since: clock.now))
                toldPhase = true
            }
            switch fill(until: began.map { $0 + configuration.requestHeadTimeout } ?? idleDeadline) {
            case .more: continue
            case .timedOut where began != nil:
                return .refused(
                    Rejection(
                        status: .requestTimeout,
                        reason: "the request head did not arrive within \(configuration.requestHeadTimeout)"))
            case .timedOut, .closed: return .ended
            }
        }
        if toldPhase { connection.setPhase(nil) }
        if head.hasUnsupportedExpectation {
            return .refused(Rejection(status: .expectationFailed, reason: "only `Expect: 100-continue` is understood"))
        }
        let bodyDeadline = (began ?? clock.now) + configuration.requestTimeout
        switch head.framing {
        case .none:
            return .request(head, body: nil)
        case .length(let length):
            if head.expectsContinue, buffer.count - start < length, !sendContinue() { return .ended }
            while buffer.count - start < length {
                if let ended = fillBody(until: bodyDeadline) { return ended }
            }
            defer { start += length }
            return .request(head, body: Data(buffer[start..<(start + length)]))
        case .chunked:
            var decoder = ChunkedBodyDecoder(maximumBody: server.configuration.maximumBodySize)
            var sentContinue = false
            while true {
                do {
                    try decoder.consume(buffer, from: &start)
                } catch {
                    return .refused(error)
                }
                if decoder.isComplete { return .request(head, body: Data(decoder.body)) }
                if head.expectsContinue, !sentContinue {
                    guard sendContinue() else { return .ended }
                    sentContinue = true
                }
                if let ended = fillBody(until: bodyDeadline) { return ended }
            }
        }
    }

    /// Reads more of a body; what the request ends as when none came in time or the client left.
    private mutating func fillBody(until deadline: ContinuousClock.Instant) -> Incoming? {
        switch fill(until: deadline) {
        case .more:
            return nil
        case .timedOut:
            let reason = "the body did not arrive within \(server.configuration.requestTimeout)"
            return .refused(Rejection(status: .requestTimeout, reason: reason))
        case .closed:
            return .ended
        }
    }

    private enum Fill {
        case more
        case timedOut
        case closed
    }

    /// Reads what arrives before `deadline`: with a `read` that waits at most a second (the
    /// socket's receive timeout, set again only when less is left), again until the deadline.
    /// A peer that closed, a reset, or `stop()`'s shutdown ends the wait at once.
    private mutating func fill(until deadline: ContinuousClock.Instant) -> Fill {
        while true {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero else { return .timedOut }
            let wait = min(remaining, .seconds(1))
            if wait != receiveTimeout {
                receiveTimeout = socket.setReceiveTimeout(wait) ? wait : nil
            }
            // Without the timeout, a read could outwait the deadline: wait for input first.
            if receiveTimeout == nil {
                switch socket.waitReadable(timeout: wait) {
                case .timedOut: continue
                case .hungUp: return .closed
                case .readable: break
                }
            }
            if start > 0, start == buffer.count {
                buffer.removeAll(keepingCapacity: true)
                start = 0
            }
            do {
                return try socket.read(appendingTo: &buffer) > 0 ? .more : .closed
            } catch  where error.isTimeout {
                continue
            } catch {
                return .closed
            }
        }
    }

    private func sendContinue() -> Bool {
        (try? socket.write(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))) != nil
    }
}
