import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension URLResponse {
    /// The HTTP status, or -1 for a response that isn't HTTP.
    package var status: Int { (self as? HTTPURLResponse)?.statusCode ?? -1 }

    /// A header field's value, by case-insensitive name.
    package func header(_ name: String) -> String? { (self as? HTTPURLResponse)?.value(forHTTPHeaderField: name) }
}
