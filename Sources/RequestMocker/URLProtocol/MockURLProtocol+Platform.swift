// Everything in MockURLProtocol that differs between FoundationNetworking (Linux) and Apple's
// Foundation lives here, because it leans on how each one schedules URL protocols.

extension MockURLProtocol {
    #if canImport(FoundationNetworking)
        /// Linux: the client may only be called on the task's own queue. Resuming a running task
        /// makes FoundationNetworking call `startLoading` again there, and the state machine then
        /// delivers the answer that is ready. `resume()` on a cancelled or finished task does nothing.
        func makeWake() -> @Sendable () -> Void {
            let task = task
            return {
                // A task the user suspended meanwhile is left alone: its `stopLoading` keeps the
                // answer, and the user's own `resume()` delivers it.
                guard let task, task.state == .running else { return }
                task.resume()
            }
        }

        /// FoundationNetworking force-unwraps a temporary file only its own HTTP protocol can set.
        static let failsDownloadTasks = true

        /// A 401 whose `WWW-Authenticate` holds a Basic challenge sends FoundationNetworking (up to
        /// Swift 6.3.1) into its authentication path, which hangs without a credential and goes to
        /// the real network with one. The header is kept under another name.
        static func platformHeaders(of response: ResolvedResponse) -> [String: String] {
            guard response.status == .unauthorized else { return response.headerDictionary }
            var headers = response.headers
            let challenges = headers.values(for: .wwwAuthenticate)
            guard challenges.contains(where: { $0.range(of: "basic", options: .caseInsensitive) != nil }) else {
                return response.headerDictionary
            }
            headers.remove(.wwwAuthenticate)
            for challenge in challenges { headers.add(HTTPHeaders.Name(renamedAuthenticateHeader), challenge) }
            return headers.dictionary
        }
    #else
        /// Apple platforms: the client may be called from any thread, so the answer is delivered
        /// right where it became ready.
        func makeWake() -> @Sendable () -> Void {
            let instance = UncheckedProtocol(self)
            return { instance.value.deliverReady() }
        }

        static let failsDownloadTasks = false

        static func platformHeaders(of response: ResolvedResponse) -> [String: String] {
            response.headerDictionary
        }
    #endif

    /// The name a 401's Basic challenge is delivered under on Linux.
    public static let renamedAuthenticateHeader = "X-RequestMocker-WWW-Authenticate"
}

extension ConnectionFault {
    /// What each platform's HTTP loader reports when a real server breaks the same way.
    #if canImport(FoundationNetworking)
        // Measured with libcurl behind FoundationNetworking 6.3.1 (MockServerFaultTests pins them).
        static let platformCodes = (
            emptyReply: URLError.Code.badServerResponse,
            malformedStatusLine: URLError.Code.unsupportedURL,
            truncatedBody: URLError.Code.unknown
        )
    #else
        // Apple's loader, from its documentation; not measurable on this machine.
        static let platformCodes = (
            emptyReply: URLError.Code.networkConnectionLost,
            malformedStatusLine: URLError.Code.badServerResponse,
            truncatedBody: URLError.Code.networkConnectionLost
        )
    #endif
}

#if !canImport(FoundationNetworking)
    /// Carries the protocol instance to the thread its answer becomes ready on (Apple only).
    private struct UncheckedProtocol: @unchecked Sendable {
        // @unchecked Sendable: only `deliverReady()` is called through it, which touches nothing but
        // `DeliveryState` (locked) and the client, which Apple's Foundation lets any thread call.
        let value: MockURLProtocol
        init(_ value: MockURLProtocol) { self.value = value }
    }
#endif
