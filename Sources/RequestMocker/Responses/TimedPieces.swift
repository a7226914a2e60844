import Foundation

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
