import Foundation

/// The lines `serve` prints for the requests it answers, written to standard output by a thread
/// of their own, so a request's connection doesn't wait for `write(2)`: a line on an idle server
/// goes out at once; under load, the writer rests a millisecond after each write, and the lines
/// that came meanwhile go out together in the next (a busy server answers tens of thousands of
/// requests a second, and one wake-up and one write each would cost it a fifth of that). The
/// order is the order the requests were answered in.
///
/// Every other line `serve` prints goes through ``printLine(_:)``, which first writes what is
/// waiting here, so the order of all the lines is the order they were printed in. At most 1 MiB
/// waits: past that (an output nobody reads), a request waits for its line, as it would for a
/// `write(2)` of its own.
final class RequestLog: @unchecked Sendable {
    // @unchecked Sendable: `pending`, `writing`, `idle` and `started` are only touched with
    // `condition` held.
    static let shared = RequestLog()

    private let condition = NSCondition()
    private var pending: [UInt8] = []
    /// Whether bytes taken from `pending` are being written (by the writer or a flush).
    private var writing = false
    /// Whether the writer waits for a line (and must be woken for one).
    private var idle = false
    private var started = false
    private static let maximumPending = 1 << 20

    /// Queues `line` (a newline is added) for the writer.
    func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        condition.lock()
        if !started {
            started = true
            let writer = Thread { [self] in run() }
            writer.name = "request-mocker log"
            writer.start()
        }
        while pending.count > Self.maximumPending { condition.wait() }
        pending.append(contentsOf: bytes)
        let wakes = idle
        idle = false
        condition.unlock()
        if wakes { condition.broadcast() }
    }

    /// Writes what waits, and returns once every line appended so far is out.
    func flush() {
        condition.lock()
        while writing { condition.wait() }
        let bytes = pending
        pending.removeAll(keepingCapacity: true)
        writing = !bytes.isEmpty
        condition.unlock()
        guard !bytes.isEmpty else { return }
        writeAll(bytes)
        finishWriting()
    }

    private func run() {
        while true {
            condition.lock()
            while pending.isEmpty || writing {
                idle = pending.isEmpty
                condition.wait()
            }
            idle = false
            let bytes = pending
            pending.removeAll(keepingCapacity: true)
            writing = true
            condition.unlock()
            writeAll(bytes)
            finishWriting()
            // Lets the lines of a busy moment gather for one write.
            Thread.sleep(forTimeInterval: 0.001)
        }
    }

    private func finishWriting() {
        condition.lock()
        writing = false
        condition.unlock()
        condition.broadcast()
    }
}
