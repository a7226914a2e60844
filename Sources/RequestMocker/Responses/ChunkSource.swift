import Foundation

/// Where a streamed body's chunks come from.
package enum ChunkSource: Sendable {
    /// A fixed list.
    case chunks([StreamChunk])
    /// A sequence made for each request, as the function that takes its next chunk.
    case computed(@Sendable (MockRequest, Captures) -> NextChunk)

    /// Takes a computed stream's next chunk (`nil` at its end). Called from one task, in turn.
    package typealias NextChunk = () async throws -> StreamChunk?

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
