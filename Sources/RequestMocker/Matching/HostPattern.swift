/// A host condition, parsed once when a filter or host filter is made: a name or a `*.`
/// suffix, and a port when one is given.
///
/// - `example.com` matches that host only, in any letter case;
/// - `*.example.com` matches any subdomain of `example.com`, not `example.com` itself;
/// - `example.com:8080` also requires the port, where the scheme's default port counts
///   (`example.com:443` matches `https://example.com`);
/// - `[::1]:8080` is an IPv6 address with a port; `::1` without brackets has no port.
struct HostPattern: Sendable, Hashable, CustomStringConvertible {
    /// The host as written, lower-cased.
    let description: String
    /// The name to compare, lower-cased and without brackets; for a wildcard, the suffix
    /// including its dot (`.example.com`).
    private let name: String
    private let isWildcard: Bool
    private let port: Int?

    init(_ text: String) {
        let lowered = text.lowercased()
        description = lowered
        var name = lowered
        var port: Int?
        if lowered.hasPrefix("["), let close = lowered.firstIndex(of: "]") {
            name = String(lowered[lowered.index(after: lowered.startIndex)..<close])
            let rest = lowered[lowered.index(after: close)...]
            port = rest.hasPrefix(":") ? Int(rest.dropFirst()) : nil
        } else if lowered.count(where: { $0 == ":" }) == 1, let colon = lowered.firstIndex(of: ":"),
            let number = Int(lowered[lowered.index(after: colon)...])
        {
            name = String(lowered[..<colon])
            port = number
        }
        isWildcard = name.hasPrefix("*.")
        self.name = isWildcard ? String(name.dropFirst()) : name
        self.port = port
    }

    /// The host a filter is filed under in the registry's index: its name, unless it is a
    /// `*.` wildcard (filed for any host, and checked per request).
    var indexName: String? { isWildcard ? nil : name }

    /// A request's host as ``indexName`` spells hosts: lower case, without brackets.
    static func indexName(of request: MockRequest) -> String? {
        guard var host = request.url.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        return host.lowercased()
    }

    /// Whether `request`'s host (and port, when the pattern has one) fits: the same name in any
    /// letter case, or for `*.example.com` any name that ends in `.example.com`.
    func matches(_ request: MockRequest) -> Bool {
        guard var host = request.url.host, !host.isEmpty else { return false }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        if let port, request.port != port { return false }
        guard isWildcard else { return host.caseInsensitiveEquals(name) }
        let lowered = host.lowercased()
        return lowered.count > name.count && lowered.hasSuffix(name)
    }
}
