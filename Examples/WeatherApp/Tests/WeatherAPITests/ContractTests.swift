import Foundation
import RequestMockerOpenAPI
import RequestMockerTesting
import Testing
import WeatherAPI

/// Answers from the service's OpenAPI contract, `Contracts/weather.yaml`, with the
/// `RequestMockerOpenAPI` product: every request is checked against the contract and answered as
/// it declares, with its example; a filter in front of the contract picks a declared error.
@Suite(
    .mocking { registry in
        guard let file = Bundle.module.url(forResource: "weather", withExtension: "yaml", subdirectory: "Contracts")
        else { throw CocoaError(.fileNoSuchFile) }
        let contract = try OpenAPIContract(contentsOf: file)
        // Registered first, so it answers before the contract: the contract's own 404, its example.
        registry.register(
            .get("/v1/forecast").query(["city": "Atlantis"]),
            respond: .openAPI(contract, operationID: "getForecast", status: 404, example: "unknownCity"))
        registry.register(contract)
    })
struct ContractTests {
    private var client: WeatherClient {
        WeatherClient(session: MockRegistry.current.session, baseURL: TestServer.baseURL)
    }

    /// The 200 response's example, for any city.
    @Test func answersWithTheContractsExample() async throws {
        let forecast = try await client.forecast(for: "Paris")

        #expect(forecast == Forecast(city: "Lyon", temperature: 18.5, conditions: "cloudy"))
        #expect(MockRegistry.current.journal.last?.contractAnswer?.description == "getForecast 200 example")
    }

    /// The declared 404, chosen by the filter in front of the contract.
    @Test func answersWithADeclaredError() async throws {
        let weather = client
        await #expect(throws: WeatherError.unexpectedStatus(404)) {
            try await weather.forecast(for: "Atlantis")
        }
    }
}
