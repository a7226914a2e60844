import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A forecast, as `GET /v1/forecast?city=NAME` returns it:
/// `{"city": "Paris", "temperature": 21.5, "conditions": "sunny"}`.
public struct Forecast: Codable, Sendable, Equatable {
    public var city: String
    /// Degrees Celsius.
    public var temperature: Double
    public var conditions: String

    public init(city: String, temperature: Double, conditions: String) {
        self.city = city
        self.temperature = temperature
        self.conditions = conditions
    }
}

/// What ``WeatherClient`` throws when the server answers, but not with a forecast. Transport
/// errors (`URLError`) and decoding errors (`DecodingError`) pass through unchanged.
public enum WeatherError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with a status outside 200–299.
    case unexpectedStatus(Int)
    /// The response wasn't an HTTP response.
    case notHTTP

    public var description: String {
        switch self {
        case .unexpectedStatus(let status): "the weather service answered with status \(status)"
        case .notHTTP: "the weather service's answer wasn't an HTTP response"
        }
    }
}

/// The weather service's client. It uses the session it is given, so tests can hand it a
/// session whose requests a mock answers.
public struct WeatherClient: Sendable {
    public let session: URLSession
    /// The service's root, such as `https://weather.example.com`.
    public let baseURL: URL

    public init(session: URLSession, baseURL: URL) {
        self.session = session
        self.baseURL = baseURL
    }

    /// `GET /v1/forecast?city=NAME`.
    ///
    /// - Throws: ``WeatherError/unexpectedStatus(_:)`` for a status outside 200–299, a
    ///   `DecodingError` for a body that isn't a forecast, and the session's errors.
    public func forecast(for city: String) async throws -> Forecast {
        let url = baseURL.appending(path: "v1/forecast")
            .appending(queryItems: [URLQueryItem(name: "city", value: city)])
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("application/json", forHTTPHeaderField: "Accept")

        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw WeatherError.notHTTP }
        guard (200..<300).contains(http.statusCode) else { throw WeatherError.unexpectedStatus(http.statusCode) }
        return try JSONDecoder().decode(Forecast.self, from: data)
    }
}
