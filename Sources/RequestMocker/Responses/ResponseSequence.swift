/// The shared position of a ``MockResponse/sequence(_:afterLast:)``.
package final class ResponseSequence: Sendable {
    /// Each response and how many requests in a row it answers: `times(n)` is one step, so a
    /// sequence costs memory per distinct response, never per request it answers.
    let steps: [(response: MockResponse, count: Int)]
    let afterLast: MockResponse.SequenceEnd
    private let position = LockedState(Position())

    private struct Position {
        var step = 0
        /// How many requests the current step answered.
        var used = 0
    }

    init(_ responses: [MockResponse], afterLast: MockResponse.SequenceEnd) {
        steps = responses.map { ($0, 1) }
        self.afterLast = afterLast
    }

    init(repeating response: MockResponse, count: Int, afterLast: MockResponse.SequenceEnd) {
        steps = count > 0 ? [(response, count)] : []
        self.afterLast = afterLast
    }

    func next() -> MockResponse? {
        position.withLock { position in
            while position.step < steps.count {
                let step = steps[position.step]
                if position.used < step.count {
                    position.used += 1
                    return step.response
                }
                position.step += 1
                position.used = 0
            }
            return afterLast.stops ? nil : steps.last?.response
        }
    }
}
