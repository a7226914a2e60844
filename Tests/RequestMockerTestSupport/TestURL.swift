import Foundation

/// A URL on a host no network can reach, so a request that escapes the mock fails loudly.
package func url(_ string: String) -> URL {
    guard let url = URL(string: string.hasPrefix("http") ? string : "https://api.test" + string) else {
        preconditionFailure("bad test URL \(string)")
    }
    return url
}
