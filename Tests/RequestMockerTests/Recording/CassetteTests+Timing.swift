import Foundation
import RequestMockerTestSupport
import Testing

@testable import RequestMocker

/// Time in the cassette: a request that timed out isn't recorded, and chronological playback
/// keeps the recorded pace.
extension CassetteTests {
    @Test("a request that times out on our side is relayed as a timeout but not recorded")
    func timeoutsAreNotRecorded() async throws {
        let cassette = try openCassette(file)
        let error = await #expect(throws: URLError.self) {
            try await MockRegistry().withCassette(cassette) { session in
                // `/hang` answers after an hour, so under any load the 0.1 s timeout comes first
                // (with `/slow`'s 0.3 s, a timer that fired late let the answer be recorded).
                var hanging = request("/hang")
                hanging.timeoutInterval = 0.1
                _ = try await session.data(for: hanging)
            }
        }
        #expect(error?.code == .timedOut)
        #expect(cassette.interactions.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test("chronological playback takes as long as the recording did")
    func chronological() async throws {
        try await MockRegistry().withCassette(try openCassette(file)) { session in
            _ = try await session.data(for: request("/slow"))
        }
        let recorded = try #require(try openCassette(file).interactions.first?.duration)
        #expect(recorded >= .milliseconds(300))
        server.stop()
        for (mode, minimum) in [(PlaybackMode.chronological, recorded), (.chronological(speed: 2), recorded / 2)] {
            let registry = MockRegistry()
            registry.register(try openCassette(file, playback: mode))
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await registry.makeSession().data(for: request("/slow"))
            #expect(start.duration(to: clock.now) >= minimum, "\(mode)")
        }
        #expect(PlaybackMode.momentary.delay(forRecorded: recorded) == .zero)
        #expect(PlaybackMode.chronological(speed: 0) == .momentary)
    }
}
