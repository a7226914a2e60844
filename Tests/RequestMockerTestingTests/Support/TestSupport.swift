import Foundation
import RequestMockerTestSupport
import RequestMockerTesting
import Testing

/// The body of a GET through `session`, as text, and its status.
func get(_ string: String, through session: URLSession) async throws -> (status: Int, body: String) {
    let (data, response) = try await session.data(from: url(string))
    return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
}

/// Collects the issues a `withKnownIssue` block records, to check them one by one afterwards.
final class IssueLog: Sendable {
    struct Recorded: Sendable, Equatable, CustomStringConvertible {
        let message: String
        let file: String
        let line: Int

        var description: String { "\(file):\(line): \(message)" }
    }

    private let recorded = LockedState([Recorded]())

    /// A `matching:` closure that keeps every issue and accepts it.
    var keep: @Sendable (Issue) -> Bool {
        { [recorded] issue in
            let message = issue.comments.map(\.rawValue).joined(separator: "\n")
            let file = issue.sourceLocation.map { URL(fileURLWithPath: $0.filePath).lastPathComponent } ?? "?"
            recorded.withLock {
                $0.append(Recorded(message: message, file: file, line: issue.sourceLocation?.line ?? 0))
            }
            return true
        }
    }

    var issues: [Recorded] { recorded.withLock { $0 } }
}
