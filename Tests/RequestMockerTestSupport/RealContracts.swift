import Foundation
import Testing

/// Real contracts, read from `../shared/openapi` beside the checkout (the project's test data,
/// not shipped with the package). Where that folder is absent (a user's clone) these tests are
/// skipped, and say so.
package enum RealContracts {
    package static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/RequestMockerTestSupport
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // the checkout
        .deletingLastPathComponent()  // the folder beside it
        .appendingPathComponent("shared/openapi")

    package static var available: Bool {
        FileManager.default.fileExists(atPath: folder.appendingPathComponent("README.md").path)
    }

    package static let skipped: Comment = "../shared/openapi (the project's real contracts) is not beside this checkout"

    package static func url(_ path: String) -> URL { folder.appendingPathComponent(path) }
}
