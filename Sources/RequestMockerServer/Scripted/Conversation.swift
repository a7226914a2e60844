import Foundation
import RequestMocker

/// One connection to a ``ScriptedServer``'s main listener: greet, then cut input into units,
/// match each against the rules, run the commands. Runs on the connection's own thread.
struct Conversation {
    let connection: PooledConnection
    let server: ScriptedServer
    let number: Int
    private var buffer: [UInt8] = []

    init(connection: PooledConnection, server: ScriptedServer, number: Int) {
        self.connection = connection
        self.server = server
        self.number = number
    }

    private var socket: Socket { connection.socket }

    mutating func run() {
        server.log(.event("connected"), connection: number)
        guard perform(server.script.greeting, groups: []) else { return }
        while !connection.isStopping {
            let script = server.script
            guard let unit = nextUnit(script.framing) else {
                server.log(.event("the client closed the connection"), connection: number)
                return
            }
            server.log(.input(unit), connection: number)
            guard
                let (rule, groups) = script.rules.lazy.compactMap({ rule in rule.groups(in: unit).map { (rule, $0) } })
                    .first
            else {
                server.log(.event("no rule matched, so the connection was closed"), connection: number)
                connection.finish(.close)
                return
            }
            guard perform(rule.commands, groups: groups) else { return }
        }
    }

    /// The most input kept while waiting for a line break or delimiter.
    static let maximumUnit = 1024 * 1024

    /// How far the buffer was already searched for the delimiter.
    private var searched = 0

    /// The next unit of input, or `nil` when the client closed, the server stopped, or a unit
    /// grew past ``maximumUnit``.
    private mutating func nextUnit(_ framing: ScriptedServer.Framing) -> String? {
        while true {
            switch framing {
            case .reads:
                if !buffer.isEmpty {
                    defer {
                        buffer.removeAll()
                        searched = 0
                    }
                    return String(decoding: buffer, as: UTF8.self)
                }
            case .lines:
                if let lf = buffer[min(searched, buffer.count)...].firstIndex(of: .lf) {
                    var end = lf
                    if end > 0, buffer[end - 1] == .cr { end -= 1 }
                    defer {
                        buffer.removeFirst(lf + 1)
                        searched = 0
                    }
                    return String(decoding: buffer[..<end], as: UTF8.self)
                }
                searched = buffer.count
            case .delimiter(let delimiter):
                let marker = Array(delimiter.utf8)
                if let range = Self.firstRange(of: marker, in: buffer, from: searched) {
                    defer {
                        buffer.removeFirst(range.upperBound)
                        searched = 0
                    }
                    return String(decoding: buffer[..<range.upperBound], as: UTF8.self)
                }
                // A delimiter may straddle this read and the next.
                searched = max(0, buffer.count - marker.count + 1)
            }
            if buffer.count > Self.maximumUnit {
                server.log(
                    .event("over \(Self.maximumUnit) bytes of input without a delimiter, so the connection was closed"),
                    connection: number)
                connection.finish(.close)
                return nil
            }
            guard socket.waitReadable(timeout: nil) == .readable,
                let count = try? socket.read(appendingTo: &buffer), count > 0
            else { return nil }
        }
    }

    private static func firstRange(of marker: [UInt8], in buffer: [UInt8], from first: Int) -> Range<Int>? {
        guard !marker.isEmpty, buffer.count >= marker.count, first <= buffer.count - marker.count else { return nil }
        for start in first...(buffer.count - marker.count) where buffer[start] == marker[0] {
            if buffer[start..<(start + marker.count)].elementsEqual(marker) { return start..<(start + marker.count) }
        }
        return nil
    }

    /// Runs commands in order; `false` once the connection is closed or gone.
    private func perform(_ commands: [ScriptedServer.Command], groups: [String]) -> Bool {
        for command in commands {
            switch command {
            case .text(let template):
                guard send(Data(Substitution.apply(to: template, groups: groups, server: server).utf8)) else {
                    return false
                }
            case .bytes(let data):
                guard send(data) else { return false }
            case .sendData:
                guard send(server.script.data) else { return false }
            case .pause(let duration):
                guard connection.pause(duration) else {
                    server.log(.event("the client closed the connection during a pause"), connection: number)
                    return false
                }
            case .close:
                server.log(.event("closed by the script"), connection: number)
                connection.finish(.close)
                return false
            }
        }
        return true
    }

    private func send(_ data: Data) -> Bool {
        guard (try? socket.write(data)) != nil else {
            server.log(.event("the connection was lost while sending"), connection: number)
            return false
        }
        server.log(.output(data), connection: number)
        return true
    }
}
