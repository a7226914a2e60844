import Foundation

extension Socket {
    /// Connects to `host` (a name or a numeric address) and `port`, trying each address the name
    /// has, and giving up after `timeout`, or as soon as `interrupted` says so (it is asked every
    /// tenth of a second).
    static func connect(
        host: String, port: UInt16, timeout: Duration, interrupted: () -> Bool = { false }
    ) throws(Failure) -> Socket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SocketPlatform.streamType
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw Failure("getaddrinfo(\(host))", code: status == EAI_SYSTEM ? SocketPlatform.lastError : EHOSTUNREACH)
        }
        defer { freeaddrinfo(list) }
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        var failure = Failure("connect(\(host):\(port))", code: ECONNREFUSED)
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            next = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else {
                failure = Failure("socket")
                continue
            }
            let socket = Socket(descriptor: descriptor)
            SocketPlatform.prepare(descriptor)
            // Non-blocking while connecting, so the wait has a deadline; blocking again after.
            let flags = fcntl(descriptor, F_GETFL)
            _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
            var result = SocketPlatform.systemConnect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen)
            if result != 0, SocketPlatform.lastError == EINPROGRESS {
                var polled: Int32 = 0
                while polled == 0, clock.now < deadline, !interrupted() {
                    var entry = pollfd(fd: descriptor, events: SocketPlatform.writable, revents: 0)
                    let slice = min(clock.now.duration(to: deadline), .milliseconds(100))
                    let (seconds, attoseconds) = max(slice, .zero).components
                    let milliseconds = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
                    repeat {
                        polled = SocketPlatform.systemPoll(&entry, 1, milliseconds)
                    } while polled < 0 && SocketPlatform.lastError == EINTR
                }
                var code: Int32 = 0
                var length = socklen_t(MemoryLayout<Int32>.size)
                if polled <= 0 {
                    code = ETIMEDOUT
                } else if getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &length) != 0 {
                    code = SocketPlatform.lastError
                }
                result = code == 0 ? 0 : -1
                if code != 0 { failure = Failure("connect(\(host):\(port))", code: code) }
            } else if result != 0 {
                failure = Failure("connect(\(host):\(port))")
            }
            guard result == 0 else {
                socket.close()
                if failure.code == ETIMEDOUT { throw failure }
                continue
            }
            _ = fcntl(descriptor, F_SETFL, flags)
            var on: Int32 = 1
            _ = setsockopt(descriptor, Int32(IPPROTO_TCP), Int32(TCP_NODELAY), &on, socklen_t(MemoryLayout<Int32>.size))
            return socket
        }
        throw failure
    }
}
