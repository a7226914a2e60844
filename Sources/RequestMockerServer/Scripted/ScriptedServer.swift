import Foundation
import RequestMocker

/// A raw TCP server that follows a script, for reproducing what no well-behaved server does:
/// a response that hangs halfway, a connection dropped mid-body, an FTP conversation, a
/// protocol that isn't HTTP at all.
///
/// Input is matched against an ordered list of regular
/// expressions, and the first rule that matches runs its commands (send text or bytes, pause,
/// close, send the server's data). A second, passive **data listener** sends ``Script/data``
/// to whoever connects and closes, which is what an FTP client in passive mode downloads from;
/// `$pasv` advertises it. What is said is kept in a ``transcript`` a test can read (the newest
/// 10,000 entries, by default).
///
/// ```swift
/// let server = ScriptedServer(script: try .init(
///     rules: [
///         .init("^GET /hang", [.text("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nhalf"), .pause(.seconds(3600))])
///     ],
///     framing: .delimiter("\r\n\r\n")
/// ))
/// let port = try server.start()
/// defer { server.stop() }
/// // URLSession to http://127.0.0.1:\(port)/hang now times out mid-body.
/// ```
///
/// It serves many connections at once (each on its own thread), frames input
/// by line unless told otherwise, substitutes `$10` as group 10 rather than `$1` and `0`, and
/// lets the script be replaced while it runs (``script``), for the next input on every connection.
public final class ScriptedServer: Sendable {
    private struct State: Sendable {
        var script: Script
        var pool: SocketPool?
        var address = ""
        var port: UInt16 = 0
        var dataPort: UInt16 = 0
        var transcript = RingBuffer<TranscriptEntry>(capacity: ScriptedServer.defaultTranscriptCapacity)
        var nextConnection = 0
        var started = false
    }

    private let state: LockedState<State>
    /// The address asked for; ``address`` is the one bound.
    public let host: String
    private let requestedPort: UInt16

    /// Creates a server; nothing listens until ``start()``.
    ///
    /// - Parameters:
    ///   - script: what to say.
    ///   - host: the address to bind, `127.0.0.1` by default.
    ///   - port: the main port; 0 (the default) picks a free one.
    public init(script: Script, host: String = "127.0.0.1", port: UInt16 = 0) {
        state = LockedState(State(script: script))
        self.host = host
        requestedPort = port
    }

    /// The script; setting it changes what every connection does from its next input on
    /// (to switch a test to another scenario mid-run: `server.script = badLogin`).
    public var script: Script {
        get { state.withLock { $0.script } }
        set { state.withLock { $0.script = newValue } }
    }

    /// Starts the main listener and the data listener; returns once both accept connections.
    ///
    /// - Returns: the main port.
    /// - Throws: ``MockServerError/cannotListen(host:port:reason:)``, ``MockServerError/alreadyStarted``.
    @discardableResult
    public func start() throws(MockServerError) -> UInt16 {
        let pool: SocketPool
        do {
            pool = try SocketPool(name: "ScriptedServer")
        } catch {
            throw .cannotListen(host: host, port: requestedPort, reason: error.description)
        }
        let fresh = state.withLock { state -> Bool in
            defer { state.started = true }
            return !state.started
        }
        guard fresh else { throw .alreadyStarted }
        do {
            let main = try pool.listen(host: host, port: requestedPort) { [self] connection in
                var conversation = Conversation(connection: connection, server: self, number: nextConnectionNumber())
                conversation.run()
            }
            let data = try pool.listen(host: host, port: 0) { [self] connection in
                serveData(on: connection, number: nextConnectionNumber())
            }
            state.withLock { state in
                state.pool = pool
                state.address = main.host
                state.port = main.port
                state.dataPort = data.port
            }
            return main.port
        } catch {
            pool.stop()
            throw .cannotListen(host: host, port: requestedPort, reason: error.description)
        }
    }

    /// The address bound, such as `127.0.0.1` (empty before ``start()``).
    public var address: String { state.withLock { $0.address } }
    /// The main port (0 before ``start()``).
    public var port: UInt16 { state.withLock { $0.port } }
    /// The data listener's port, which `$pasv` advertises (0 before ``start()``).
    public var dataPort: UInt16 { state.withLock { $0.dataPort } }

    /// `scheme://address:port`, for building URLs to the main listener.
    public func url(scheme: String = "http", path: String = "") -> URL? {
        let (address, port) = state.withLock { ($0.address, $0.port) }
        let host = address.bracketedIfIPv6
        return URL(string: "\(scheme)://\(host):\(port)\(path)")
    }

    /// Closes both listeners and every connection, and returns when their threads ended.
    public func stop() {
        let pool = state.withLock { state -> SocketPool? in
            defer { state.pool = nil }
            return state.pool
        }
        pool?.stop()
    }

    // MARK: Transcript

    /// Everything said so far on every connection, in order: input as the rules saw it, output
    /// as sent, and events (connections opening and closing, unmatched input). Only the newest
    /// ``transcriptCapacity`` entries are kept.
    public var transcript: [TranscriptEntry] {
        state.withLock { $0.transcript.elements }
    }

    /// How many transcript entries a server keeps unless told otherwise.
    public static let defaultTranscriptCapacity = 10_000

    /// The most transcript entries kept (the oldest go first), so a client that talks forever
    /// can't grow the server's memory; `nil` keeps every entry.
    ///
    /// ```swift
    /// server.transcriptCapacity = 100
    /// ```
    public var transcriptCapacity: Int? {
        get { state.withLock { $0.transcript.capacity } }
        set { state.withLock { $0.transcript.capacity = newValue } }
    }

    /// How many transcript entries were dropped to stay within ``transcriptCapacity``.
    public var droppedTranscriptEntries: Int {
        state.withLock { $0.transcript.dropped }
    }

    /// Empties the transcript.
    public func clearTranscript() {
        state.withLock { $0.transcript.removeAll() }
    }

    func log(_ kind: TranscriptEntry.Kind, connection: Int) {
        state.withLock { _ = $0.transcript.append(TranscriptEntry(connection: connection, kind: kind)) }
    }

    private func nextConnectionNumber() -> Int {
        state.withLock { state in
            state.nextConnection += 1
            return state.nextConnection
        }
    }

    /// The values `$address`, `$port`, `$pasv` and `$size` stand for right now.
    func substitutionValues() -> (address: String, port: UInt16, dataPort: UInt16, size: Int) {
        state.withLock { ($0.address, $0.port, $0.dataPort, $0.script.data.count) }
    }

    // MARK: Data listener

    /// A passive data connection: send the data, close the sending side, and keep what the
    /// client uploads (FTP's `STOR`) until it closes.
    private func serveData(on connection: PooledConnection, number: Int) {
        log(.event("data connection opened"), connection: number)
        let data = script.data
        guard (try? connection.socket.write(data)) != nil else {
            log(.event("data connection lost while sending"), connection: number)
            return
        }
        log(.output(data), connection: number)
        connection.socket.shutdownWrite()
        var received: [UInt8] = []
        while received.count < 64 * 1024 * 1024, connection.socket.waitReadable(timeout: .seconds(30)) == .readable {
            guard let count = try? connection.socket.read(appendingTo: &received), count > 0 else { break }
        }
        if !received.isEmpty { log(.input(String(decoding: received, as: UTF8.self)), connection: number) }
        log(.event("data connection closed"), connection: number)
    }
}
