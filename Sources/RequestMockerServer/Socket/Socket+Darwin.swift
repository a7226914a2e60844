// The Apple half of the socket layer: every constant and call that is spelled differently in
// Darwin lives here, so Socket.swift stays platform-neutral. (Not compiled on the Linux
// machine this package is developed on; kept to the same small surface as Socket+Glibc.swift.)
#if canImport(Darwin)
    import Darwin

    enum SocketPlatform {
        static let streamType = SOCK_STREAM
        static let sendFlags: Int32 = 0
        static let readable = Int16(POLLIN)
        static let writable = Int16(POLLOUT)
        static let hangUp = Int16(POLLHUP | POLLERR | POLLNVAL)
        static let shutdownBoth = SHUT_RDWR
        static let shutdownWrite = SHUT_WR
        static let peekFlags = MSG_PEEK | MSG_DONTWAIT

        /// Darwin has no per-call `MSG_NOSIGNAL`; the socket option keeps `SIGPIPE` away instead.
        /// And closed in any program this process starts, as on Linux.
        static func prepare(_ descriptor: Int32) {
            var on: Int32 = 1
            _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }

        static func systemClose(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
        static func systemListen(_ descriptor: Int32, _ backlog: Int32) -> Int32 { Darwin.listen(descriptor, backlog) }
        static func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32
        {
            Darwin.connect(descriptor, address, length)
        }
        static func systemAccept(_ descriptor: Int32) -> Int32 { Darwin.accept(descriptor, nil, nil) }
        static func systemShutdown(_ descriptor: Int32, _ how: Int32) { _ = Darwin.shutdown(descriptor, how) }
        static func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
            Darwin.write(descriptor, bytes, count)
        }
        static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
            Darwin.read(descriptor, buffer, count)
        }
        static func systemPoll(_ fds: UnsafeMutablePointer<pollfd>, _ count: Int, _ timeout: Int32) -> Int32 {
            Darwin.poll(fds, nfds_t(count), timeout)
        }
        static func systemPipe(_ fds: UnsafeMutablePointer<Int32>) -> Int32 { Darwin.pipe(fds) }
        static func errorMessage(_ code: Int32) -> String { String(cString: strerror(code)) }
        static var lastError: Int32 { errno }
    }
#endif
