import Foundation
import RequestMockerTesting
import Testing
import WeatherAPI

/// Plays back `Cassettes/forecast.har`, a HAR 1.2 file (written by hand here; a cassette in
/// record mode `.once` writes one from the real server on its first run). Record mode `.none`
/// only plays back: it never touches the network and never writes the file, so a request it has
/// no recording for fails instead. (`REQUEST_MOCKER_RECORD_MODE` in the environment overrides
/// every cassette's mode; leave it unset here.)
struct CassetteTests {
    /// `Cassettes/forecast.har` from the test bundle, opened to play back only.
    static func forecastCassette() throws -> Cassette {
        let url = try #require(
            Bundle.module.url(forResource: "forecast", withExtension: "har", subdirectory: "Cassettes"))
        return try Cassette(contentsOf: url, record: .none)
    }

    @Test func playsBackTheRecordedForecast() async throws {
        let cassette = try Self.forecastCassette()

        let forecast = try await MockRegistry().withCassette(cassette) { session in
            try await WeatherClient(session: session, baseURL: TestServer.baseURL).forecast(for: "London")
        }

        #expect(forecast == Forecast(city: "London", temperature: 14.5, conditions: "cloudy"))
        #expect(cassette.allPlayed)
    }

    /// The recording is of `city=London` (the default matchers compare method, scheme, host,
    /// port, path and query), so `city=Tokyo` has none and fails, offline.
    @Test func aRequestWithoutARecordingFails() async throws {
        let cassette = try Self.forecastCassette()

        await #expect(throws: RequestMockerError.self) {
            try await MockRegistry().withCassette(cassette) { session in
                try await WeatherClient(session: session, baseURL: TestServer.baseURL).forecast(for: "Tokyo")
            }
        }
        #expect(cassette.playedCount == 0)
    }

    /// The same cassette, registered by the `.mocking` trait: `MockRegistry.current.session`
    /// plays it back.
    @Test(.mocking { try $0.register(CassetteTests.forecastCassette()) })
    func playsBackThroughTheMockingTrait() async throws {
        let client = WeatherClient(session: MockRegistry.current.session, baseURL: TestServer.baseURL)

        let forecast = try await client.forecast(for: "London")

        #expect(forecast.conditions == "cloudy")
    }
}
