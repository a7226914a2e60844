import Foundation
import RequestMocker

extension AdminAPI {
    /// Why an admin call is refused, if it is. A web page the developer visits can send
    /// requests to loopback, so:
    /// - `Host` must be a loopback name or the address the server listens on: a page whose own
    ///   name was rebound to 127.0.0.1 (DNS rebinding) sends its name. A call with the token may
    ///   name any host.
    /// - `Origin`, which browsers send with a page's requests, must be the server's own.
    /// - A call that changes something needs `Content-Type: application/json`, which a form on
    ///   another site can't send (and a script can't without the preflight this server never
    ///   allows), or the token.
    /// - With a token, every call but the page's own `GET /__admin/` carries it as a bearer.
    static func refusal(
        of request: MockRequest, server: MockServer, admin: MockServer.Admin, isPage: Bool
    ) -> ResolvedResponse? {
        let hostField = request.headers[.host] ?? ""
        if let origin = request.headers[.origin] {
            let same = ["http://" + hostField.lowercased()]
            guard same.contains(origin.lowercased()) else {
                return error(
                    .forbidden,
                    "the admin API answers only its own page: this call comes from the web page at "
                        + "\(origin.debugDescription)")
            }
        }
        if let site = request.headers[.init("Sec-Fetch-Site")]?.lowercased(), site != "same-origin", site != "none" {
            return error(.forbidden, "the admin API answers only its own page: this call is \(site) (Sec-Fetch-Site)")
        }
        if isPage { return nil }
        let withToken = admin.token.map { authorized(request, token: $0) } ?? false
        if let host = request.url.host, !withToken, !MockServer.isLoopback(host),
            host.lowercased() != server.configuration.host.lowercased()
        {
            return error(
                .forbidden,
                "without the token the admin API answers only requests to a loopback host (localhost, 127.0.0.1) "
                    + "or the address it listens on; this one is to \(host)")
        }
        if admin.token != nil, !withToken {
            return error(
                .unauthorized, "the admin API needs the header Authorization: Bearer <the server's admin token>",
                headers: [("WWW-Authenticate", "Bearer")])
        }
        if !withToken, request.method != .get, request.method != .head,
            request.headers[.contentType]?.lowercased().hasPrefix("application/json") != true
        {
            return error(
                .unsupportedMediaType,
                "an admin call that changes something needs Content-Type: application/json (which a web page's "
                    + "form can't send), even without a body: curl -X \(request.method.rawValue) -H "
                    + "'Content-Type: application/json' …")
        }
        return nil
    }
}
