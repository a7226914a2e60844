import Foundation
import RequestMockerTesting
import Testing
import WeatherAPI

/// Swift Testing: the `.mocking` trait gives every test its own registry, `MockRegistry.current`,
/// with the suite's filters; `MockRegistry.current.session` is a session it answers. Tests run
/// in parallel, and each one's filters stay its own.
@Suite(
    .mocking {
        $0.register(
            .get("https://weather.example.com/v1/forecast").query(["city": "Paris"]),
            respond: .json(["city": "Paris", "temperature": 21.5, "conditions": "sunny"])
        )
    }
)
struct WeatherClientTests {
    /// A client on this test's own registry.
    private var client: WeatherClient {
        WeatherClient(session: MockRegistry.current.session, baseURL: TestServer.baseURL)
    }

    @Test func decodesTheForecast() async throws {
        let forecast = try await client.forecast(for: "Paris")

        #expect(forecast == Forecast(city: "Paris", temperature: 21.5, conditions: "sunny"))
        MockRegistry.current.assertRequested(.get("/v1/forecast").query(["city": "Paris"]), times: 1)
    }

    /// A test's own `.mocking` filters are tried before the suite's, so this one overrides the
    /// suite-wide answer. `.expected()` fails the test if no request reaches it.
    @Test(
        .mocking {
            $0.register(.get("https://weather.example.com/v1/forecast").expected(), respond: .status(503))
        }
    )
    func aServerErrorIsATypedError() async throws {
        let weather = client
        await #expect(throws: WeatherError.unexpectedStatus(503)) {
            try await weather.forecast(for: "Paris")
        }
    }

    /// Filters the test body registers come after the trait's; a block computes each answer from
    /// the request. Each case of a parameterized test gets a registry of its own.
    @Test(arguments: ["Oslo", "Lima"])
    func answersAnyCityFromABlock(city: String) async throws {
        MockRegistry.current.register(.get("https://weather.example.com/v1/forecast")) { request, _ in
            let name = request.queryItems.first { $0.name == "city" }?.value ?? ""
            return .json(["city": .string(name), "temperature": 9, "conditions": "windy"])
        }

        let forecast = try await client.forecast(for: city)

        #expect(forecast == Forecast(city: city, temperature: 9, conditions: "windy"))
    }

    /// A body the client can't decode surfaces as the decoder's error, not as a status.
    @Test(.mocking { $0.register(.get("/v1/forecast"), respond: .json(["city": "Paris"])) })
    func anIncompleteBodyIsADecodingError() async throws {
        let weather = client
        await #expect(throws: DecodingError.self) {
            try await weather.forecast(for: "Paris")
        }
    }
}
