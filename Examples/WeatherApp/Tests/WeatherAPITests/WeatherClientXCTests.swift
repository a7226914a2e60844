import RequestMockerTesting
import WeatherAPI
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// XCTest: filters registered in `setUp`, a session from `registry.makeSession()`.
///
/// XCTest makes a new instance of this class for each test method, so each test gets its own
/// registry and session.
final class WeatherClientXCTests: XCTestCase {
    private var registry: MockRegistry!
    private var session: URLSession!

    override func setUp() {
        super.setUp()
        // `mockRegistry()` (RequestMockerTesting) is a `MockRegistry` that fails the test for
        // each request no filter matched; a plain `MockRegistry()` works the same without those
        // checks.
        registry = mockRegistry()
        registry.register(
            .get("https://weather.example.com/v1/forecast").query(["city": "Paris"]),
            respond: .json(["city": "Paris", "temperature": 21.5, "conditions": "sunny"])
        )
        registry.register(
            .get("https://weather.example.com/v1/forecast").query(["city": "Atlantis"]),
            respond: .json(["error": "unknown city"], status: 404)
        )
        session = registry.makeSession()
    }

    override func tearDown() {
        session.invalidateAndCancel()
        super.tearDown()
    }

    func testFetchesTheForecast() async throws {
        let client = WeatherClient(session: session, baseURL: TestServer.baseURL)

        let forecast = try await client.forecast(for: "Paris")

        XCTAssertEqual(forecast, Forecast(city: "Paris", temperature: 21.5, conditions: "sunny"))
        XCTAssertEqual(registry.journal.count, 1)
        registry.assertRequested(.get("/v1/forecast").query(["city": "Paris"]).header("Accept", "application/json"))
    }

    func testAnUnknownCityThrowsTheStatus() async {
        let client = WeatherClient(session: session, baseURL: TestServer.baseURL)

        do {
            let forecast = try await client.forecast(for: "Atlantis")
            XCTFail("expected WeatherError.unexpectedStatus(404), got \(forecast)")
        } catch {
            XCTAssertEqual(error as? WeatherError, .unexpectedStatus(404))
        }
    }
}
