import Foundation
import RequestMockerTesting
import Testing
import WeatherAPI

/// Answers from the files in `MockData/`, copied into the test bundle (`.copy("MockData")`).
///
/// Files are named after the request (MockDataNaming.md): the method, `|`, the path with each
/// `/` as `-`, then `?` and the query exactly as the URL has it. So `GET /v1/forecast?city=Paris`
/// is answered by `GET|-v1-forecast?city=Paris.json` (a body, served as 200 JSON) or `.http`
/// (a whole response: status line, headers, blank line, body). A request with no file fails,
/// and the report lists every file name it looked for: name a new file after the first one.
@Suite(.mocking { try $0.register(MockDataFolder(Bundle.module, subdirectory: "MockData")) })
struct MockDataFolderTests {
    private var client: WeatherClient {
        WeatherClient(session: MockRegistry.current.session, baseURL: TestServer.baseURL)
    }

    /// `MockData/GET|-v1-forecast?city=Paris.json`.
    @Test func answersFromAJSONFile() async throws {
        let forecast = try await client.forecast(for: "Paris")

        #expect(forecast == Forecast(city: "Paris", temperature: 21.5, conditions: "sunny"))
    }

    /// `MockData/GET|-v1-forecast?city=Atlantis.http`: a whole response, with its 404 status.
    @Test func answersWithTheStatusOfAnHTTPFile() async throws {
        let weather = client
        await #expect(throws: WeatherError.unexpectedStatus(404)) {
            try await weather.forecast(for: "Atlantis")
        }
    }
}
