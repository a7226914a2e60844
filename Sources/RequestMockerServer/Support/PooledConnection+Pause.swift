import Foundation

extension PooledConnection {
    /// Waits for `timeout` (`nil`: until the connection ends) without reading anything, for a
    /// response that is held back on purpose; input that arrives meanwhile (a pipelined
    /// request) stays unread.
    ///
    /// - Parameter endingOnPeerFinish: whether the peer's FIN ends the wait. A client that
    ///   half-closes after its request still reads the answer, so delays go on; a stall, which
    ///   never answers, ends.
    /// - Returns: `true` when the whole time passed with the connection still there; `false`
    ///   when it failed, or the pool shut it down (`stop()`, or room made for a new connection).
    func pause(_ timeout: Duration?, endingOnPeerFinish: Bool = false) -> Bool {
        let clock = ContinuousClock()
        let deadline = timeout.map { clock.now + $0 }
        // Until input or a FIN arrives, `poll` sleeps until something happens: input, a FIN, a
        // reset, or the pool's `shutdown`. After that the socket reads as ready at once, so the
        // wait goes on in slices, looking at the pool and the input after each. `poll` is never
        // asked for no events to wait for a hang-up alone: Darwin's `poll`, built on kqueue,
        // registers nothing for such an entry (XNU bsd/kern/sys_generic.c), so neither the
        // peer's close nor `stop()` would wake it. A FIN or a reset is read from the input, the
        // same way on both platforms (Darwin's `poll` adds POLLHUP to a plain FIN, Linux's
        // doesn't).
        var watching = true
        while true {
            if isShutDown { return false }
            let remaining = deadline.map { clock.now.duration(to: $0) }
            if let remaining, remaining <= .zero { return true }
            if watching {
                switch socket.waitReadable(timeout: remaining) {
                case .timedOut:
                    // Early only when `poll` itself failed (out of memory, say): don't spin on it.
                    if deadline.map({ clock.now < $0 }) ?? true { Thread.sleep(forTimeInterval: 0.01) }
                    continue
                // A hang-up without input to read (both platforms report input with a FIN).
                case .hungUp: return false
                case .readable: break
                }
            } else {
                let slice = min(remaining ?? .milliseconds(100), .milliseconds(100))
                Thread.sleep(forTimeInterval: slice / .seconds(1))
            }
            if isShutDown { return false }
            switch socket.peek() {
            case .failed: return false
            case .finished where endingOnPeerFinish: return false
            case .finished, .input: watching = false
            case .nothing: break
            }
        }
    }
}
