/// An HTTP request method, always in upper case.
///
/// An open set modelled as a struct with static members, so any method a server understands
/// can be named, and the common ones read well at the call site:
///
/// ```swift
/// registry.register(RequestFilter(method: .post, path: "/users"), respond: .status(201))
/// let purge: HTTPMethod = "PURGE"
/// ```
///
/// Matching compares methods exactly; the initializer upper-cases its input, so `"get"` and
/// `.get` are the same method.
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The method's name, upper case.
    public let rawValue: String

    /// Creates a method from its name; the name is upper-cased.
    public init(rawValue: String) {
        // Methods nearly always arrive in upper case already: no new string for those.
        let isUpperCase = rawValue.utf8.allSatisfy { !(UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) }
        self.rawValue = isUpperCase ? rawValue : rawValue.uppercased()
    }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public var description: String { rawValue }

    public static let get: HTTPMethod = "GET"
    public static let head: HTTPMethod = "HEAD"
    public static let post: HTTPMethod = "POST"
    public static let put: HTTPMethod = "PUT"
    public static let patch: HTTPMethod = "PATCH"
    public static let delete: HTTPMethod = "DELETE"
    public static let options: HTTPMethod = "OPTIONS"
    public static let trace: HTTPMethod = "TRACE"
    public static let connect: HTTPMethod = "CONNECT"

    /// Whether sending the request twice has the effect of sending it once (RFC 9110, 9.2.2), so
    /// one that may have been lost on the way can be sent again.
    package var isIdempotent: Bool { Self.idempotent.contains(self) }

    private static let idempotent: Set<HTTPMethod> = [.get, .head, .put, .delete, .options, .trace]
}
