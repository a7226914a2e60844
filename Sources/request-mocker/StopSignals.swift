import Foundation
import RequestMockerServer

/// Ctrl-C and `kill` stop `serve` cleanly: connections close, then the process exits 0.
///
/// SIGINT and SIGTERM are blocked in the main thread before `serve` creates any thread (the
/// threads it creates inherit the mask), and the main thread, once the server is up, takes them
/// with `sigwait`: a signal sent before then stays pending, and is not lost. A thread that has
/// them unblocked anyway (one made before, or one that unblocks them) hands them to the main
/// thread with its handler.
///
/// Two Linux facts decided this. A dispatch signal source, used before, arms itself on
/// libdispatch's manager thread some time after `resume()`, and until then the disposition set
/// for it, `SIG_IGN`, discarded the signal: a SIGINT sent as soon as `serve` said it was serving
/// was lost that way once, under load, and the process served on. And `dispatchMain()` waits in
/// `sigsuspend` with an empty mask, so the main thread can't wait for them there.
enum StopSignals {
    /// The main thread, which waits for the signals. Set once, in ``block()``, before any other
    /// thread exists; read by the handler.
    nonisolated(unsafe) private static var waiter = pthread_self()

    /// Blocks SIGINT and SIGTERM in the main thread, and so in every thread it creates from now
    /// on, and sends them to the main thread from any thread that still takes them (a
    /// background job's SIGINT arrives ignored; it is caught from now on). Call it first.
    static func block() {
        waiter = pthread_self()
        var signals = stopSignals
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        for signal in [SIGINT, SIGTERM] {
            _ = Foundation.signal(signal) { received in _ = pthread_kill(StopSignals.waiter, received) }
        }
    }

    /// Waits on the main thread for SIGINT or SIGTERM, then stops `server`, says so and ends the
    /// process.
    static func waitThenStop(_ server: MockServer) -> Never {
        var signals = stopSignals
        var received: Int32 = 0
        while sigwait(&signals, &received) != 0 {}
        server.stop()
        printLine("Stopped.")
        exit(0)
    }

    private static var stopSignals: sigset_t {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        return signals
    }
}
