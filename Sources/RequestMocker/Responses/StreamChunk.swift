import Foundation

/// One piece of a streamed response body, and the pause before it is sent.
///
/// ```swift
/// registry.register(.get("/feed"), respond: .stream([
///     .text("first\n"),
///     .text("second\n", after: .milliseconds(200)),
/// ]))
/// ```
public struct StreamChunk: Sendable, Hashable {
    /// The bytes.
    public var data: Data
    /// How long to wait, after the previous chunk (or the response head), before sending this one.
    public var pause: Duration

    /// Bytes, sent after `pause`.
    public init(_ data: Data, after pause: Duration = .zero) {
        self.data = data
        self.pause = pause
    }

    /// Bytes, sent after `pause`.
    public static func data(_ data: Data, after pause: Duration = .zero) -> StreamChunk {
        StreamChunk(data, after: pause)
    }

    /// Text as UTF-8, sent after `pause`.
    public static func text(_ text: String, after pause: Duration = .zero) -> StreamChunk {
        StreamChunk(Data(text.utf8), after: pause)
    }
}
