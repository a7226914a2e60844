/// An ordered list of HTTP header fields with case-insensitive lookup.
///
/// Keeps every field in the order it was added, repeated names included (`Set-Cookie` may
/// appear several times), and keeps each name's spelling.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers.add("Set-Cookie", "a=1")
/// headers.add("Set-Cookie", "b=2")
/// headers["content-type"]           // "application/json"
/// headers.values(for: "set-cookie") // ["a=1", "b=2"]
/// ```
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The field's name, compared without regard to letter case.
        public var name: Name
        /// The field's value, as sent.
        public var value: String

        /// A field with this name and value.
        public init(name: Name, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in order.
    public private(set) var fields: [Field]

    /// Creates headers from fields, in order.
    public init(_ fields: [Field] = []) {
        self.fields = fields
    }

    public init(dictionaryLiteral elements: (Name, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// Creates headers from a dictionary (for example `HTTPURLResponse.allHeaderFields` or
    /// `URLRequest.allHTTPHeaderFields`), sorted by name so the order is stable.
    public init(_ dictionary: [String: String]) {
        guard dictionary.count > 1 else {
            fields = dictionary.map { Field(name: Name($0.key), value: $0.value) }
            return
        }
        fields = dictionary.sorted { $0.key < $1.key }.map { Field(name: Name($0.key), value: $0.value) }
    }

    /// The first value for `name` (compared case-insensitively); setting replaces every field
    /// with that name, and setting `nil` removes them.
    public subscript(name: Name) -> String? {
        get { fields.first { $0.name == name }?.value }
        set {
            if let newValue {
                replace(name, with: newValue)
            } else {
                remove(name)
            }
        }
    }

    /// Whether `value` can go out as a field value (RFC 9110 §5.5): no carriage return, line
    /// feed or NUL, the bytes that would end the line or the string.
    ///
    /// ```swift
    /// HTTPHeaders.isValidValue("text/html; charset=utf-8")  // true
    /// HTTPHeaders.isValidValue("a\r\nSet-Cookie: x=1")      // false
    /// ```
    public static func isValidValue(_ value: String) -> Bool {
        !value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }

    /// Every value for `name`, in order.
    public func values(for name: Name) -> [String] {
        fields.filter { $0.name == name }.map(\.value)
    }

    /// Whether a field named `name` is present.
    public func contains(_ name: Name) -> Bool {
        fields.contains { $0.name == name }
    }

    /// Makes room for `count` fields in all, so that adding up to that many allocates once.
    package mutating func reserveCapacity(_ count: Int) {
        fields.reserveCapacity(count)
    }

    /// Appends a field, keeping any earlier field of the same name.
    public mutating func add(_ name: Name, _ value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Replaces every field named `name` with one field, in the place of the first.
    public mutating func replace(_ name: Name, with value: String) {
        if let first = fields.firstIndex(where: { $0.name == name }) {
            fields[first].value = value
            var index = fields.index(after: first)
            while index < fields.endIndex {
                if fields[index].name == name {
                    fields.remove(at: index)
                } else {
                    index += 1
                }
            }
        } else {
            fields.append(Field(name: name, value: value))
        }
    }

    /// Appends `text` to the last field's value, after a space (an obsolete folded header line).
    mutating func continueLastValue(_ text: String) {
        guard !fields.isEmpty else { return }
        fields[fields.count - 1].value += " " + text
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: Name) {
        fields.removeAll { $0.name == name }
    }

    /// A copy without the fields named in `names`.
    package func removing(_ names: [Name]) -> HTTPHeaders {
        HTTPHeaders(fields.filter { !names.contains($0.name) })
    }

    /// The fields as a dictionary for `HTTPURLResponse`: repeated names are joined with `", "`,
    /// and the first spelling of a name is kept.
    public var dictionary: [String: String] {
        if fields.count == 1 { return [fields[0].name.rawValue: fields[0].value] }
        var result: [String: String] = [:]
        var spelling: [String: String] = [:]
        for field in fields {
            let key = field.name.rawValue.lowercased()
            if let name = spelling[key], let existing = result[name] {
                result[name] = existing + ", " + field.value
            } else {
                spelling[key] = field.name.rawValue
                result[field.name.rawValue] = field.value
            }
        }
        return result
    }

    public var isEmpty: Bool { fields.isEmpty }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }
}

extension HTTPHeaders {
    /// A header field name. Names compare without regard to case (RFC 9110 §5.1) and keep the
    /// spelling they were written with; the common ones have constants.
    ///
    /// ```swift
    /// headers[.contentType]          // the same as headers["content-type"]
    /// let name = HTTPHeaders.Name(userInput)
    /// ```
    public struct Name: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
        /// The name as written.
        public let rawValue: String

        /// A name, spelled as given.
        public init(_ rawValue: String) {
            self.rawValue = rawValue
        }

        public init(stringLiteral rawValue: String) {
            self.init(rawValue)
        }

        public static func == (lhs: Name, rhs: Name) -> Bool {
            lhs.rawValue.caseInsensitiveEquals(rhs.rawValue)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(rawValue.lowercased())
        }

        public var description: String { rawValue }

        /// Whether `name` is a token (RFC 9110 §5.1): one or more letters, digits and
        /// the marks `!#$%&'*+-.^_|~` and the backtick, so it can't end a line or carry another
        /// header.
        ///
        /// ```swift
        /// HTTPHeaders.Name.isValid("X-Request-ID")  // true
        /// HTTPHeaders.Name.isValid("X\r\nEvil")     // false
        /// ```
        public static func isValid(_ name: String) -> Bool {
            !name.isEmpty && name.utf8.allSatisfy(\.isTokenCharacter)
        }

        public static let accept: Name = "Accept"
        public static let authorization: Name = "Authorization"
        public static let cacheControl: Name = "Cache-Control"
        public static let connection: Name = "Connection"
        public static let contentEncoding: Name = "Content-Encoding"
        public static let contentLength: Name = "Content-Length"
        public static let contentLocation: Name = "Content-Location"
        public static let contentType: Name = "Content-Type"
        public static let cookie: Name = "Cookie"
        public static let expect: Name = "Expect"
        public static let host: Name = "Host"
        public static let location: Name = "Location"
        public static let origin: Name = "Origin"
        public static let setCookie: Name = "Set-Cookie"
        public static let secWebSocketAccept: Name = "Sec-WebSocket-Accept"
        public static let secWebSocketKey: Name = "Sec-WebSocket-Key"
        public static let secWebSocketProtocol: Name = "Sec-WebSocket-Protocol"
        public static let secWebSocketVersion: Name = "Sec-WebSocket-Version"
        public static let transferEncoding: Name = "Transfer-Encoding"
        public static let upgrade: Name = "Upgrade"
        public static let userAgent: Name = "User-Agent"
        public static let wwwAuthenticate: Name = "WWW-Authenticate"

        /// The fields that frame a message body on the wire (RFC 9112 §6). A body held whole
        /// loses them, and whoever sends it on frames it again.
        static let framing: [Name] = [.contentLength, .transferEncoding]

        /// The framing fields and `Content-Encoding`: what a body loses once it is held
        /// decoded, as a recorded or forwarded body is.
        static let framingAndCoding: [Name] = framing + [.contentEncoding]

        /// The fields that describe one connection and are not forwarded (RFC 9110 §7.6.1), with
        /// `Proxy-Connection`, which some clients still send.
        static let hopByHop: [Name] = [
            .connection, "Keep-Alive", "Proxy-Connection", "TE", "Trailer", .transferEncoding, .upgrade,
        ]
    }

    /// The fields a forwarder sends on: without the hop-by-hop ones, and without those the
    /// `Connection` field names.
    package func endToEnd() -> HTTPHeaders {
        let named = values(for: .connection).flatMap(Self.listElements).map { Name($0) }
        return removing(Name.hopByHop + named)
    }

    /// The elements of a comma-separated field value (RFC 9110 §5.6.1), without the spaces and
    /// tabs around them; empty elements are left out.
    package static func listElements(_ value: String) -> [String] {
        // Over the UTF-8 bytes: splitting on the Character "," compares grapheme clusters, and
        // this runs for every relayed response. Commas and whitespace are ASCII, so the bounds
        // fall on characters.
        func isWhitespace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        var elements: [String] = []
        for element in value.utf8.split(separator: UInt8(ascii: ",")) {
            var start = element.startIndex
            var end = element.endIndex
            while start < end, isWhitespace(element[start]) { start = element.index(after: start) }
            while start < end, isWhitespace(element[element.index(before: end)]) { end = element.index(before: end) }
            if start < end { elements.append(String(value[start..<end])) }
        }
        return elements
    }

    /// Whether the comma-separated values of `name` hold `token`, compared case-insensitively
    /// (`Connection: keep-alive, Close` holds `close`).
    package func contains(token: String, in name: Name) -> Bool {
        values(for: name).contains { Self.listElements($0).contains { $0.caseInsensitiveEquals(token) } }
    }
}

extension HTTPHeaders: Sequence {
    public func makeIterator() -> IndexingIterator<[Field]> {
        fields.makeIterator()
    }
}

extension String {
    /// The host as a URL or a `Host` field writes it: an IPv6 address in brackets (`::1` gives
    /// `[::1]`), anything else as it is. (Over UTF-8: with Foundation imported, `contains(":")`
    /// goes through `NSString`, which showed on the request path.)
    package var bracketedIfIPv6: String {
        utf8.contains(UInt8(ascii: ":")) && !hasPrefix("[") ? "[\(self)]" : self
    }

    /// ASCII case-insensitive equality, which is what HTTP field names and hosts need; cheaper
    /// than `caseInsensitiveCompare` because it allocates nothing.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        let lhs = utf8
        let rhs = other.utf8
        guard lhs.count == rhs.count else { return false }
        return zip(lhs, rhs).allSatisfy { a, b in
            a == b || (a | 0x20 == b | 0x20 && (a | 0x20) >= 0x61 && (a | 0x20) <= 0x7A)
        }
    }
}

extension UInt8 {
    /// RFC 9110's `tchar`: a byte a token (a header name, a method) may hold.
    package var isTokenCharacter: Bool {
        // Spelled out rather than searched for in a string: this runs for every byte of every
        // header name a server reads.
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "a")...UInt8(ascii: "z"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
