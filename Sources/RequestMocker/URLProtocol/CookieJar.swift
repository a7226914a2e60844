import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A session configuration's cookie settings, as its own HTTP loader applies them, for the
/// mocked requests of sessions made by ``MockRegistry/makeSession(configuration:delegate:delegateQueue:)``
/// or `URLSessionConfiguration.mocking(_:basedOn:)`: a mocked response's `Set-Cookie` is stored
/// in the configuration's `httpCookieStorage` unless its `httpCookieAcceptPolicy` is `never`,
/// and requests carry the stored cookies while `httpShouldSetCookies` is on.
///
/// @unchecked Sendable: `HTTPCookieStorage` is thread-safe (every platform's URL loading calls it
/// from its own threads), though not every SDK marks it `Sendable`.
struct CookieJar: @unchecked Sendable {
    let storage: HTTPCookieStorage
    /// Whether response cookies are stored (`httpCookieAcceptPolicy` isn't `never`).
    let accepts: Bool
    /// Whether requests carry stored cookies (`httpShouldSetCookies`).
    let sends: Bool

    init(storage: HTTPCookieStorage, accepts: Bool, sends: Bool) {
        self.storage = storage
        self.accepts = accepts
        self.sends = sends
    }

    init?(_ configuration: URLSessionConfiguration) {
        guard let storage = configuration.httpCookieStorage else { return nil }
        self.storage = storage
        accepts = configuration.httpCookieAcceptPolicy != .never
        sends = configuration.httpShouldSetCookies
    }

    /// Stores the cookies `headers` set, for a response from `url`.
    func store(_ headers: HTTPHeaders, from url: URL) {
        guard accepts else { return }
        // One field at a time: the dictionary form holds one value per name.
        let cookies = headers.values(for: .setCookie).flatMap {
            HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": $0], for: url)
        }
        if !cookies.isEmpty { storage.setCookies(cookies, for: url, mainDocumentURL: nil) }
    }

    /// The `Cookie` field for a request to `url` from the stored cookies, or `nil` when none
    /// apply or requests don't carry them.
    func field(for url: URL) -> String? {
        guard sends, let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        let value = HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
        return value?.isEmpty == false ? value : nil
    }
}
