extension URLError {
    /// What went wrong, in words: FoundationNetworking gives most errors no description of
    /// their own ("The operation could not be completed").
    package var reason: String {
        let words: String? =
            switch code {
            case .timedOut: "the request timed out"
            case .cannotConnectToHost: "could not connect to the server"
            case .cannotFindHost, .dnsLookupFailed: "the server's host name was not found"
            case .networkConnectionLost: "the connection was lost"
            case .badServerResponse: "the server's response was not HTTP"
            case .notConnectedToInternet: "not connected to the network"
            case .secureConnectionFailed: "the TLS connection failed"
            default: nil
            }
        return "\(words ?? localizedDescription) (URLError \(code.rawValue))"
    }
}
