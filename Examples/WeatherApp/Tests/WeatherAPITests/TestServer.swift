import Foundation

/// Where the tests point the client. Nothing listens there: every request is answered by a
/// mock (a filter, a mock-data file or a cassette recording), or fails.
enum TestServer {
    static let baseURL = URL(string: "https://weather.example.com")!
}
