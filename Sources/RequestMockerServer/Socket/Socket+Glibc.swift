// The Linux half of the socket layer: every constant and call that is spelled differently in
// Glibc lives here, so Socket.swift stays platform-neutral.
#if canImport(Glibc)
    import Glibc

    enum SocketPlatform {
        static let streamType = Int32(SOCK_STREAM.rawValue)
        /// Linux reports a closed peer as `EPIPE` instead of raising `SIGPIPE` when asked per call.
        static let sendFlags = Int32(MSG_NOSIGNAL)
        static let readable = Int16(POLLIN)
        static let writable = Int16(POLLOUT)
        static let hangUp = Int16(POLLHUP | POLLERR | POLLNVAL)
        static let shutdownBoth = Int32(SHUT_RDWR)
        static let shutdownWrite = Int32(SHUT_WR)
        static let peekFlags = Int32(MSG_PEEK | MSG_DONTWAIT)

        /// Closed in any program this process starts (`sendFlags` already keeps `SIGPIPE` away):
        /// a child that kept a listening socket would take the connections of a stopped server.
        static func prepare(_ descriptor: Int32) {
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }

        static func systemClose(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
        static func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { Glibc.listen(descriptor, backlog) }
        static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32
        {
            Glibc.connect(descriptor, address, length)
        }
        static func systemAccept(_ descriptor: Int32) -> Int32 { Glibc.accept(descriptor, nil, nil) }
        static func systemShutdown(_ descriptor: Int32, _ how: Int32) { _ = Glibc.shutdown(descriptor, how) }
        static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            Glibc.write(descriptor, bytes, count)
        }
        static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
            Glibc.read(descriptor, buffer, count)
        }
        static func systemPoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
            Glibc.poll(fds, nfds_t(count), timeout)
        }
        static func systemPipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 { Glibc.pipe(fds) }
        static func errorMessage(_ code: Int32) -> String { String(cString: strerror(code)) }
        static var lastError: Int32 { errno }
    }
#endif
