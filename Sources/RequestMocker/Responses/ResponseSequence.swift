/// The shared position of a ``MockResponse/sequence(_:afterLast:)``.
final class ResponseSequence: Sendable {
    let responses: [MockResponse]
    let afterLast: MockResponse.SequenceEnd
    private let position = LockedState(0)

    init(_ responses: [MockResponse], afterLast: MockResponse.SequenceEnd) {
        self.responses = responses
        self.afterLast = afterLast
    }

    /// Takes the next response, or `nil` when the sequence is used up.
    func next() -> MockResponse? {
        position.withLock { position in
            if position < responses.count {
                position += 1
                return responses[position - 1]
            }
            return afterLast.stops ? nil : responses.last
        }
    }
}
