/// Whether a body is sent at full speed and in full (see ``MockResponse/throttled(bytesPerSecond:)``
/// and ``MockResponse/truncated(afterBytes:)``).
package struct BodyTransfer: Hashable, Sendable {
    /// The most body bytes sent per second; `nil` for no limit.
    package var bytesPerSecond: Int?
    /// How many body bytes are sent before the connection closes; `nil` for all of them.
    package var truncatedAfter: Int?

    static let whole = BodyTransfer()

    /// How long `count` bytes take at the limit.
    package func duration(of count: Int) -> Duration {
        guard let bytesPerSecond, bytesPerSecond > 0 else { return .zero }
        let sent = min(count, truncatedAfter ?? count)
        return .milliseconds(Int64(sent) * 1000 / Int64(bytesPerSecond))
    }
}
