import Foundation

// Streamed bodies in a stub: `chunks` (text or base64, each with the pause before it) and
// `events` (server-sent events, with the `interval` between them).
extension StubReader {
    /// `[{"text": "…", "pause": 0.1}, {"base64": "…"}]`.
    func chunks(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> [StreamChunk] {
        guard case .array(let elements) = value else { throw invalid(steps, "expected a list of chunks") }
        var chunks: [StreamChunk] = []
        for (index, element) in elements.enumerated() {
            let chunkSteps = steps + [.index(index)]
            let members = try object(element, at: chunkSteps, allowed: ["text", "base64", "pause"])
            let pause = try members["pause"].map { value throws(Stub.Invalid) in
                try duration(value, at: chunkSteps + [.key("pause")])
            }
            switch (members["text"], members["base64"]) {
            case (let text?, nil):
                chunks.append(.text(try string(text, at: chunkSteps + [.key("text")]), after: pause ?? .zero))
            case (nil, let encoded?):
                guard let data = Data(base64Encoded: try string(encoded, at: chunkSteps + [.key("base64")])) else {
                    throw invalid(chunkSteps + [.key("base64")], "not valid base64")
                }
                chunks.append(.data(data, after: pause ?? .zero))
            default:
                throw invalid(chunkSteps, "a chunk has one of \"text\" or \"base64\"")
            }
        }
        return chunks
    }

    /// `[{"event": "token", "data": "…", "id": "1", "retry": 1000, "comment": "…"}]`.
    func events(_ value: JSONValue, at steps: [Step]) throws(Stub.Invalid) -> [ServerSentEvent] {
        guard case .array(let elements) = value else { throw invalid(steps, "expected a list of events") }
        var events: [ServerSentEvent] = []
        for (index, element) in elements.enumerated() {
            let eventSteps = steps + [.index(index)]
            let members = try object(element, at: eventSteps, allowed: ["event", "data", "id", "retry", "comment"])
            func text(_ key: String) throws(Stub.Invalid) -> String? {
                try members[key].map { value throws(Stub.Invalid) in try string(value, at: eventSteps + [.key(key)]) }
            }
            var event = ServerSentEvent(event: try text("event"), data: try text("data"), id: try text("id"))
            event.comment = try text("comment")
            if let retry = members["retry"] {
                guard let milliseconds = retry.intValue, milliseconds >= 0 else {
                    throw invalid(eventSteps + [.key("retry")], "expected a number of milliseconds, 0 or more")
                }
                event.retry = milliseconds
            }
            do {
                _ = try event.encoded()
            } catch {
                throw invalid(eventSteps, error.reason)
            }
            events.append(event)
        }
        return events
    }
}
