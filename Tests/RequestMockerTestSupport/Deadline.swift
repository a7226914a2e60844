import Foundation

package struct TimedOut: Error, CustomStringConvertible {
    package let seconds: Double
    package var description: String { "gave up after \(seconds) s" }
}

/// Runs `body`, failing with `TimedOut` if it takes longer than `seconds` (guards tests of
/// code paths that used to hang).
package func withDeadline<T: Sendable>(
    _ seconds: Double, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .seconds(seconds))
            throw TimedOut(seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimedOut(seconds: seconds) }
        return first
    }
}
