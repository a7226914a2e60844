// Everything in MockURLProtocol that differs between FoundationNetworking (Linux) and Apple's
// Foundation lives here, because it leans on how each one schedules URL protocols.

import Dispatch

extension MockURLProtocol {
    #if canImport(FoundationNetworking)
        /// Linux: the client may only be called on the task's own queue. Resuming a running task
        /// makes FoundationNetworking call `startLoading` again there, and the state machine then
        /// delivers the answer that is ready. `resume()` on a cancelled or finished task does nothing.
        ///
        /// The wake is called from a Swift task (the work's, or the timeout's), and `resume()`
        /// waits on the one serial queue every session of the process shares, however long its
        /// backlog is: on a thread of the cooperative pool, which has as many threads as cores,
        /// that wait holds back every task of the process (measured: under load, a test suite's
        /// servers stopped answering for tens of seconds). So it waits elsewhere: on one serial
        /// queue of the library's, whose thread is Dispatch's overcommitting kind. Not on
        /// `DispatchQueue.global()`: on Linux that is the root queue Swift's cooperative threads
        /// come from, and each wake blocked there took a thread from it (measured: with two
        /// blocked, a task waited a second for Dispatch to add one). One queue is enough: the
        /// wakes would wait their turn on FoundationNetworking's one queue anyway.
        func makeWake() -> @Sendable () -> Void {
            let task = task
            let delivery = delivery
            return {
                Self.wakes.async {
                    // A task the user suspended meanwhile is left alone: its `stopLoading` keeps
                    // the answer, and the user's own `resume()` delivers it. (The state is read
                    // just before: a `suspend()` between the two still meets a `resume()`.)
                    guard let task, task.state == .running, delivery.expectsDelivery else { return }
                    task.resume()
                }
            }
        }

        /// Where wakes call `resume()`, one after another.
        private static let wakes = DispatchQueue(label: "RequestMocker.wakes")

        /// FoundationNetworking force-unwraps a temporary file only its own HTTP protocol can set.
        static let failsDownloadTasks = true

        /// Whether URL loading hands every `didLoad` to the caller. FoundationNetworking does so
        /// only for a task whose session delegate receives its data (`dataTask(with:)` on a session
        /// with a delegate); a completion-handler or `async` task keeps the last piece alone
        /// (`_ProtocolClient.urlProtocol(_:didLoad:)` overwrites the data it holds). A protocol
        /// can't ask which kind a task is, so this reads the session's task registry, where
        /// FoundationNetworking files each task's kind, by reflection. Where that finds nothing (a
        /// FoundationNetworking laid out differently) the body goes whole, which every kind of task
        /// receives correctly. Called on the task's work queue, the one that registry belongs to.
        var keepsEveryPiece: Bool {
            guard let task,
                let session = Self.storedProperty("session", of: task) as? URLSession,
                session.delegate is URLSessionDataDelegate,
                let registry = Self.storedProperty("taskRegistry", of: session),
                let kinds = Self.storedProperty("behaviours", of: registry) as? [Int: Any],
                let kind = kinds[task.taskIdentifier]
            else { return false }
            return "\(kind)" == "callDelegate"
        }

        private static func storedProperty(_ name: String, of subject: Any) -> Any? {
            var mirror: Mirror? = Mirror(reflecting: subject)
            while let current = mirror {
                if let child = current.children.first(where: { $0.label == name }) { return child.value }
                mirror = current.superclassMirror
            }
            return nil
        }

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
        /// Apple platforms: the answer is delivered on the client thread, the one that called
        /// `startLoading`, in the run loop mode it was called in (and the default mode), through
        /// `perform(_:on:with:waitUntilDone:modes:)`, which queues the call on that thread's run
        /// loop from any thread.
        ///
        /// Why there, and not on the thread the answer became ready on: URL loading calls
        /// `startLoading` and `stopLoading` on the client thread, and Apple's guidance for
        /// `URLProtocol` subclasses (the CustomHTTPProtocol sample's notes) is to call
        /// `URLProtocolClient` on that thread too.
        /// Every delivery and `stopLoading` then run one after another on one thread, so a
        /// cancellation can't come between `DeliveryState` handing out an answer and the client
        /// receiving it, and a streamed body's pieces, its end and its timeout never overlap. A
        /// wake that arrives after the client thread ended is dropped by the run loop; by then
        /// the task is over. Reasoned from Apple's documentation: not run on this Linux machine.
        func makeWake() -> @Sendable () -> Void {
            let call = ClientThreadCall(self)
            return { call.schedule() }
        }

