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

/// Where a streamed body's chunks come from.
enum ChunkSource: Sendable {
    /// A fixed list.
    case chunks([StreamChunk])
    /// A sequence made for each request, as the function that takes its next chunk.
    case computed(@Sendable (MockRequest, Captures) -> NextChunk)

    /// Takes a computed stream's next chunk (`nil` at its end). Called from one task, in turn.
    typealias NextChunk = () async throws -> StreamChunk?

    /// A computed source from any asynchronous sequence of chunks.
    static func computed<Chunks: AsyncSequence>(
        _ make: @escaping @Sendable (MockRequest, Captures) -> Chunks
    ) -> ChunkSource where Chunks.Element == StreamChunk, Chunks: SendableMetatype {
        .computed { request, captures -> NextChunk in
            var iterator = make(request, captures).makeAsyncIterator()
            return { try await iterator.next() }
        }
    }

    /// The body's pieces for one request, each returned once its pause has passed. Pulled: a
    /// chunk is made, and its pause waited out, only when the consumer asks for it, and
    /// cancelling the consuming task ends the wait.
    func pieces(for request: MockRequest, _ captures: Captures) -> TimedPieces {
        TimedPieces(source: self, request: request, captures: captures)
    }
}

/// A streamed body's bytes as they fall due (see ``ChunkSource/pieces(for:_:)``).
struct TimedPieces: AsyncSequence, Sendable {
    typealias Element = Data

    let source: ChunkSource
    let request: MockRequest
    let captures: Captures

    func makeAsyncIterator() -> Iterator {
        switch source {
        case .chunks(let chunks): Iterator(chunks: .fixed(chunks.makeIterator()))
        case .computed(let make): Iterator(chunks: .computed(make(request, captures)))
        }
    }

    struct Iterator: AsyncIteratorProtocol {
        enum Chunks {
            case fixed(IndexingIterator<[StreamChunk]>)
            case computed(ChunkSource.NextChunk)
        }

        var chunks: Chunks

        mutating func next() async throws -> Data? {
            while true {
                let chunk: StreamChunk?
                switch chunks {
                case .fixed(var list):
                    chunk = list.next()
                    chunks = .fixed(list)
                case .computed(let nextChunk):
                    chunk = try await nextChunk()
                }
                guard let chunk else { return nil }
                if chunk.pause > .zero { try await Task.sleep(for: chunk.pause) }
                try Task.checkCancellation()
                if !chunk.data.isEmpty { return chunk.data }
            }
        }
    }
}
