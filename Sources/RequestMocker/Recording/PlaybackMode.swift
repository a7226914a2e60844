/// How fast recorded answers come back.
///
/// ```swift
/// try Cassette(contentsOf: url, playback: .chronological)   // as slow as when recorded
/// ```
public struct PlaybackMode: Sendable, Hashable, CustomStringConvertible {
    /// How many times faster than recorded; `nil` answers at once.
    public let speed: Double?

    /// Answers at once. The default.
    public static let momentary = PlaybackMode(speed: nil)

    /// Keeps the recorded timings: each answer takes as long as it took when it was recorded
    /// (the HAR entry's `time`). Requests sent together therefore complete in the order they
    /// did when recorded, but no answer waits for a request recorded earlier to be sent, so a
    /// test that sends its requests in another order doesn't stall.
    public static let chronological = PlaybackMode(speed: 1)

    /// Keeps the recorded timings, sped up `speed` times (`2` answers twice as fast). A speed
    /// that is zero, negative or not finite answers at once; speeds below 0.001 count as 0.001.
    public static func chronological(speed: Double) -> PlaybackMode {
        PlaybackMode(speed: speed.isFinite && speed > 0 ? max(speed, 0.001) : nil)
    }

    public var description: String {
        guard let speed else { return "momentary" }
        return speed == 1 ? "chronological" : "chronological(speed: \(speed))"
    }

    /// The delay for an answer that took `duration` when recorded, at most a year (as for
    /// ``MockResponse/delayed(by:)``).
    func delay(forRecorded duration: Duration) -> Duration {
        guard let speed else { return .zero }
        return min(duration / speed, .seconds(365 * 24 * 3600))
    }
}
