import Foundation

/// One event of a `text/event-stream` body, as the WHATWG HTML standard's "Server-sent events"
/// section defines the format.
///
/// ```swift
/// registry.register(.get("/chat"), respond: .events([
///     ServerSentEvent(data: "Hello"),
///     ServerSentEvent(event: "token", data: "line one\nline two", id: "2"),
///     ServerSentEvent(comment: "keep-alive"),
/// ], interval: .milliseconds(50)))
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type (`event:`); `nil` leaves it at the client's default, `message`.
    public var event: String?
    /// The data; each of its lines becomes one `data:` line. `nil` sends no data (an event made
    /// only of an id, a retry or a comment).
    public var data: String?
    /// The last-event id (`id:`).
    public var id: String?
    /// The reconnection time the client should use, in milliseconds (`retry:`).
    public var retry: Int?
    /// A comment line (`: text`) sent before the fields; clients ignore it, and servers send
    /// one to keep a connection alive.
    public var comment: String?

    /// An event. Clients dispatch only events with `data`: one with just a name is dropped by
    /// them (its `id` and `retry` still take effect).
    public init(event: String? = nil, data: String? = nil, id: String? = nil, retry: Int? = nil, comment: String? = nil)
    {
        self.event = event
        self.data = data
        self.id = id
        self.retry = retry
        self.comment = comment
    }

    /// The event as it goes on the wire: its lines, then the blank line that dispatches it.
    ///
    /// - Throws: the reason, when a field can't be written: a line break in `event` or `id`
    ///   (it would start a field of its own), a NUL in `id` (clients ignore such an id), or a
    ///   negative `retry`.
    func encoded() throws(Problem) -> String {
        var text = ""
        if let comment {
            for line in Self.lines(of: comment) { text += line.isEmpty ? ":\n" : ": \(line)\n" }
        }
        if let event {
            guard !Self.hasLineBreak(event) else { throw Problem("its event name holds a line break") }
            text += "event: \(event)\n"
        }
        if let id {
            guard !Self.hasLineBreak(id) else { throw Problem("its id holds a line break") }
            guard !id.unicodeScalars.contains("\0") else { throw Problem("its id holds a NUL, which clients ignore") }
            text += "id: \(id)\n"
        }
        if let retry {
            guard retry >= 0 else { throw Problem("its retry is \(retry); it is a number of milliseconds, 0 or more") }
            text += "retry: \(retry)\n"
        }
        if let data {
            for line in Self.lines(of: data) { text += "data: \(line)\n" }
        }
        return text + "\n"
    }

    /// Why an event can't be written.
    struct Problem: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// The lines of `text`, split where the format ends a line: CRLF, LF or CR.
    private static func lines(of text: String) -> [String] {
        var lines: [String] = []
        var current = ""
        var scalars = text.unicodeScalars.makeIterator()
        var pending = scalars.next()
        while let scalar = pending {
            pending = scalars.next()
            switch scalar {
            case "\r":
                if pending == "\n" { pending = scalars.next() }
                lines.append(current)
                current = ""
            case "\n":
                lines.append(current)
                current = ""
            default:
                current.unicodeScalars.append(scalar)
            }
        }
        lines.append(current)
        return lines
    }

    private static func hasLineBreak(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0 == "\r" || $0 == "\n" }
    }
}
