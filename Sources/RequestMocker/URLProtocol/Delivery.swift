/// What a request finally gets: a response for a URL, or an error.
enum Delivery: Sendable {
    case response(ResolvedResponse, url: URL)
    case failure(any Error)
}
