/// An HTTP response status: its code, reason phrase and class.
///
/// An open set, like ``HTTPMethod``: the common codes have names, any other is written as an
/// integer literal.
///
/// ```swift
/// registry.register(.delete("/users/<id>"), respond: .status(.noContent))
/// registry.register(.get("/teapot"), respond: .status(418))
/// let status: HTTPStatus = 503
/// status.kind            // .serverError
/// status.reasonPhrase    // "Service Unavailable"
/// ```
///
/// Any integer is kept as given; a transport writes what it is given, so a test can send a
/// server's odd codes too.
public struct HTTPStatus: Hashable, Sendable, ExpressibleByIntegerLiteral, CustomStringConvertible {
    /// The three-digit code.
    public let code: Int

    /// The status with this code.
    public init(_ code: Int) {
        self.code = code
    }

    /// The status with this code, written as a number: `let created: HTTPStatus = 201`.
    public init(integerLiteral code: Int) {
        self.init(code)
    }

    /// The class of a status, from its first digit (RFC 9110 §15).
    public enum Kind: Sendable, Hashable {
        /// 1xx
        case informational
        /// 2xx
        case successful
        /// 3xx
        case redirection
        /// 4xx
        case clientError
        /// 5xx
        case serverError
        /// Outside 100–599.
        case invalid
    }

    /// The class of this status.
    public var kind: Kind {
        switch code {
        case 100..<200: .informational
        case 200..<300: .successful
        case 300..<400: .redirection
        case 400..<500: .clientError
        case 500..<600: .serverError
        default: .invalid
        }
    }

    /// The standard reason phrase (RFC 9110 §15), or an empty string for a code without one.
    public var reasonPhrase: String {
        switch code {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 203: "Non-Authoritative Information"
        case 204: "No Content"
        case 205: "Reset Content"
        case 206: "Partial Content"
        case 300: "Multiple Choices"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 402: "Payment Required"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 414: "URI Too Long"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 417: "Expectation Failed"
        case 418: "I'm a teapot"
        case 422: "Unprocessable Content"
        case 425: "Too Early"
        case 426: "Upgrade Required"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 451: "Unavailable For Legal Reasons"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 505: "HTTP Version Not Supported"
        default: ""
        }
    }

    /// Whether a response with this status never has a body (RFC 9110 §6.4.1): 1xx, `204` and
    /// `304`.
    package var forbidsBody: Bool {
        kind == .informational || self == .noContent || self == .notModified
    }

    /// `404 Not Found`.
    public var description: String {
        reasonPhrase.isEmpty ? String(code) : "\(code) \(reasonPhrase)"
    }

    public static let `continue` = HTTPStatus(100)
    public static let switchingProtocols = HTTPStatus(101)
    public static let ok = HTTPStatus(200)
    public static let created = HTTPStatus(201)
    public static let accepted = HTTPStatus(202)
    public static let nonAuthoritativeInformation = HTTPStatus(203)
    public static let noContent = HTTPStatus(204)
    public static let resetContent = HTTPStatus(205)
    public static let partialContent = HTTPStatus(206)
    public static let multipleChoices = HTTPStatus(300)
    public static let movedPermanently = HTTPStatus(301)
    public static let found = HTTPStatus(302)
    public static let seeOther = HTTPStatus(303)
    public static let notModified = HTTPStatus(304)
    public static let temporaryRedirect = HTTPStatus(307)
    public static let permanentRedirect = HTTPStatus(308)
    public static let badRequest = HTTPStatus(400)
    public static let unauthorized = HTTPStatus(401)
    public static let paymentRequired = HTTPStatus(402)
    public static let forbidden = HTTPStatus(403)
    public static let notFound = HTTPStatus(404)
    public static let methodNotAllowed = HTTPStatus(405)
    public static let notAcceptable = HTTPStatus(406)
    public static let requestTimeout = HTTPStatus(408)
    public static let conflict = HTTPStatus(409)
    public static let gone = HTTPStatus(410)
    public static let lengthRequired = HTTPStatus(411)
    public static let preconditionFailed = HTTPStatus(412)
    public static let contentTooLarge = HTTPStatus(413)
    public static let uriTooLong = HTTPStatus(414)
    public static let unsupportedMediaType = HTTPStatus(415)
    public static let rangeNotSatisfiable = HTTPStatus(416)
    public static let expectationFailed = HTTPStatus(417)
    public static let imATeapot = HTTPStatus(418)
    public static let unprocessableContent = HTTPStatus(422)
    public static let tooEarly = HTTPStatus(425)
    public static let upgradeRequired = HTTPStatus(426)
    public static let preconditionRequired = HTTPStatus(428)
    public static let tooManyRequests = HTTPStatus(429)
    public static let requestHeaderFieldsTooLarge = HTTPStatus(431)
    public static let unavailableForLegalReasons = HTTPStatus(451)
    public static let internalServerError = HTTPStatus(500)
    public static let notImplemented = HTTPStatus(501)
    public static let badGateway = HTTPStatus(502)
    public static let serviceUnavailable = HTTPStatus(503)
    public static let gatewayTimeout = HTTPStatus(504)
    public static let httpVersionNotSupported = HTTPStatus(505)
}
