import Foundation

/// A pipe whose only job is to wake a thread blocked in `poll` (the accept loops, on `stop()`).
struct WakePipe: Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws(Socket.Failure) {
        var ends: [Int32] = [0, 0]
        guard SocketPlatform.systemPipe(&ends) == 0 else { throw Socket.Failure("pipe") }
        readEnd = ends[0]
        writeEnd = ends[1]
        // Not handed to programs this process starts.
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
    }

    func wake() {
        var byte: UInt8 = 1
        _ = SocketPlatform.systemWrite(writeEnd, &byte, 1)
    }

    func close() {
        SocketPlatform.systemClose(readEnd)
        SocketPlatform.systemClose(writeEnd)
    }
}