        static let failsDownloadTasks = false

        /// Apple's URL loading hands every piece to every kind of task.
        var keepsEveryPiece: Bool { true }

        static func platformHeaders(of response: ResolvedResponse) -> [String: String] {
            response.headerDictionary
        }
    #endif

    /// The name a 401's Basic challenge is delivered under on Linux.
    public static let renamedAuthenticateHeader = "X-RequestMocker-WWW-Authenticate"
}

/// What the platform's URL loading does to a request on its way out and on a redirect, where
/// the two platforms differ.
enum URLLoadingRules {
    /// How the request after a redirect differs from the one before: its method, and whether the
    /// body goes along.
    struct Redirect: Equatable {
        let method: HTTPMethod
        let keepsBody: Bool
        /// Whether the fields describing the dropped body (`Content-Type` and others) go too.
        let dropsBodyFields: Bool
    }

    #if canImport(FoundationNetworking)
        // Measured with FoundationNetworking 6.3.1 against a real server (RedirectParityTests,
        // which compares each case). It sends no body after any redirect, 307 and 308 included
        // (RFC 9110 §15.4.8 says those keep it), and keeps every header field.

        /// The session adds the stored cookies to a task's request when it makes the task
        /// (`URLSession._Configuration.setCookies(on:)`), so the request a URL protocol starts
        /// with carries them already; only a followed redirect needs them added.
        static let requestCarriesStoredCookies = true

        /// Whether the loader adds and stores cookies for `request`: always, as
        /// FoundationNetworking ignores `httpShouldHandleCookies` both ways (it reads only the
        /// configuration's settings).
        static func handlesCookies(_ request: URLRequest) -> Bool { true }

        /// libcurl sends `Content-Length: 0` for every method but `GET` and `HEAD` without a
        /// body (measured: `POST`, `PUT`, `DELETE`, `PATCH`, `OPTIONS`, `TRACE`, an extension).
        static func sendsEmptyLength(for method: HTTPMethod) -> Bool {
            method != .get && method != .head
        }

        static func redirect(_ method: HTTPMethod, status: HTTPStatus) -> Redirect {
            let becomesGET =
                status == .seeOther || ((status == .movedPermanently || status == .found) && method == .post)
            return Redirect(method: becomesGET ? .get : method, keepsBody: false, dropsBodyFields: false)
        }
    #else
        // Apple platforms: the Fetch standard's rules (a redirect's method and body, §4.4),
        // which Apple's URL loading is documented to follow; unmeasured, as no Mac runs the
        // tests here.

        /// The HTTP loader adds the stored cookies as it sends a request, so a URL protocol's
        /// request has none yet; the protocol adds them, as the loader would.
        static let requestCarriesStoredCookies = false

        /// Whether the loader adds and stores cookies for `request`: not when the request turned
        /// them off (`httpShouldHandleCookies`, documented as both sending and storing them).
        static func handlesCookies(_ request: URLRequest) -> Bool { request.httpShouldHandleCookies }

        static func sendsEmptyLength(for method: HTTPMethod) -> Bool { false }

        static func redirect(_ method: HTTPMethod, status: HTTPStatus) -> Redirect {
            let becomesGET =
                ((status == .movedPermanently || status == .found) && method == .post)
                || (status == .seeOther && method != .get && method != .head)
            return becomesGET
                ? Redirect(method: .get, keepsBody: false, dropsBodyFields: true)
                : Redirect(method: method, keepsBody: true, dropsBodyFields: false)
        }
    #endif
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
    /// Carries the protocol instance to its client thread (Apple only).
    private final class ClientThreadCall: NSObject, @unchecked Sendable {
        // @unchecked Sendable: made on the client thread in `startLoading`; other threads only
        // call `schedule()`, which reads the constants below and asks the thread to run
        // `deliver()`, so the protocol itself is only ever touched on its client thread.
        private let value: MockURLProtocol
        private let thread: Thread
        private let modes: [String]

        init(_ value: MockURLProtocol) {
            self.value = value
            thread = Thread.current
            let current = RunLoop.current.currentMode ?? .default
            modes = current == .default ? [current.rawValue] : [current.rawValue, RunLoop.Mode.default.rawValue]
        }

        func schedule() {
            perform(#selector(deliver), on: thread, with: nil, waitUntilDone: false, modes: modes)
        }

        @objc private func deliver() {
            value.deliverReady()
        }
    }
#endif
