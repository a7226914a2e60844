import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLError` code `body` failed with, or `nil` when it succeeded. Any other error is
/// rethrown, so the test fails with it.
package func urlErrorCode(_ body: () async throws -> Void) async throws -> URLError.Code? {
    do {
        try await body()
        return nil
    } catch let error as URLError {
        return error.code
    }
}

/// Whether `error` is a `URLError` with `code`, for `#expect(throws:)` predicates.
package func isURLError(_ error: any Error, _ code: URLError.Code) -> Bool {
    (error as? URLError)?.code == code
}
