import Foundation

/// A TCP socket descriptor and the few calls the servers make on it.
///
/// A plain value: it doesn't own the descriptor, so whoever accepted or opened it closes it,
/// exactly once. Blocking I/O throughout; each connection has its own thread, so a slow or
/// hostile client only ever blocks itself. Spellings that differ between Glibc and Darwin are
/// in `SocketPlatform` (Socket+Glibc.swift, Socket+Darwin.swift).
struct Socket: Sendable, Hashable {
    let descriptor: Int32

    /// A failed system call: which one, and `errno`.
    struct Failure: Error, CustomStringConvertible {
        let call: String
        let code: Int32

        init(_ call: String, code: Int32 = SocketPlatform.lastError) {
            self.call = call
            self.code = code
        }

        var description: String { "\(call) failed: \(SocketPlatform.errorMessage(code)) (errno \(code))" }

        var isTimeout: Bool { code == EAGAIN || code == EWOULDBLOCK }
    }

    // MARK: Listening

    /// Binds `host` (a numeric IPv4 or IPv6 address, or a name such as `localhost`) and `port`
    /// (0 for any free port) and listens.
    static func listen(host: String, port: UInt16, backlog: Int32) throws(Failure) -> Socket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketPlatform.streamType
        hints.ai_flags = AI_PASSIVE
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure("getaddrinfo(\(host))", code: status == EAI_SYSTEM ? SocketPlatform.lastError : EADDRNOTAVAIL)
        }
        defer { freeaddrinfo(list) }
        let descriptor = socket(first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
        guard descriptor >= 0 else { throw Failure("socket") }
        let socket = Socket(descriptor: descriptor)
        socket.setFlag(SO_REUSEADDR)
        SocketPlatform.prepare(descriptor)
        guard bind(descriptor, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let failure = Failure("bind(\(host):\(port))")
            socket.close()
            throw failure
        }
        guard SocketPlatform.systemListen(descriptor, backlog) == 0 else {
            let failure = Failure("listen")
            socket.close()
            throw failure
        }
        return socket
    }

    /// The address and port this socket is bound to (the real port when 0 was asked for).
    func localAddress() throws(Failure) -> (host: String, port: UInt16) {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard status == 0 else { throw Failure("getsockname") }
        var hostBuffer = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var portBuffer = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        let named = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo(
                    $0, length, &hostBuffer, socklen_t(hostBuffer.count), &portBuffer, socklen_t(portBuffer.count),
                    NI_NUMERICHOST | NI_NUMERICSERV)
            }
        }
        guard named == 0 else { throw Failure("getnameinfo", code: EINVAL) }
        let host = String(decoding: hostBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let port =
            UInt16(String(decoding: portBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? 0
        return (host, port)
    }

    /// Waits for a connection; `nil` when the call was interrupted or the connection vanished
    /// before it was accepted (try again).
    func accept() throws(Failure) -> Socket? {
        let accepted = SocketPlatform.systemAccept(descriptor)
        guard accepted >= 0 else {
            let code = SocketPlatform.lastError
            if code == EINTR || code == ECONNABORTED || code == EAGAIN { return nil }
            throw Failure("accept", code: code)
        }
        let socket = Socket(descriptor: accepted)
        SocketPlatform.prepare(accepted)
        socket.setFlag(Int32(IPPROTO_TCP), Int32(TCP_NODELAY))
        return socket
    }

    // MARK: Options

    private func setFlag(_ option: Int32) {
        setFlag(SOL_SOCKET, option)
    }

    private func setFlag(_ level: Int32, _ option: Int32) {
        var on: Int32 = 1
        _ = setsockopt(descriptor, level, option, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Makes a blocked `send` give up with `EAGAIN` after `timeout`, so a client that stops
    /// reading can't hold a thread forever.
    func setSendTimeout(_ timeout: Duration) {
        var value = Self.timeValue(timeout)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Makes a blocked `read` give up with `EAGAIN` after `timeout`: a connection reads its next
    /// request with a `read` that waits itself, one system call where `poll` and `read` were two.
    /// (Every other reader of a socket waits with ``waitReadable(timeout:)`` first, so its `read`
    /// never waits.)
    ///
    /// - Returns: whether the timeout took (a `read` without one would wait for ever).
    func setReceiveTimeout(_ timeout: Duration) -> Bool {
        var value = Self.timeValue(timeout)
        return setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size)) == 0
    }

    private static func timeValue(_ duration: Duration) -> timeval {
        let (seconds, attoseconds) = duration.components
        var value = timeval()
        value.tv_sec = .init(max(seconds, 0))
        value.tv_usec = .init(max(attoseconds / 1_000_000_000_000, seconds > 0 || attoseconds > 0 ? 1 : 0))
        return value
    }

    // MARK: Reading and writing

    /// Reads what is there, up to `capacity` bytes, appending it to `buffer`.
    ///
    /// - Returns: the number of bytes read; 0 when the peer closed its side.
    func read(appendingTo buffer: inout [UInt8], capacity: Int = 64 * 1024) throws(Failure) -> Int {
        // Read into uninitialized stack space and append only what arrived: zero-filling 64 KiB
        // of the array for every small request would cost more than the request. The error is
        // taken at once, before freeing the space could change it.
        let (count, code) = withUnsafeTemporaryAllocation(byteCount: capacity, alignment: 1) {
            scratch -> (Int, Int32) in
            var count = 0
            repeat {
                count = SocketPlatform.systemRead(descriptor, scratch.baseAddress, capacity)
            } while count < 0 && SocketPlatform.lastError == EINTR
            if count > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[..<count])) }
            return (count, count < 0 ? SocketPlatform.lastError : 0)
        }
        if count < 0 { throw Failure("read", code: code) }
        return count
    }

    /// Sends every byte, or throws (`EPIPE` for a closed peer, `EAGAIN` after the send timeout).
    func write(_ bytes: UnsafeRawBufferPointer) throws(Failure) {
        guard var next = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let sent = send(descriptor, next, remaining, SocketPlatform.sendFlags)
            if sent < 0 {
                if SocketPlatform.lastError == EINTR { continue }
                throw Failure("send")
            }
            next += sent
            remaining -= sent
        }
    }

    func write(_ bytes: some ContiguousBytes) throws(Failure) {
        do {
            try bytes.withUnsafeBytes { raw in try write(raw) }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure("send", code: EIO)
        }
    }

    /// What ``waitReadable(timeout:)`` saw.
    enum Readiness {
        case readable
        case timedOut
        /// The connection hung up or failed (also what a `shutdown` from `stop()` looks like).
        case hungUp
    }

    /// Waits until this socket has input (or hung up), or `timeout` passes; `nil` waits forever.
    func waitReadable(timeout: Duration?) -> Readiness {
        var entry = pollfd(fd: descriptor, events: SocketPlatform.readable, revents: 0)
        return Self.poll(&entry, count: 1, timeout: timeout).first ?? .timedOut
    }

    /// Whether the peer closed its side (a FIN) or the connection failed, looked at without
    /// waiting or reading. Input waiting to be read (a pipelined request) hides a FIN behind it,
    /// so that case reads as still there.
    func peerHasLeft() -> Bool {
        switch waitReadable(timeout: .zero) {
        case .timedOut: return false
        case .hungUp: return true
        case .readable:
            switch peek() {
            case .finished, .failed: return true
            case .input, .nothing: return false
            }
        }
    }

    /// What a look at the input, without reading or waiting, found.
    enum Peek {
        /// Input is waiting to be read.
        case input
        /// The peer closed its side (a FIN), with nothing left to read before it.
        case finished
        /// The connection failed (a reset).
        case failed
        /// Nothing yet.
        case nothing
    }

    /// Looks at the input without reading it or waiting. Input waiting (a pipelined request)
    /// hides a FIN behind it, so that case reads as `input`.
    func peek() -> Peek {
        var byte: UInt8 = 0
        let peeked = recv(descriptor, &byte, 1, SocketPlatform.peekFlags)
        if peeked > 0 { return .input }
        if peeked == 0 { return .finished }
        let code = SocketPlatform.lastError
        return code == EAGAIN || code == EWOULDBLOCK || code == EINTR ? .nothing : .failed
    }

    /// `poll(2)` over several descriptors; one readiness per entry.
    static func poll(_ entries: UnsafeMutablePointer<pollfd>, count: Int, timeout: Duration?) -> [Readiness] {
        let milliseconds: Int32
        if let timeout {
            let (seconds, attoseconds) = timeout.components
            let total = max(seconds, 0) * 1000 + max(attoseconds, 0) / 1_000_000_000_000_000 + (attoseconds > 0 ? 1 : 0)
            milliseconds = Int32(clamping: total)
        } else {
            milliseconds = -1
        }
        var status: Int32
        repeat {
            status = SocketPlatform.systemPoll(entries, count, milliseconds)
        } while status < 0 && SocketPlatform.lastError == EINTR
        return (0..<count).map { index in
            let revents = entries[index].revents
            if status <= 0 { return .timedOut }
            if revents & SocketPlatform.readable != 0 { return .readable }
            if revents & SocketPlatform.hangUp != 0 { return .hungUp }
            return .timedOut
        }
    }

    // MARK: Closing

    /// Ends both directions without releasing the descriptor: blocked calls on it return at
    /// once. `stop()` uses this; the connection's own thread then closes.
    func shutdown() {
        SocketPlatform.systemShutdown(descriptor, SocketPlatform.shutdownBoth)
    }

    /// Ends the sending side only: the peer reads the end of the stream and may still send.
    func shutdownWrite() {
        SocketPlatform.systemShutdown(descriptor, SocketPlatform.shutdownWrite)
    }

    /// Reads and drops what the peer still sends, until it closes, `duration` passes, or a MiB
    /// arrived. Closing a socket with unread input makes the system send a reset, which can
    /// destroy a response the client hasn't read yet (a `413` sent before the body, say), so
    /// connections are drained after their FIN and before they close.
    func drain(for duration: Duration) {
        let clock = ContinuousClock()
        let deadline = clock.now + duration
        var discarded: [UInt8] = []
        var total = 0
        while total < 1024 * 1024 {
            let remaining = clock.now.duration(to: deadline)
            guard remaining > .zero, waitReadable(timeout: remaining) == .readable,
                let count = try? read(appendingTo: &discarded), count > 0
            else { return }
            total += count
            discarded.removeAll(keepingCapacity: true)
        }
    }

    /// Resets the connection: the client sees `ECONNRESET` instead of an orderly end.
    func reset() {
        var option = linger(l_onoff: 1, l_linger: 0)
        _ = setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
        close()
    }

    func close() {
        SocketPlatform.systemClose(descriptor)
    }
}
