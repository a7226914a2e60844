/// A filter whose response fails every request it answers, for a reason that shows before any
/// request arrives: a response its factory couldn't build (a header or status that can't be
/// sent, a server-sent event that can't be written), or ``MockResponse/file(_:contentType:status:headers:)``
/// given a URL that isn't a file URL.
///
/// ```swift
/// registry.register(.get("/logo"), respond: .file(URL(string: "https://cdn.example.com/logo.png")!))
/// print(registry.diagnostics)
/// // ["GET /logo (LogoTests.swift:4) fails every request: MockResponse.file(_:) takes a file URL, …"]
/// ```
public struct FilterMistake: Sendable, CustomStringConvertible {
    /// The filter whose response always fails.
    public let filter: RequestFilter
    /// Why, and what to do instead.
    public let reason: String

    public var description: String { "\(filter) fails every request: \(reason)" }
}

extension MockRegistry {
    /// The filters whose response fails every request before anything is sent (see
    /// ``FilterMistake``), in the order they are tried. Responses inside a sequence count too.
    public var filterMistakes: [FilterMistake] {
        let entries = state.withLock { $0.index.ordered }
        return entries.compactMap { entry in
            guard let filter = entry.filter, let reason = filter.response.setUpMistake else { return nil }
            return FilterMistake(filter: filter, reason: reason)
        }
    }
}

extension MockResponse {
    /// Why every request this response answers fails, when that shows without a request; for a
    /// sequence, the first such response in it, named by its place. Walks nested sequences with
    /// a list of its own, not by recursion.
    var setUpMistake: String? {
        var pending: [(response: MockResponse, place: String)] = [(self, "")]
        while let (response, place) = pending.popLast() {
            switch response.content {
            case .unbuildable(let reason):
                return place + reason
            case .failure(let error):
                if let mistake = error as? RequestMockerError, case .notAFileURL = mistake {
                    return place + mistake.description
                }
            case .sequence(let sequence):
                for (index, step) in sequence.steps.enumerated().reversed() {
                    pending.append((step.response, place + "response \(index + 1) of its sequence: "))
                }
            default:
                break
            }
        }
        return nil
    }
}
