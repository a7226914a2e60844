/// Which hosts a cassette or recording folder handles; requests to other hosts are left to
/// the registry's next source (and its unmatched-request policy), neither played nor recorded.
///
/// ```swift
/// try Cassette(contentsOf: url, hosts: .only(["api.example.com", "*.cdn.example.com"]))
/// ```
public struct HostFilter: Sendable, CustomStringConvertible {
    private let test: @Sendable (MockRequest) -> Bool
    public let description: String

    /// Every host. The default.
    public static let all = HostFilter(description: "all hosts") { _ in true }

    /// Only these hosts, by the same rules as a ``RequestFilter``'s host: compared
    /// case-insensitively, `*.example.com` accepts subdomains of `example.com` (not
    /// `example.com` itself), and `example.com:8080` also requires the port.
    public static func only(_ hosts: [String]) -> HostFilter {
        let patterns = hosts.map(HostPattern.init)
        return HostFilter(description: "hosts \(hosts.joined(separator: ", "))") { request in
            patterns.contains { $0.matches(request) }
        }
    }

    /// Hosts for which `accepts` returns `true`; it receives the host lower-cased.
    public static func matching(_ accepts: @escaping @Sendable (String) -> Bool) -> HostFilter {
        HostFilter(description: "hosts accepted by a predicate") { accepts($0.host ?? "") }
    }

    private init(description: String, test: @escaping @Sendable (MockRequest) -> Bool) {
        self.description = description
        self.test = test
    }

    func accepts(_ request: MockRequest) -> Bool {
        test(request)
    }
}
